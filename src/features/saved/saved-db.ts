import { changeFeed } from '../../browser/change-feed.ts';
import { lazyDatabase, withStore } from '../../browser/idb.ts';
import type { RequestDraft } from '../../model/index.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import type { StepChecks } from '../../model/step-checks.ts';
import { copyName, freeName, type FileCollection } from './saved-file.ts';
import type { SavedStore } from './save-session.ts';
import { CollectionSchema, SavedRequestSchema, type Collection, type SavedRequest } from './saved-schema.ts';

const DB_NAME = 'pay-console-saved';
const COLLECTIONS = 'collections';
const REQUESTS = 'requests';

const db = lazyDatabase(
  DB_NAME,
  1,
  (d) => {
    if (!d.objectStoreNames.contains(COLLECTIONS)) d.createObjectStore(COLLECTIONS, { keyPath: 'id' });
    if (!d.objectStoreNames.contains(REQUESTS))
      d.createObjectStore(REQUESTS, { keyPath: 'id' }).createIndex('collectionId', 'collectionId');
  },
  'saved requests cannot be kept.',
);

const feed = changeFeed('pay-console-saved');
const changed = feed.changed;

/** Calls back whenever saved requests change, in this tab or another one. */
export const onSavedChange = feed.subscribe;

const now = () => new Date().toISOString();
const newId = () => globalThis.crypto.randomUUID();

/** Runs writes over both stores in one transaction, so a failure leaves nothing half done. */
async function write(run: (c: IDBObjectStore, r: IDBObjectStore) => void): Promise<void> {
  const tx = (await db()).transaction([COLLECTIONS, REQUESTS], 'readwrite');
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  run(tx.objectStore(COLLECTIONS), tx.objectStore(REQUESTS));
  await done;
  changed();
}

export interface SavedState {
  collections: Collection[];
  requests: SavedRequest[];
  /** Stored records that could not be read (an unknown format). */
  unreadable: number;
}

/** Records read (and parsed) per task: 100,000 saved requests read at once held the page for seconds. */
const READ_BATCH = 1_000;
/** Records written per task by a large import (the worker's progress is told per batch). */
const WRITE_BATCH = 1_000;

/** Every record of a store, a batch per task, each parsed as it comes. */
async function readAll<T>(
  d: IDBDatabase,
  store: string,
  parse: (raw: unknown) => T | undefined,
): Promise<{ rows: T[]; unreadable: number }> {
  const rows: T[] = [];
  let unreadable = 0;
  let after: IDBValidKey | undefined;
  for (;;) {
    const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
    const batch = await withStore(
      d,
      store,
      'readonly',
      (s) => s.getAll(range, READ_BATCH) as IDBRequest<unknown[]>,
    );
    for (const raw of batch) {
      const row = parse(raw);
      if (row === undefined) unreadable++;
      else rows.push(row);
    }
    if (batch.length < READ_BATCH) return { rows, unreadable };
    after = (batch[batch.length - 1] as { id: IDBValidKey }).id;
  }
}

const collator = new Intl.Collator();
const byName = (a: { name: string }, b: { name: string }) => collator.compare(a.name, b.name);

/** Collections by name, requests by name; records that do not parse are counted, not shown. */
export async function listSaved(): Promise<SavedState> {
  const d = await db();
  const [collections, requests] = await Promise.all([
    readAll(d, COLLECTIONS, (raw) => {
      const c = CollectionSchema.safeParse(raw);
      return c.success ? c.data : undefined;
    }),
    readAll(d, REQUESTS, (raw) => {
      const r = SavedRequestSchema.safeParse(raw);
      return r.success ? r.data : undefined;
    }),
  ]);
  return {
    collections: collections.rows.sort(byName),
    requests: requests.rows.sort(byName),
    unreadable: collections.unreadable + requests.unreadable,
  };
}

/**
 * Saves an imported collection and its requests (already checked and masked) in one transaction,
 * {@link WRITE_BATCH} requests per task. Called in the import worker: terminating it aborts the
 * transaction, nothing kept. Returns the collection's name (made free) and the requests saved.
 */
export async function importPrepared(
  name: string,
  collectionId: string,
  requests: readonly SavedRequest[],
  variables: Readonly<Record<string, string>>,
  onProgress: (done: number) => void,
): Promise<{ name: string; requests: number }> {
  const d = await db();
  const existing = await readAll(d, COLLECTIONS, (raw) => {
    const c = CollectionSchema.safeParse(raw);
    return c.success ? c.data.name : undefined;
  });
  const c = CollectionSchema.parse({
    version: 1,
    id: collectionId,
    name: freeName(name, new Set(existing.rows)),
    createdAt: now(),
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
  });
  const tx = d.transaction([COLLECTIONS, REQUESTS], 'readwrite');
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  tx.objectStore(COLLECTIONS).put(c);
  const store = tx.objectStore(REQUESTS);
  let i = 0;
  // The next batch is put from the last one's success: the transaction stays open between tasks.
  const next = () => {
    let last: IDBRequest | undefined;
    for (const end = Math.min(i + WRITE_BATCH, requests.length); i < end; i++) last = store.put(requests[i]);
    onProgress(i);
    if (last && i < requests.length) last.onsuccess = next;
  };
  next();
  await done;
  changed();
  return { name: c.name, requests: requests.length };
}

