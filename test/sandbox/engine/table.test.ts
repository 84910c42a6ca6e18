/**
 * The engine as data: the handler table is typed by the catalog's operation ids, the settlement
 * rules are one table that the ledger and the README read, the README's generated tables match
 * their sources, and the per-request work is done once (one write transaction, prepared statements).
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CVV_OUTCOMES,
  OPERATIONS,
  OTHER_CVV_OUTCOME,
  TEST_CARD,
  type OperationId,
} from '../../../src/catalog/index.ts';
import type { Handler } from '../../../sandbox/engine/context.ts';
import { HANDLERS } from '../../../sandbox/engine/handlers.ts';
import { SETTLEMENT_RULES } from '../../../sandbox/engine/settlement.ts';
import { outcomeForCvv } from '../../../sandbox/outcomes.ts';
import { renderReadme } from '../../../sandbox/readme-tables.ts';
import { Scheduler } from '../../../sandbox/scheduler.ts';
import { SandboxStore } from '../../../sandbox/store.ts';
import { Requests } from '../../../sandbox/store/requests.ts';
import { orderId, payoutParams, saleParams, settle, startSandbox, type Sandbox } from '../support.ts';

describe('the handler table', () => {
  it('has exactly one handler per catalog operation', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
  });

  it('is typed by the catalog ids: a missing or misspelt id does not compile', () => {
    const handler: Handler = () => ({ code: 200, body: {} });
    const { SALE: _sale, ...rest } = HANDLERS;
    // @ts-expect-error: SALE is missing, so this is not a complete table.
    const missing: { readonly [K in OperationId]: Handler } = rest;
    // @ts-expect-error: SAEL is not an operation id of the catalog.
    const misspelt: { readonly [K in OperationId]: Handler } = { ...HANDLERS, SAEL: handler };
    expect([missing, misspelt]).toHaveLength(2);
  });
});

describe('the settlement table', () => {
  it('has one row per settlement operation, each naming catalog operations that take an orderid', () => {
    expect(SETTLEMENT_RULES.map((r) => r.operation)).toEqual(['CAPTURE', 'VOID', 'RETURN', 'PAYOUT_V4_PAY']);
    for (const rule of SETTLEMENT_RULES) {
      const op = OPERATIONS.find((o) => o.id === rule.operation)!;
      expect(op.fields.some((f) => f.name === 'orderid')).toBe(true);
      expect(rule.variants.length).toBeGreaterThan(0);
      // The last case of a rule catches everything: every order of an allowed kind has a case.
      expect(rule.variants.at(-1)!.when({} as never)).toBe(true);
    }
  });

  it('gives one ledger column per request kind and mode, so finalisation moves the right one', () => {
    const seen = new Map<string, string>();
    for (const rule of SETTLEMENT_RULES) {
      for (const v of rule.variants) {
        const key = `${rule.requestKind}/${v.mode}`;
        const column = v.ledger.column;
        expect(seen.get(key) ?? column, key).toBe(column);
        seen.set(key, column);
      }
    }
  });
});

describe('sandbox/README.md prints the tables it documents', () => {
  const readme = readFileSync(new URL('../../../sandbox/README.md', import.meta.url), 'utf8');

  it('is in sync with the settlement rules, the CVV outcomes and the test card (npm run docs:sandbox)', () => {
    expect(renderReadme(readme)).toBe(readme);
    expect(readme).toContain(TEST_CARD.display);
    for (const o of [...CVV_OUTCOMES, OTHER_CVV_OUTCOME]) expect(readme).toContain(o.docs);
  });

  it('is generated from the same CVV table the sandbox applies', () => {
    for (const o of CVV_OUTCOMES) {
      for (const cvv of o.cvvs) {
        const outcome = outcomeForCvv(cvv, true);
        if (o.kind === 'declined') {
          expect(outcome).toMatchObject({ kind: 'final', status: 'declined', errorCode: o.errorCode });
        } else if (o.kind === 'approved')
          expect(outcome).toMatchObject({ kind: 'final', status: 'approved' });
        else expect(outcome.kind).toBe(o.kind);
      }
    }
    expect(outcomeForCvv('999', true)).toMatchObject({ status: 'declined', errorCode: 'DECLINED' });
  });
});

describe('work done once per request', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.app.close();
    vi.restoreAllMocks();
  });

  /**
   * What the requests of a block do to the database: write transactions opened (savepoints inside
   * one, and requests joining an open group commit, are not counted) and sweeps for due rows. The scheduler's timer is left out: on a busy
   * machine it may fire at any moment.
   */
  async function databaseWork(block: () => Promise<void>): Promise<{ writes: number; sweeps: number }> {
    const originalTx = SandboxStore.prototype.tx;
    const originalBatched = SandboxStore.prototype.batched;
    const originalDue = Requests.prototype.due;
    const originalTick = Scheduler.prototype.tick;
    const work = { writes: 0, sweeps: 0 };
    let ticking = false;
    const spies = [
      vi.spyOn(Scheduler.prototype, 'tick').mockImplementation(function (this: Scheduler) {
        ticking = true;
        try {
          originalTick.call(this);
        } finally {
          ticking = false;
        }
      }),
      vi.spyOn(SandboxStore.prototype, 'tx').mockImplementation(function <T>(
        this: SandboxStore,
        fn: () => T,
      ): T {
        if (!this.db.inTransaction && !ticking) work.writes++;
        return originalTx.call(this, fn) as T;
      }),
      vi.spyOn(SandboxStore.prototype, 'batched').mockImplementation(function <T>(
        this: SandboxStore,
        fn: () => T,
        onOpen?: () => void,
      ): Promise<T> {
        if (!this.batchOpen && !ticking) work.writes++;
        return originalBatched.call(this, fn, onOpen) as Promise<T>;
      }),
      vi.spyOn(Requests.prototype, 'due').mockImplementation(function (
        this: Requests,
        ...args: Parameters<Requests['due']>
      ) {
        if (!ticking) work.sweeps++;
        return originalDue.apply(this, args);
      }),
    ];
    try {
      await block();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return work;
  }
  const writeTransactions = async (block: () => Promise<void>) => (await databaseWork(block)).writes;

  it('runs each API request in one write transaction: nonce, what is due and the operation', async () => {
    let sale: Awaited<ReturnType<typeof sb.acme.call>> | undefined;
    expect(
      await writeTransactions(async () => {
        sale = await sb.acme.call('v2/sale', saleParams({ client_orderid: orderId('once') }));
      }),
    ).toBe(1);
    expect(sale!.status).toBe(200);
    // An OAuth request: its nonce is claimed in the operation's transaction.
    expect(
      await writeTransactions(async () => {
        expect((await sb.acme.call('v4/payout-check', payoutParams())).status).toBe(200);
      }),
    ).toBe(1);
    // The status read after the delay sees the sale final: it finalises it in its one transaction
    // (none, when the scheduler's timer got there first).
    let status: Record<string, unknown> = {};
    expect(
      await writeTransactions(async () => {
        status = await settle(sb, sb.acme, sale!.body);
      }),
    ).toBeLessThanOrEqual(1);
    expect(status.status).toBe('approved');
  });

  it('reads a status with nothing due without a write lock or a sweep query', async () => {
    const sale = await sb.acme.call('v2/sale', saleParams({ client_orderid: orderId('read') }));
    expect((await settle(sb, sb.acme, sale.body)).status).toBe('approved');
    let again: Record<string, unknown> = {};
    const work = await databaseWork(async () => {
      again = await sb.acme.status(
        String(sale.body['paynet-order-id']),
        String(sale.body['merchant-order-id']),
      );
    });
    expect(again.status).toBe('approved');
    expect(work).toEqual({ writes: 0, sweeps: 0 });
  });

  it('claims the nonce of a refused operation: the replay is refused as a reused nonce', async () => {
    const nonce = `n-${orderId('refused')}`;
    // A card reference for an order that does not exist: signed correctly (RSA), refused by the engine.
    const params = { client_orderid: orderId('noref'), orderid: '4999999' };
    const first = await sb.acme.call('v4/create-card-ref', params, { nonce });
    expect(first.body['error-reason']).toBe('ORDER_NOT_FOUND');
    const replay = await sb.acme.call('v4/create-card-ref', params, { nonce });
    expect(replay.status).toBe(403);
    expect(replay.body['error-reason']).toBe('OAUTH_NONCE_REUSED');
  });

  it('prepares each SQL statement once, however many requests use it', async () => {
    const spy = vi.spyOn(Database.prototype, 'prepare');
    for (let i = 0; i < 3; i++) {
      const sale = await sb.acme.call('v2/sale', saleParams({ client_orderid: orderId('prep') }));
      expect(sale.status).toBe(200);
      expect((await settle(sb, sb.acme, sale.body)).status).toBe('approved');
      expect((await sb.acme.call('v4/payout-check', payoutParams())).status).toBe(200);
    }
    const texts = spy.mock.calls.map((c) => String(c[0]));
    spy.mockRestore();
    const repeated = texts.filter((t, i) => texts.indexOf(t) !== i);
    expect(repeated).toEqual([]);
  });
});

