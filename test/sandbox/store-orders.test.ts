import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SandboxStore } from '../../sandbox/store.ts';
import { indexes, order, tempDir } from './store-fixtures.ts';

describe('the orders indexes', () => {
  it('upgrade a file with the earlier three indexes to the one key, keeping its orders and their uniqueness', () => {
    const dir = tempDir('store-indexes-');
    const file = join(dir, 'sandbox.sqlite');
    const first = new SandboxStore(file);
    const kept = first.tx(() => first.insertOrder(order('inv-1')));
    first.close();
    // The file as the earlier schema left it.
    const old = new Database(file);
    old.exec(`DROP INDEX orders_key;
      CREATE UNIQUE INDEX orders_idempotency ON orders (merchant, endpoint_kind, endpoint_ref, op_path, client_orderid);
      CREATE INDEX orders_client ON orders (merchant, client_orderid);
      CREATE INDEX orders_merchant ON orders (merchant);`);
    old.close();

    const store = new SandboxStore(file);
    try {
      expect(indexes(store.db, 'orders')).toEqual(['orders_key', 'orders_page_token']);
      expect(store.findOrderByKey('m', 'endpoint', '1111', 'v2/sale', 'inv-1')?.id).toBe(kept.id);
      expect(store.latestOrderByClientId('m', 'inv-1')?.id).toBe(kept.id);
      expect(() => store.tx(() => store.insertOrder(order('inv-1')))).toThrow(/UNIQUE/);
      const plan = (
        store.db
          .prepare(
            'EXPLAIN QUERY PLAN SELECT * FROM orders WHERE merchant = ? AND endpoint_kind = ? AND endpoint_ref = ? AND op_path = ? AND client_orderid = ?',
          )
          .all('m', 'endpoint', '1111', 'v2/sale', 'inv-1') as Array<{ detail: string }>
      )
        .map((r) => r.detail)
        .join(' ');
      expect(plan).toContain('USING INDEX orders_key');
    } finally {
      store.close();
    }
  });
});

describe('insertOrder', () => {
  it('returns the row as stored, the schema defaults included, without reading it back', () => {
    const store = new SandboxStore(':memory:');
    try {
      const minimal = store.tx(() => store.insertOrder(order('inv-min')));
      expect(minimal).toEqual(store.getOrder(minimal.id));
      const full = store.tx(() =>
        store.insertOrder({
          ...order('inv-card'),
          amount_minor: 1050,
          currency: 'EUR',
          card_bin: '444455',
          card_last4: '1111',
          card_exp_month: '12',
          card_exp_year: '2030',
          card_name: 'A B',
          card_brand: 'visa',
          card_hash: 'x',
          redirect_url: 'http://127.0.0.1/r',
          callback_url: null,
          tds_version: '2',
          tds_stage: 'method',
          page_token: 'tok',
          extra_json: '{"panLength":16}',
        }),
      );
      expect(full).toEqual(store.getOrder(full.id));
      // Every column of the table is in the returned row.
      const columns = (store.db.prepare('PRAGMA table_info(orders)').all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      expect(Object.keys(full).sort()).toEqual(columns.sort());
    } finally {
      store.close();
    }
  });
});
