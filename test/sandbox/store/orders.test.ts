import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { newRequest } from '../../../sandbox/engine/orders.ts';
import { SandboxStore } from '../../../sandbox/store.ts';
import { indexes, memoryStore, order, tempDir } from './fixtures.ts';

describe('the orders indexes', () => {
  it('upgrade a file with the earlier three indexes to the one key, keeping its orders and their uniqueness', () => {
    const dir = tempDir('store-indexes-');
    const file = join(dir, 'sandbox.sqlite');
    const first = new SandboxStore(file);
    const kept = first.tx(() => first.orders.insert(order('inv-1')));
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
      expect(store.orders.findByKey('m', 'endpoint', '1111', 'v2/sale', 'inv-1')?.id).toBe(kept.id);
      expect(store.orders.latestByClientId('m', 'inv-1')?.id).toBe(kept.id);
      expect(() => store.tx(() => store.orders.insert(order('inv-1')))).toThrow(/UNIQUE/);
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

describe('orders.insert', () => {
  it('returns the row as stored, the schema defaults included, without reading it back', () => {
    const store = memoryStore();
    const minimal = store.tx(() => store.orders.insert(order('inv-min')));
    expect(minimal).toEqual(store.orders.get(minimal.id));
    const full = store.tx(() =>
      store.orders.insert({
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
    expect(full).toEqual(store.orders.get(full.id));
    // Every column of the table is in the returned row.
    const columns = (store.db.prepare('PRAGMA table_info(orders)').all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
    expect(Object.keys(full).sort()).toEqual(columns.sort());
  });
});

describe('the due reads', () => {
  it("return each due request with its order's callback URL, in due order, up to the limit", () => {
    const store = memoryStore();
    const ids = store.tx(() => {
      const withUrl = store.orders.insert({ ...order('due-1'), callback_url: 'http://127.0.0.1:9/cb' });
      const without = store.orders.insert(order('due-2'));
      const due = (orderId: number, at: number) =>
        store.requests.insert({ ...newRequest(orderId, 'sale', 100, 'EUR', 1000), finalize_at: at }).id;
      return [due(without.id, 3000), due(withUrl.id, 2000), due(withUrl.id, 9000), withUrl.id];
    });
    const [late, early, notYet, orderId] = ids as [number, number, number, number];
    const read = (rows: ReturnType<SandboxStore['requests']['due']>) =>
      rows.map((d) => [d.request.id, d.request.order_id, d.callbackUrl]);
    expect(read(store.requests.due(5000))).toEqual([
      [early, orderId, 'http://127.0.0.1:9/cb'],
      [late, orderId + 1, null],
    ]);
    expect(read(store.requests.due(5000, 1))).toEqual([[early, orderId, 'http://127.0.0.1:9/cb']]);
    expect(read(store.requests.dueOf(orderId, 10_000))).toEqual([
      [early, orderId, 'http://127.0.0.1:9/cb'],
      [notYet, orderId, 'http://127.0.0.1:9/cb'],
    ]);
  });
});

describe('orders.nextId', () => {
  it('names the id orders.insert gives next, from the floor on, so an order can be inserted with it', () => {
    const store = memoryStore();
    store.tx(() => {
      expect(store.orders.nextId()).toBe(5_000_001);
      const first = store.orders.insert(order('next-1'), store.orders.nextId());
      expect(first.id).toBe(5_000_001);
      expect(store.orders.nextId()).toBe(5_000_002);
      expect(store.orders.insert(order('next-2')).id).toBe(5_000_002);
      const third = store.orders.insert({ ...order('next-3'), ack_json: '{"b":2}' }, store.orders.nextId());
      expect(third).toEqual(store.orders.get(5_000_003));
    });
  });
});