describe('nonces', () => {
  it('are purged through an index on their expiry, a bounded batch at a time', () => {
    const store = new SandboxStore(':memory:');
    try {
      const plan = store.db
        .prepare(
          'EXPLAIN QUERY PLAN SELECT rowid FROM nonces WHERE expires_at <= ? ORDER BY expires_at LIMIT 10',
        )
        .all(0) as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX nonces_expiry/);
      const insert = store.db.prepare('INSERT INTO nonces (consumer, nonce, expires_at) VALUES (?, ?, ?)');
      store.tx(() => {
        for (let i = 0; i < 5000; i++) insert.run('acme', `n${i}`, i < 4500 ? 100 : 10_000);
      });
      const first = store.nonces.purge(1000, 2000);
      expect(first).toBe(2000);
      expect(store.nonces.purge(1000, 2000)).toBe(2000);
      expect(store.nonces.purge(1000, 2000)).toBe(500);
      expect(store.nonces.purge(1000, 2000)).toBe(0);
      expect((store.db.prepare('SELECT count(*) AS n FROM nonces').get() as { n: number }).n).toBe(500);
      // An expired nonce may be used again; a live one may not.
      expect(store.nonces.use('acme', 'n4600', 20_000, 30_000)).toBe(true);
      expect(store.nonces.use('acme', 'n4600', 20_001, 30_000)).toBe(false);
    } finally {
      store.close();
    }
  });
});
