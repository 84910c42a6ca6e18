/** Rows and helpers the sandbox store's tests share (an order as the engine inserts one, stores, temp dirs). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { SandboxStore } from '../../sandbox/store.ts';

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