export async function createCollection(name: string): Promise<Collection> {
  const c = CollectionSchema.parse({ version: 1, id: newId(), name, createdAt: now() });
  await write((cs) => cs.put(c));
  return c;
}

export async function renameCollection(collection: Collection, name: string): Promise<void> {
  const c = CollectionSchema.parse({ ...collection, name });
  await write((cs) => cs.put(c));
}

/** Deletes a collection and every request in it. */
export async function deleteCollection(id: string): Promise<void> {
  const d = await db();
  const keys = await withStore(d, REQUESTS, 'readonly', (s) => s.index('collectionId').getAllKeys(id));
  await write((cs, rs) => {
    cs.delete(id);
    for (const k of keys) rs.delete(k);
  });
}

/** Saves a draft under a name; the draft is masked first (no card number, CVV, secret or signature). */
export async function saveRequest(input: {
  name: string;
  collectionId: string;
  draft: RequestDraft;
}): Promise<SavedRequest> {
  const at = now();
  const r = SavedRequestSchema.parse({
    version: 1,
    id: newId(),
    collectionId: input.collectionId,
    name: input.name,
    draft: maskDraft(input.draft),
    savedAt: at,
    updatedAt: at,
  });
  await write((_cs, rs) => rs.put(r));
  return r;
}

/** Renames a saved request or gives it another draft (masked first); returns it as stored. */
export async function updateRequest(
  request: SavedRequest,
  change: { name?: string; draft?: RequestDraft; checks?: StepChecks | null },
): Promise<SavedRequest> {
  const { checks: _old, ...rest } = request;
  const checks = change.checks === undefined ? request.checks : (change.checks ?? undefined);
  const r = SavedRequestSchema.parse({
    ...rest,
    ...(checks ? { checks } : {}),
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.draft ? { draft: maskDraft(change.draft) } : {}),
    updatedAt: now(),
  });
  await write((_cs, rs) => rs.put(r));
  return r;
}

/** A copy beside the original, named "<name> (copy)" (then "(copy) (2)", …). */
export async function duplicateRequest(request: SavedRequest, siblings: readonly SavedRequest[]) {
  const taken = new Set(siblings.filter((s) => s.collectionId === request.collectionId).map((s) => s.name));
  return saveRequest({
    name: copyName(request.name, taken),
    collectionId: request.collectionId,
    draft: request.draft,
  });
}

/** The IndexedDB store of the workbench's save session. */
export const savedStore: SavedStore = {
  list: listSaved,
  createCollection,
  save: saveRequest,
  update: updateRequest,
};

export async function deleteRequest(id: string): Promise<void> {
  await write((_cs, rs) => rs.delete(id));
}

/**
 * Adds imported collections, all or nothing. An imported collection never merges into an existing
 * one: a name already in use gets " (2)", so an import never changes what is there.
 */
export async function importCollections(
  imported: readonly FileCollection[],
): Promise<{ collections: number; requests: number }> {
  const d = await db();
  const existing = await withStore(d, COLLECTIONS, 'readonly', (s) => s.getAll() as IDBRequest<unknown[]>);
  const taken = new Set(
    existing.flatMap((raw) => {
      const c = CollectionSchema.safeParse(raw);
      return c.success ? [c.data.name] : [];
    }),
  );
  const at = now();
  const collections: Collection[] = [];
  const requests: SavedRequest[] = [];
  for (const ic of imported) {
    const name = freeName(ic.name, taken);
    taken.add(name);
    const c = CollectionSchema.parse({
      version: 1,
      id: newId(),
      name,
      createdAt: at,
      ...(ic.variables ? { variables: ic.variables } : {}),
    });
    collections.push(c);
    for (const [seq, ir] of ic.requests.entries()) {
      requests.push(
        SavedRequestSchema.parse({
          version: 1,
          id: newId(),
          collectionId: c.id,
          name: ir.name,
          draft: maskDraft(ir.draft),
          ...(ir.checks ? { checks: ir.checks } : {}),
          seq,
          savedAt: at,
          updatedAt: at,
        }),
      );
    }
  }
  await write((cs, rs) => {
    for (const c of collections) cs.put(c);
    for (const r of requests) rs.put(r);
  });
  return { collections: collections.length, requests: requests.length };
}
