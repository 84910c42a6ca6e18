/**
 * The relay's record is bounded: the newest `relayKeep` records of each merchant are kept, older
 * ones deleted a bounded batch at a time (issue 21).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxOptions, sandboxOptionsFromEnv } from '../../../sandbox/options.ts';
import { DeliveryLog, type DeliveryRecord } from '../../../sandbox/relay/delivery-log.ts';
import { SandboxStore } from '../../../sandbox/store.ts';

const recordOf = (merchant: string, i: number): Omit<DeliveryRecord, 'id'> => ({
  callbackId: i,
  orderId: 5_000_001 + i,
  merchant,
  kind: 'delivery',
  mutation: null,
  url: `http://127.0.0.1:9/cb?n=${i}`,
  urlField: 'server_callback_url',
  at: 1_700_000_000_000 + i,
  httpStatus: 200,
  result: 'HTTP 200',
  durationMs: 1,
  bodyExcerpt: 'OK',
});

const idsOf = (log: DeliveryLog, merchant: string) => log.list({ merchant }, 1000).map((d) => d.id);

describe('relay record pruning', () => {
  it("keeps each merchant's newest records, a bounded batch per call", () => {
    const store = new SandboxStore(':memory:');
    const log = new DeliveryLog(store.db, 3);
    const acme = Array.from({ length: 10 }, (_, i) => log.record(recordOf('acme', i)).id);
    const other = [0, 1].map((i) => log.record(recordOf('other', i)).id);
    expect(log.prune(4)).toBe(4); // a full batch: the caller comes back in a later turn
    expect(log.prune(4)).toBe(3);
    expect(log.prune(4)).toBe(0);
    expect(idsOf(log, 'acme')).toEqual(acme.slice(-3).reverse());
    expect(idsOf(log, 'other')).toEqual(other.reverse());
    store.close();
  });

  it('after a restart, prunes what an earlier run left', () => {
    const dbPath = path.join(mkdtempSync(path.join(tmpdir(), 'relay-prune-')), 'sandbox.sqlite');
    const first = new SandboxStore(dbPath);
    const unbounded = new DeliveryLog(first.db);
    for (let i = 0; i < 5; i++) unbounded.record(recordOf('acme', i));
    expect(unbounded.prune()).toBe(0);
    first.close();
    const second = new SandboxStore(dbPath);
    const log = new DeliveryLog(second.db, 2);
    expect(log.prune()).toBe(3);
    expect(log.list({ merchant: 'acme' }, 10).map((d) => d.callbackId)).toEqual([4, 3]);
    second.close();
  });

  it('reads the bound from SANDBOX_RELAY_KEEP and refuses a bad one', () => {
    expect(resolveSandboxOptions({}).relayKeep).toBe(10_000);
    expect(sandboxOptionsFromEnv({ SANDBOX_RELAY_KEEP: '500' }).relayKeep).toBe(500);
    expect(() => sandboxOptionsFromEnv({ SANDBOX_RELAY_KEEP: '0' })).toThrow(/SANDBOX_RELAY_KEEP/);
    expect(() => resolveSandboxOptions({ relayKeep: 1.5 })).toThrow(/relayKeep/);
  });
});
