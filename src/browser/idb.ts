/** Promise wrappers over IndexedDB, shared by the features that keep data in the browser. */
export function idbRequest<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Opens a database; `unavailable` says what the user loses when the browser has no IndexedDB. */
export function openDatabase(
  name: string,
  version: number,
  upgrade: (db: IDBDatabase) => void,
  unavailable: string,
): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined')
    return Promise.reject(new Error(`This browser has no IndexedDB: ${unavailable}`));
  const req = indexedDB.open(name, version);
  req.onupgradeneeded = () => upgrade(req.result);
  return idbRequest(req);
}

export async function withStore<T>(
  db: IDBDatabase,
  store: string,
  mode: IDBTransactionMode,
  run: (s: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const tx = db.transaction(store, mode);
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  const result = await idbRequest(run(tx.objectStore(store)));
  await done;
  return result;
}

/** A database opened on first use and kept; a failed open is tried again on the next call. */
export function lazyDatabase(
  name: string,
  version: number,
  upgrade: (db: IDBDatabase) => void,
  unavailable: string,
): () => Promise<IDBDatabase> {
  let opening: Promise<IDBDatabase> | null = null;
  return () => {
    opening ??= openDatabase(name, version, upgrade, unavailable);
    opening.catch(() => {
      opening = null;
    });
    return opening;
  };
}
