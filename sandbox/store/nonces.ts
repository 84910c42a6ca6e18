import { limitClause } from '../sqlite.ts';
import type { Statements, TableSchema } from './statements.ts';

/** OAuth nonces, each kept until it expires. */
export const NONCES_TABLE: TableSchema = {
  name: 'nonces',
  ddl: `CREATE TABLE IF NOT EXISTS nonces (
  consumer TEXT NOT NULL, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (consumer, nonce)
);
CREATE INDEX IF NOT EXISTS nonces_expiry ON nonces (expires_at);`,
};

/** Expired nonces deleted per statement: each batch is short, so the event loop never stalls for long. */
export const NONCE_PURGE_BATCH = 200;

export class Nonces {
  constructor(private readonly s: Statements) {}

  /** Records a nonce; false when the same consumer already used it and it has not expired. */
  use(consumer: string, nonce: string, now: number, expiresAt: number): boolean {
    // One statement: a new nonce is inserted, an expired one taken over, a live one left alone.
    const r = this.s
      .stmt(
        `INSERT INTO nonces (consumer, nonce, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (consumer, nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE nonces.expires_at <= ?`,
      )
      .run(consumer, nonce, expiresAt, now);
    return r.changes === 1;
  }

  /**
   * Deletes at most `limit` expired nonces (through the expiry index) and returns how many: the
   * caller spreads a large purge over several turns of the event loop.
   */
  purge(now: number, limit = NONCE_PURGE_BATCH): number {
    return this.s
      .stmt(
        `DELETE FROM nonces WHERE rowid IN (SELECT rowid FROM nonces WHERE expires_at <= ? ORDER BY expires_at ${limitClause(limit)})`,
      )
      .run(now).changes;
  }
}
