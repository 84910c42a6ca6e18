// zod/mini: the profiles provider reads this on the first page.
import { z } from 'zod/mini';
import { openDatabase, withStore } from './idb.ts';

/**
 * A classroom trainee's merchant as this browser holds it: what the server handed out at joining,
 * and the private key this browser generated (only its public key went to the server). Kept in
 * IndexedDB so a reload keeps the trainee signing.
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

export async function saveClassroomCredentials(c: ClassroomCredentials): Promise<void> {
  await withStore(await db(), STORE, 'readwrite', (s) => s.put(c, KEY));
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
