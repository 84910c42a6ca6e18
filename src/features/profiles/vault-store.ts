import { openDatabase, withStore } from '../../shared/browser/idb.ts';
import { VaultRecordSchema, type VaultRecord } from './vault-crypto.ts';

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

export async function readVault(): Promise<StoredVault> {
  const raw = await withStore(await db(), STORE, 'readonly', (s) => s.get(RECORD_KEY) as IDBRequest<unknown>);
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
  await withStore(await db(), STORE, 'readwrite', (s) => s.put(valid, RECORD_KEY));
}

export async function deleteVault(): Promise<void> {
  await withStore(await db(), STORE, 'readwrite', (s) => s.delete(RECORD_KEY));
}
