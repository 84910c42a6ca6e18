import type { Statements, TableSchema } from './statements.ts';

/** Merchants' public keys registered at run time (over the configured, shipped ones). */
export const MERCHANT_KEYS_TABLE: TableSchema = {
  name: 'merchant_keys',
  ddl: 'CREATE TABLE IF NOT EXISTS merchant_keys (login TEXT PRIMARY KEY, public_key_pem TEXT NOT NULL, updated_at INTEGER NOT NULL);',
};

export class MerchantKeys {
  constructor(private readonly s: Statements) {}

  all(): Array<{ login: string; public_key_pem: string }> {
    return this.s.stmt('SELECT login, public_key_pem FROM merchant_keys').all() as Array<{
      login: string;
      public_key_pem: string;
    }>;
  }

  /** The key registered at run time for one merchant, and when (sandbox clock, ms). */
  of(login: string): { public_key_pem: string; updated_at: number } | undefined {
    return this.s.stmt('SELECT public_key_pem, updated_at FROM merchant_keys WHERE login = ?').get(login) as
      { public_key_pem: string; updated_at: number } | undefined;
  }

  set(login: string, pem: string, now: number): void {
    this.s
      .stmt(
        'INSERT INTO merchant_keys (login, public_key_pem, updated_at) VALUES (?, ?, ?) ON CONFLICT(login) DO UPDATE SET public_key_pem = excluded.public_key_pem, updated_at = excluded.updated_at',
      )
      .run(login, pem, now);
  }

  /** Forgets the key registered at run time: the merchant's configured (shipped) key applies again. */
  delete(login: string): boolean {
    return this.s.stmt('DELETE FROM merchant_keys WHERE login = ?').run(login).changes > 0;
  }
}
