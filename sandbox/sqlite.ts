import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ownerOnly, prepareDatabaseFile } from './secure-files.ts';

/**
 * Opens (creating its folder, owner-only) a database in WAL mode, as the sandbox and classroom keep
 * theirs: the file and its `-wal`/`-shm` are the owner's alone (0600), made so or fixed.
 */
export function openDatabase(dbPath: string): Database.Database {
  const onDisk = dbPath !== ':memory:';
  if (onDisk) {
    mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true, mode: 0o700 });
    prepareDatabaseFile(dbPath);
  }
  const db = new Database(dbPath);
  try {
    db.pragma('journal_mode = WAL');
    // WAL with NORMAL survives a process crash; only an OS crash may lose the last commits.
    db.pragma('synchronous = NORMAL');
    if (onDisk) for (const f of [`${dbPath}-wal`, `${dbPath}-shm`]) ownerOnly(f);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * Prepares each SQL text once per connection: `prepare` was the top function on every sandbox
 * path (a quarter of busy CPU) when the stores prepared on every call.
 */
export function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
}

/**
 * A LIMIT (and OFFSET) written into the SQL text, one statement per value. Not `LIMIT ?`: this
 * SQLite (3.53) plans with a bound LIMIT's value, so every new binding expired the statement and
 * each call prepared it again (~3 µs a due-request read, ~4.5 µs a nonce purge).
 */
export function limitClause(limit: number, offset?: number): string {
  for (const n of [limit, offset ?? 0])
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`bad LIMIT/OFFSET ${n}`);
  return offset === undefined ? `LIMIT ${limit}` : `LIMIT ${limit} OFFSET ${offset}`;
}
