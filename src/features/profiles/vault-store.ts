import { openDatabase, withStore } from '../../browser/idb.ts';
import { VaultRecordSchema, type VaultRecord } from './vault-record.ts';

const DB_NAME = 'pay-console-secrets';
const STORE = 'vault';
const RECORD_KEY = 'device';

let dbPromise: Promise<IDBDatabase> | null = null;

function db(): Promise<IDBDatabase> {
  dbPromise ??= openDatabase(
    DB_NAME,
    1,
    (d) => {
      if (!d.objectStoreNames.contains(STORE)) d.createObjectStore(STORE);
    },
    'secrets cannot be remembered on this device.',
  );
  return dbPromise;
}

export type StoredVault =
  { state: 'none' } | { state: 'present'; record: VaultRecord } | { state: 'damaged'; message: string };

/**
 * A hint kept in localStorage (read synchronously, unlike IndexedDB) that a vault record exists:
 * without it the first render may take "nothing remembered" at once and fill the demo profile's
 * secrets, while the real read runs behind (a record found anyway, say from a version without the
 * hint, is then honoured: see the profiles provider).
 */
const HINT_KEY = 'pay-console.vault';

function setHint(present: boolean): void {
  try {
    if (present) globalThis.localStorage?.setItem(HINT_KEY, 'present');
    else globalThis.localStorage?.removeItem(HINT_KEY);
  } catch {
    // Storage unavailable: the first render then waits for the IndexedDB read, as it always did.
  }
}

/** True when this device has, as far as the hint knows, no remembered secrets. */
export function vaultHintSaysNone(): boolean {
  try {
    return globalThis.localStorage?.getItem(HINT_KEY) === null;
  } catch {
    return false;
  }
}

export async function readVault(): Promise<StoredVault> {
  const raw = await withStore(await db(), STORE, 'readonly', (s) => s.get(RECORD_KEY) as IDBRequest<unknown>);
  setHint(raw !== undefined);
  if (raw === undefined) return { state: 'none' };
  const parsed = VaultRecordSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      state: 'damaged',
      message:
        'The remembered secrets on this device are in an unknown format: use "Forget on this device" and enter them again.',
    };
  }
  return { state: 'present', record: parsed.data };
}

export async function writeVault(record: VaultRecord): Promise<void> {
  const valid = VaultRecordSchema.parse(record);
  // The hint first: a tab that starts while this write is under way must not take "nothing".
  setHint(true);
  await withStore(await db(), STORE, 'readwrite', (s) => s.put(valid, RECORD_KEY));
}

export async function deleteVault(): Promise<void> {
  await withStore(await db(), STORE, 'readwrite', (s) => s.delete(RECORD_KEY));
  setHint(false);
}
