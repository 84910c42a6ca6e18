import type Database from 'better-sqlite3';
import type { TableSchema } from './statements.ts';

/** The store's own settings: `schema_version`, `orders_id_floor` (the card hash's key is in the key file). */
export const META_TABLE: TableSchema = {
  name: 'meta',
  ddl: 'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);',
};

export class Meta {
  constructor(private readonly stmt: (sql: string) => Database.Statement) {}

  get(key: string): string | undefined {
    const row = this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  set(key: string, value: string): void {
    this.stmt(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }
}
