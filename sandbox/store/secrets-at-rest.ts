import type Database from 'better-sqlite3';
import { isSealed, loadKeyFile, memoryKeys, seal, type KeyFile } from '../secure-files.ts';
import type { Meta } from './meta.ts';

/**
 * Moves the secrets an older file kept in itself to its key file (sandbox/secure-files.ts): the
 * card hash's key (`meta.card_hash_secret`, kept so the existing hashes still match) and the
 * trainees' control keys in clear (sealed with the key file's key). Overwritten content is zeroed
 * (`secure_delete`) and the log truncated, so the old values are gone from the files too.
 * Returns the keys this store works with.
 */
export function secretsOutOfFile(
  db: Database.Database,
  tx: <T>(fn: () => T) => T,
  meta: Meta,
  dbPath: string,
): KeyFile {
  if (dbPath === ':memory:') return memoryKeys();
  let moved = false;
  const keys = tx(() => {
    const old = meta.get('card_hash_secret');
    const clear = (
      db.prepare('SELECT login, control_key FROM added_merchants').all() as Array<{
        login: string;
        control_key: string;
      }>
    ).filter((r) => !isSealed(r.control_key));
    const k = loadKeyFile(dbPath, old);
    if (old === undefined && clear.length === 0) return k;
    moved = true;
    db.pragma('secure_delete = ON');
    const update = db.prepare('UPDATE added_merchants SET control_key = ? WHERE login = ?');
    for (const r of clear) update.run(seal(r.control_key, k.controlKeyKey, r.login), r.login);
    db.prepare("DELETE FROM meta WHERE key = 'card_hash_secret'").run();
    return k;
  });
  if (moved) {
    db.pragma('secure_delete = OFF');
    // The log still holds the pages as they were: copy it back and empty it.
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Another process reads at this moment: the log is emptied by a later checkpoint.
    }
  }
  return keys;
}
