import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { newRequest } from '../../../sandbox/engine/orders.ts';
import { SandboxStore } from '../../../sandbox/store.ts';
import { indexes, order, tempDir } from './fixtures.ts';

/** The orders and requests tables as files written before the rebuild have them. */
const OLD_TABLES = `
CREATE TABLE orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merchant TEXT NOT NULL, endpoint_kind TEXT NOT NULL, endpoint_ref TEXT NOT NULL, end_point_id TEXT NOT NULL,
  op_path TEXT NOT NULL, kind TEXT NOT NULL, client_orderid TEXT NOT NULL, params_hash TEXT NOT NULL, ack_json TEXT NOT NULL,
  amount_minor INTEGER NOT NULL DEFAULT 0, currency TEXT,
  captured_minor INTEGER NOT NULL DEFAULT 0, refunded_minor INTEGER NOT NULL DEFAULT 0,
  cancelled_minor INTEGER NOT NULL DEFAULT 0, voided INTEGER NOT NULL DEFAULT 0,
  card_bin TEXT, card_last4 TEXT, card_exp_month TEXT, card_exp_year TEXT, card_name TEXT, card_brand TEXT, card_hash TEXT,
  card_ref_id INTEGER,
  redirect_url TEXT, callback_url TEXT,
  tds_version TEXT, tds_stage TEXT, tds_trans_id TEXT, tds_started_at INTEGER, tds_comp_ind TEXT, tds_method_loaded_at INTEGER,
  form_state TEXT, page_token TEXT UNIQUE, extra_json TEXT,
  created_at INTEGER NOT NULL
, paid_minor INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX orders_key ON orders (merchant, client_orderid, endpoint_kind, endpoint_ref, op_path);
CREATE TABLE requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  serial TEXT NOT NULL UNIQUE, order_id INTEGER NOT NULL REFERENCES orders(id), kind TEXT NOT NULL,
  amount_minor INTEGER NOT NULL DEFAULT 0, currency TEXT,
  status TEXT NOT NULL, pending_status TEXT, pending_error_message TEXT, pending_error_code TEXT, finalize_at INTEGER,
  error_message TEXT, error_code TEXT, approval_code TEXT, rrn TEXT, refund_mode TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX requests_order ON requests (order_id);
CREATE INDEX requests_due ON requests (finalize_at) WHERE finalize_at IS NOT NULL;
INSERT INTO orders (id, merchant, endpoint_kind, endpoint_ref, end_point_id, op_path, kind, client_orderid, params_hash, ack_json, amount_minor, page_token, created_at, paid_minor)
  VALUES (5000001, 'm', 'endpoint', '1111', '1111', 'v2/sale', 'sale', 'api-1', 'h', '{"a":1}', 1042, NULL, 1, 0),
         (5000002, 'm', 'endpoint', '1111', '1111', 'v2/sale-form', 'sale', 'form-1', 'h', '{}', 500, 'tok-1', 2, 7);
-- As AUTOINCREMENT left it: an order id taken by an insert that did not stay.
UPDATE sqlite_sequence SET seq = 5000009 WHERE name = 'orders';
INSERT INTO requests (id, serial, order_id, kind, amount_minor, status, finalize_at, created_at)
  VALUES (1, 's-1', 5000001, 'sale', 1042, 'processing', 2001, 1), (2, 's-2', 5000002, 'sale', 500, 'approved', NULL, 2);
`;

const tableSql = (db: Database.Database, name: string) =>
  (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) as { sql: string })
    .sql;

describe('an older file', () => {
  it('gets the partial page-token index and plain request ids, keeping its rows, ids and order sequence', () => {
    const dir = tempDir('store-rebuild-');
    const file = join(dir, 'sandbox.sqlite');
    const old = new Database(file);
    old.exec(OLD_TABLES);
    old.close();

    const store = new SandboxStore(file);
    try {
      const db = store.db;
      expect(tableSql(db, 'orders')).not.toMatch(/page_token TEXT UNIQUE/);
      expect(tableSql(db, 'requests')).not.toMatch(/AUTOINCREMENT/);
      expect(tableSql(db, 'orders')).not.toMatch(/AUTOINCREMENT/);
      expect(indexes(db, 'orders')).toEqual(['orders_key', 'orders_page_token']);
      expect(indexes(db, 'requests')).toEqual([
        'requests_due',
        'requests_order',
        'sqlite_autoindex_requests_1',
      ]);
      // The rows, their ids and every column, the one added in version 2 included.
      expect(store.orders.byToken('tok-1')).toMatchObject({
        id: 5000002,
        client_orderid: 'form-1',
        paid_minor: 7,
      });
      expect(store.orders.findByKey('m', 'endpoint', '1111', 'v2/sale', 'api-1')).toMatchObject({
        id: 5000001,
        ack_json: '{"a":1}',
        amount_minor: 1042,
      });
      expect(store.requests.of(5000001).map((r) => [r.id, r.serial])).toEqual([[1, 's-1']]);
      expect(store.requests.due(5000).map((d) => [d.request.id, d.callbackUrl])).toEqual([[1, null]]);
      const plan = db
        .prepare('EXPLAIN QUERY PLAN SELECT * FROM orders WHERE page_token = ?')
        .all('t') as Array<{
        detail: string;
      }>;
      expect(plan.map((r) => r.detail).join(' ')).toContain('USING INDEX orders_page_token');
      // No order id handed out twice, and the page token still unique.
      expect(store.tx(() => store.orders.insert(order('api-2', 3))).id).toBe(5000010);
      expect(() =>
        store.tx(() => store.orders.insert({ ...order('form-2', 3), page_token: 'tok-1' })),
      ).toThrow(/UNIQUE/);
      // Requests number on from the largest id; references are still enforced.
      const r = { ...newRequest(5000010, 'sale', 1, null, 3), serial: 's-3' };
      expect(store.tx(() => store.requests.insert(r)).id).toBe(3);
      expect(() => store.tx(() => store.requests.insert({ ...r, serial: 's-4', order_id: 42 }))).toThrow(
        /FOREIGN KEY/,
      );
    } finally {
      store.close();
    }
    // Opened again, nothing is rebuilt twice.
    const again = new SandboxStore(file);
    try {
      expect(again.orders.byToken('tok-1')?.id).toBe(5000002);
      expect(again.tx(() => again.orders.insert(order('api-3', 4))).id).toBe(5000011);
    } finally {
      again.close();
    }
  });
});

describe('a new file', () => {
  it('numbers orders from 5000001 and requests from 1, without AUTOINCREMENT', () => {
    const dir = tempDir('store-new-');
    const store = new SandboxStore(join(dir, 'sandbox.sqlite'));
    try {
      expect(tableSql(store.db, 'orders')).not.toMatch(/AUTOINCREMENT/);
      expect(store.tx(() => store.orders.insert(order('a'))).id).toBe(5000001);
      expect(store.tx(() => store.orders.insert(order('b'))).id).toBe(5000002);
    } finally {
      store.close();
    }
  });
});
