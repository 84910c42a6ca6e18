/** Rows and helpers the sandbox store's tests share (an order as the engine inserts one, stores, temp dirs). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { SandboxStore } from '../../../sandbox/store.ts';

/** An API sale order of merchant `m` on endpoint 1111, as the engine inserts one. */
export const order = (client: string, createdAt = 1) => ({
  merchant: 'm',
  endpoint_kind: 'endpoint' as const,
  endpoint_ref: '1111',
  end_point_id: '1111',
  op_path: 'v2/sale',
  kind: 'sale' as const,
  client_orderid: client,
  params_hash: 'h',
  ack_json: '{}',
  created_at: createdAt,
});

/** The names of a table's indexes, sorted. */
export const indexes = (db: Database.Database, table: string) =>
  (
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name")
      .all(table) as Array<{ name: string }>
  ).map((r) => r.name);

/** A store in memory, closed after the test. */
export function memoryStore(): SandboxStore {
  const store = new SandboxStore(':memory:');
  stores.push(store);
  return store;
}
const stores: SandboxStore[] = [];

/** A fresh directory, removed after the test. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
const dirs: string[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * Turns a sandbox file into the layout schema version 2 left (before migration 3): no schedule
 * columns on `recurring_payments`, none of the tables that made themselves outside the version, and
 * `relay_deliveries` as issue 21 made it (no `url_field`). `keep` runs on that layout first, with
 * the raw database: rows an older sandbox wrote.
 */
export function toVersion2Layout(file: string, keep?: (db: Database.Database) => void): void {
  new SandboxStore(file).close();
  const db = new BetterSqlite3(file);
  try {
    db.exec(`
      DROP INDEX recurring_due; DROP INDEX recurring_merchant_due; DROP INDEX recurring_merchant;
      ALTER TABLE recurring_payments DROP COLUMN status;
      ALTER TABLE recurring_payments DROP COLUMN next_charge_at;
      ALTER TABLE recurring_payments DROP COLUMN next_charge_no;
      ALTER TABLE recurring_payments DROP COLUMN charges_made;
      DROP TABLE recurring_charges; DROP TABLE hosted_fields_tickets; DROP TABLE hosted_fields_tokens;
      DROP TABLE scenario_chargebacks; DROP TABLE test_clocks; DROP TABLE relay_deliveries;
      CREATE TABLE relay_deliveries (
        id INTEGER PRIMARY KEY, callback_id INTEGER, order_id INTEGER NOT NULL, merchant TEXT NOT NULL,
        kind TEXT NOT NULL, mutation TEXT, url TEXT NOT NULL, at INTEGER NOT NULL,
        http_status INTEGER, result TEXT NOT NULL, duration_ms INTEGER, body_excerpt TEXT);
      DELETE FROM meta WHERE key = 'recurring_unscheduled';
      UPDATE meta SET value = '2' WHERE key = 'schema_version';
    `);
    keep?.(db);
  } finally {
    db.close();
  }
}
