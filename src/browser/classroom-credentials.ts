// zod/mini: the profiles provider reads this on the first page.
import { z } from 'zod/mini';
import { openDatabase, withStore } from './idb.ts';
import { Signal } from '../core/store.ts';

/**
 * A classroom trainee's merchant as this browser holds it: what the server handed out at joining,
 * and the private key this browser generated (only its public key went to the server). Kept in
 * IndexedDB, unencrypted, so a reload (and a browser restart) keeps the trainee signing, until the
 * trainee leaves the classroom.
 */
const nonEmpty = () => z.string().check(z.minLength(1));
export const ClassroomCredentialsSchema = z.object({
  version: z.literal(1),
  traineeId: nonEmpty(),
  name: nonEmpty(),
  login: nonEmpty(),
  controlKey: nonEmpty(),
  endpointId: z.string().check(z.regex(/^\d+$/)),
  endpointGroupId: z.string().check(z.regex(/^\d*$/)),
  privateKeyPkcs8Pem: nonEmpty(),
});
export type ClassroomCredentials = z.infer<typeof ClassroomCredentialsSchema>;

const DB = 'pay-console-classroom';
const STORE = 'credentials';
const KEY = 'trainee';
let dbPromise: Promise<IDBDatabase> | undefined;

function db(): Promise<IDBDatabase> {
  dbPromise ??= openDatabase(
    DB,
    1,
    (d) => {
      if (!d.objectStoreNames.contains(STORE)) d.createObjectStore(STORE);
    },
    'the classroom merchant cannot be kept across reloads; join again after a reload.',
  );
  return dbPromise;
}

// This tab's listeners only (a BroadcastChannel would add to the first page's code): another tab
// sees a change at its next load.
const saved = new Signal();
const changed = saved.fire;

/** Calls a listener when this tab saves or deletes the credentials; returns the unsubscribe. */
export const subscribeClassroomCredentials = saved.subscribe;

/** Keeps the credentials, or deletes them (null: leaving the classroom). */
export async function saveClassroomCredentials(c: ClassroomCredentials | null): Promise<void> {
  const d = await db();
  await (c
    ? withStore(d, STORE, 'readwrite', (s) => s.put(c, KEY))
    : withStore(d, STORE, 'readwrite', (s) => s.delete(KEY)));
  changed();
}

/** The trainee's credentials, or null when this browser has not joined a classroom (or they are unreadable). */
export async function loadClassroomCredentials(): Promise<ClassroomCredentials | null> {
  try {
    const raw: unknown = await withStore(await db(), STORE, 'readonly', (s) => s.get(KEY));
    const parsed = ClassroomCredentialsSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
