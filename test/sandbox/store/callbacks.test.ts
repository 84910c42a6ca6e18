import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newRequest } from '../../../sandbox/engine/orders.ts';
import { SandboxStore } from '../../../sandbox/store.ts';
import { memoryStore, order, tempDir } from './fixtures.ts';

/** An approved sale with a callback due at `nextAt`; returns the ids. */
function saleWithCallback(store: SandboxStore, client: string, nextAt = 10) {
  return store.tx(() => {
    const o = store.orders.insert({ ...order(client), amount_minor: 1050, currency: 'EUR' });
    const r = store.requests.insert({
      ...newRequest(o.id, 'sale', 1050, 'EUR', 1, 'declined'),
      error_message: 'Do not honor',
      error_code: 'DECLINED',
    });
    store.callbacks.insert(r.id, 'http://127.0.0.1:9/cb', nextAt);
    const cb = store.callbacks.ofOrder(o.id)[0]!;
    return { order: o, request: r, callback: cb };
  });
}

describe('callbacks.claimDeliveries', () => {
  it('claims as callbacks.claim does and reads each callback’s request and order in the same statements', () => {
    const store = memoryStore();
    const a = saleWithCallback(store, 'inv-a', 10);
    const b = saleWithCallback(store, 'inv-b', 20);
    saleWithCallback(store, 'inv-later', 1_000);

    const claimed = store.callbacks.claimDeliveries(100, 1_000, 10);
    expect(claimed.map((d) => d.callback.id)).toEqual([a.callback.id, b.callback.id]);
    const [first] = claimed;
    expect(first!.callback).toEqual({
      ...a.callback,
      lease_owner: store.owner,
      lease_until: 100 + 1_000 + 5_000,
    });
    // What the relay's URL and record need, as getRequest and getOrder read them.
    const request = store.requests.get(a.request.id)!;
    const order = store.orders.get(a.order.id)!;
    expect(first!.target).toEqual({
      request: {
        id: request.id,
        status: request.status,
        amount_minor: request.amount_minor,
        currency: request.currency,
        kind: request.kind,
        serial: request.serial,
        error_message: request.error_message,
        error_code: request.error_code,
      },
      order: { id: order.id, merchant: order.merchant, client_orderid: order.client_orderid },
    });
    // Leased: neither a second claim nor claimCallbacks takes them again while the lease holds.
    expect(store.callbacks.claimDeliveries(100, 1_000, 10)).toEqual([]);
    expect(store.callbacks.claim(100, 1_000, 10)).toEqual([]);
    // A lease that expired is taken over, with its target read again.
    const again = store.callbacks.claimDeliveries(100 + 6_001, 1_000, 10);
    expect(again.map((d) => d.callback.id)).toEqual([a.callback.id, b.callback.id, expect.any(Number)]);
    expect(again[0]!.target).toEqual(first!.target);
  });

  it('claims a callback whose request is no longer known, with no target (the relay fails it)', () => {
    const store = memoryStore();
    store.db.pragma('foreign_keys = OFF');
    store.tx(() => store.callbacks.insert(424242, 'http://127.0.0.1:9/cb', 0));
    const [d] = store.callbacks.claimDeliveries(1, 1_000, 10);
    expect(d!.callback.request_id).toBe(424242);
    expect(d!.target).toBeUndefined();
  });
});

describe('finishCallback', () => {
  it('writes the outcome and frees the lease only while this process holds it', async () => {
    const dir = tempDir('store-callbacks-');
    const file = join(dir, 'sandbox.sqlite');
    const mine = new SandboxStore(file);
    const other = new SandboxStore(file);
    try {
      const { callback } = saleWithCallback(mine, 'inv-lease');
      expect(mine.callbacks.claimDeliveries(100, 1_000, 10)).toHaveLength(1);
      // Another process never held it.
      expect(other.callbacks.finish(callback.id, { state: 'failed', last_result: 'x' })).toBe(false);
      // Its lease expired and the other process took it over: the first may no longer finish it.
      expect(other.callbacks.claimDeliveries(100 + 6_001, 1_000, 10)).toHaveLength(1);
      expect(await mine.batched(() => mine.callbacks.finish(callback.id, { state: 'delivered' }))).toBe(
        false,
      );
      expect(mine.callbacks.ofOrder(mine.requests.get(callback.request_id)!.order_id)[0]).toMatchObject({
        state: 'pending',
        lease_owner: other.owner,
      });
      // The holder finishes it (in a group commit, as the relay does): outcome written, lease freed.
      expect(
        await other.batched(() =>
          other.callbacks.finish(callback.id, { state: 'delivered', attempts: 1, last_result: 'HTTP 200' }),
        ),
      ).toBe(true);
      expect(mine.callbacks.due(1e9, 10)).toEqual([]);
      const [row] = mine.callbacks.ofOrder(mine.requests.get(callback.request_id)!.order_id);
      expect(row).toMatchObject({
        state: 'delivered',
        attempts: 1,
        last_result: 'HTTP 200',
        lease_owner: null,
        lease_until: null,
      });
      // Finished: no longer held by anyone.
      expect(other.callbacks.finish(callback.id, { state: 'failed' })).toBe(false);
      expect(other.callbacks.finish(999_999, { state: 'failed' })).toBe(false);
    } finally {
      mine.close();
      other.close();
    }
  });

  it('outside a group commit, commits the open one first and is on disk when it returns', async () => {
    const dir = tempDir('store-callbacks-');
    const file = join(dir, 'sandbox.sqlite');
    const store = new SandboxStore(file);
    const reader = new SandboxStore(file);
    try {
      const { callback } = saleWithCallback(store, 'inv-commit');
      store.callbacks.claimDeliveries(100, 1_000, 10);
      const pending = store.batched(() => store.meta.set('batched', 'yes'));
      expect(store.callbacks.finish(callback.id, { state: 'failed', last_result: 'invalid URL' })).toBe(true);
      expect(reader.meta.get('batched')).toBe('yes');
      expect(reader.callbacks.due(1e9, 10)).toEqual([]);
      await pending;
    } finally {
      store.close();
      reader.close();
    }
  });
});
