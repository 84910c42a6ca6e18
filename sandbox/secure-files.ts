import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Secrets at rest (docs/security.md): state files are the owner's alone (0600, folders 0700), and
 * the secrets that protect what a database holds live in a key file beside it, never in it, so a
 * copy of the database file alone gives back no card number, control key or trainer token.
 */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Sets `file`'s mode to 0600 if it exists (a state file made before this rule, or by SQLite). */
export function ownerOnly(file: string): void {
  try {
    chmodSync(file, FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/**
 * The files the sandbox and the classroom keep: databases and their logs, key files, the trainer
 * token, the demo merchant, certificates and keys. Only these are changed under a data directory,
 * so a `DATA_DIR` pointed at a folder of other files leaves those alone.
 */
const STATE_FILE =
  /\.sqlite(-wal|-shm|-journal|\.keys)?$|^trainer-token$|^sandbox-demo-merchant\.json$|\.pem$/;

/**
 * Creates `dir` (0700) if needed and makes it and the state files under it (two levels: the
 * classroom's sandbox, `tls/`) the owner's alone: 0600, their folders 0700. Symbolic links are
 * never followed.
 */
export function secureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const walk = (d: string, depth: number): void => {
    chmodSync(d, DIR_MODE);
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isFile() && STATE_FILE.test(name)) chmodSync(p, FILE_MODE);
      else if (st.isDirectory() && depth < 2 && holdsState(p)) walk(p, depth + 1);
    }
  };
  walk(dir, 0);
}

function holdsState(d: string): boolean {
  try {
    return readdirSync(d).some((n) => STATE_FILE.test(n));
  } catch {
    return false;
  }
}

/**
 * Makes the database file 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm` the
 * database file's mode), and fixes the mode of an existing one and of its `-wal`/`-shm`.
 */
export function prepareDatabaseFile(dbPath: string): void {
  closeSync(openSync(dbPath, 'a', FILE_MODE));
  for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`]) ownerOnly(f);
}

const KeyFileSchema = z.object({
  version: z.literal(1),
  /** HMAC-SHA256 key of the cards' hashes (orders, card references, hosted-fields tokens). */
  cardHashSecret: z.string().regex(/^[0-9a-f]{64}$/),
  /** AES-256-GCM key of the trainees' control keys in `added_merchants`. */
  controlKeyKey: z.string().regex(/^[0-9a-f]{64}$/),
});
export type KeyFile = z.infer<typeof KeyFileSchema>;

/** The key file of a database: beside it, `<name>.keys`. */
export function keyFilePath(dbPath: string): string {
  return `${dbPath}.keys`;
}

function readKeyFile(file: string): KeyFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const parsed = KeyFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(
      `The key file ${file} cannot be read (${parsed.error.issues[0]?.message ?? 'bad shape'}): restore it from a backup, or move the database and it away to start afresh.`,
    );
  return parsed.data;
}

/**
 * The database's key file, made (0600) on first use. `cardHashSecret`: a secret an older database
 * kept in its own `meta` table, moved here so that the hashes already made still match; it wins
 * over the file's (the database's hashes were made with it).
 */
export function loadKeyFile(dbPath: string, cardHashSecret?: string): KeyFile {
  const file = keyFilePath(dbPath);
  const found = readKeyFile(file);
  if (found && (cardHashSecret === undefined || cardHashSecret === found.cardHashSecret)) {
    ownerOnly(file);
    return found;
  }
  const keys: KeyFile = {
    version: 1,
    cardHashSecret: cardHashSecret ?? randomBytes(32).toString('hex'),
    controlKeyKey: found?.controlKeyKey ?? randomBytes(32).toString('hex'),
  };
  const text = JSON.stringify(keys, null, 2) + '\n';
  if (found) writeFileSync(file, text, { mode: FILE_MODE });
  else {
    try {
      writeFileSync(file, text, { mode: FILE_MODE, flag: 'wx' });
    } catch (e) {
      // Another process on the same file made it first: use theirs.
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadKeyFile(dbPath, cardHashSecret);
      throw e;
    }
  }
  ownerOnly(file);
  return keys;
}

/** A key file held in memory only (an in-memory database). */
export function memoryKeys(): KeyFile {
  return {
    version: 1,
    cardHashSecret: randomBytes(32).toString('hex'),
    controlKeyKey: randomBytes(32).toString('hex'),
  };
}

const SEALED = 'aes256gcm:';

/** Whether a stored value is sealed (see {@link seal}). */
export function isSealed(value: string): boolean {
  return value.startsWith(SEALED);
}

/** Encrypts `value` with AES-256-GCM under `keyHex`, bound to `context` (e.g. the merchant's login). */
export function seal(value: string, keyHex: string, context: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  c.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([c.update(value, 'utf8'), c.final()]);
  return SEALED + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
}

/** Decrypts what {@link seal} made; a value not sealed (an older row) is returned as it is. */
export function unseal(stored: string, keyHex: string, context: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(SEALED.length), 'base64');
  const d = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), raw.subarray(0, 12));
  d.setAAD(Buffer.from(context, 'utf8'));
  d.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch (e) {
    throw new Error(
      `A stored control key of ${context} does not open with the database's key file: the key file is not the one made with this database.`,
      { cause: e },
    );
  }
}
