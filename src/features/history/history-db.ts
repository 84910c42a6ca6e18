import { changeFeed } from '../../browser/change-feed.ts';
import { lazyDatabase, withStore } from '../../browser/idb.ts';
import { clearRecentOrders } from '../../browser/recent-orders-session.ts';
import { HistoryEntrySchema, parseStoredEntry, type HistoryEntry } from './history-schema.ts';

const DB_NAME = 'pay-console-history';
const STORE = 'exchanges';

const db = lazyDatabase(
  DB_NAME,
  1,
  (d) => {
    if (!d.objectStoreNames.contains(STORE))
      d.createObjectStore(STORE, { keyPath: 'id' }).createIndex('sentAt', 'sentAt');
  },
  'history cannot be kept.',
);

const feed = changeFeed('pay-console-history');
const changed = feed.changed;

/** Calls back whenever history changes, in this tab or another one. */
export const onHistoryChange = feed.subscribe;

export async function putEntry(entry: HistoryEntry): Promise<void> {
  const valid = HistoryEntrySchema.parse(entry);
  await withStore(await db(), STORE, 'readwrite', (s) => s.put(valid));
  changed();
}

/** All readable entries, newest first, and how many stored records could not be read. */
export async function listEntries(): Promise<{ entries: HistoryEntry[]; unreadable: number }> {
  const raw = await withStore(await db(), STORE, 'readonly', (s) => s.getAll() as IDBRequest<unknown[]>);
  const entries: HistoryEntry[] = [];
  let unreadable = 0;
  for (const r of raw) {
    const e = parseStoredEntry(r);
    if (e) entries.push(e);
    else unreadable++;
  }
  entries.sort((a, b) => (a.sentAt < b.sentAt ? 1 : a.sentAt > b.sentAt ? -1 : 0));
  return { entries, unreadable };
}

export async function deleteEntry(id: string): Promise<void> {
  await withStore(await db(), STORE, 'readwrite', (s) => s.delete(id));
  changed();
}

export async function clearEntries(): Promise<void> {
  await withStore(await db(), STORE, 'readwrite', (s) => s.clear());
  clearRecentOrders(); // the session's order ids go with the history
  changed();
}
