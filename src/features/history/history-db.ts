import { changeFeed } from '../../browser/change-feed.ts';
import { lazyDatabase, withStore } from '../../browser/idb.ts';
import { clearRecentOrders } from '../../browser/recent-orders-session.ts';
import { TRANSACTION_STATUSES } from '../../catalog/responses.ts';
import { UNKNOWN_LABEL } from '../../model/send-certainty.ts';
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

const STATUS_PATHS: ReadonlySet<string> = new Set(['v2/status', 'v4/status']);
const STATUSES: ReadonlySet<string> = new Set(TRANSACTION_STATUSES);

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

/**
 * A status answer about `clientOrderId` resolves the unknown outcomes of that order sent from the
 * same profile to the same target: they then show what the gateway says (and keep following it).
 */
export async function resolveUnknownOutcomes(status: HistoryEntry): Promise<number> {
  if (!STATUS_PATHS.has(status.operationPath) || !status.clientOrderId) return 0;
  if (status.outcome === null || !STATUSES.has(status.outcome)) return 0;
  const outcome: string = status.outcome;
  const raw = await withStore(await db(), STORE, 'readonly', (s) => s.getAll() as IDBRequest<unknown[]>);
  const open = raw
    .map(parseStoredEntry)
    .filter(
      (e): e is HistoryEntry =>
        e !== null &&
        e.id !== status.id &&
        e.clientOrderId === status.clientOrderId &&
        e.targetName === status.targetName &&
        e.profileName === status.profileName &&
        (e.outcome === UNKNOWN_LABEL || e.resolvedAt !== undefined),
    );
  if (open.length === 0) return 0;
  const handle = await db();
  for (const e of open) {
    const next: HistoryEntry = {
      ...e,
      outcome,
      orderId: e.orderId ?? status.orderId,
      resolvedAt: status.sentAt,
    };
    await withStore(handle, STORE, 'readwrite', (s) => s.put(HistoryEntrySchema.parse(next)));
  }
  changed();
  return open.length;
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
