/**
 * Recurring payments charged on their schedule, from outside: the sandbox app as the other sandbox
 * tests start it (a fake clock, no real sleeps), subscriptions made with real RSA-SHA256 signed
 * requests (support.ts's client: oauth-1.0a with Node's createSign), the merchant's clock advanced
 * through the lab's HTTP route, and the charges' callbacks received by a handler of the test's own,
 * which checks `control` with Node's crypto.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { fakeClock, orderId, startSandbox, type Sandbox } from './support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the lab's answers are read field by field
type Loose = Record<string, any>;

const DAY = 86_400_000;
/** 31 January 2031, 09:30 UTC: the monthly dates clamp (28 February, 31 March, 30 April). */
const START = Date.UTC(2031, 0, 31, 9, 30);
const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 9, 30);

async function admin(app: FastifyInstance, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) {
  const res = await app.inject({
    method,
    url: `/sandbox${url}`,
    headers: {
      host: '127.0.0.1:4174',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as Loose };
}

/** The callbacks a merchant's handler received: each query as sent, answered 200. */
interface Received {
  query: URLSearchParams;
}

async function startHandler(): Promise<{ server: Server; base: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    received.push({ query: new URL(req.url ?? '/', 'http://x').searchParams });
    res.statusCode = 200;
    res.end('OK');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');

describe('recurring payments', () => {
  let sb: Sandbox;
  let handler: Awaited<ReturnType<typeof startHandler>>;
  const key = () => sb.merchants.acme.controlKey;
  const advance = (ms: number) => admin(sb.app, 'POST', '/clock/acme/advance', { ms });
  const schedules = async () => (await admin(sb.app, 'GET', '/clock/acme')).body.recurring as Loose[];
  const scheduleOf = async (id: string) => (await schedules()).find((s) => s.recurringPaymentId === id)!;
  const callbacksOf = (clientOrderId: string) =>
    handler.received.filter((r) => r.query.get('merchant_order')?.startsWith(`${clientOrderId}-`));

  /** A subscription, signed with the merchant's RSA key (v4, OAuth RSA-SHA256). */
  const subscribe = async (over: Record<string, string> = {}) => {
    const client = orderId('rp');
    const r = await sb.acme.call('v4/create-recurring-payment', {
      rp_card_type: 'SRC',
      'client-orderid': client,
      order_desc: 'Subscription',
      'credit-card-number': '4444444444444448',
      'card-printed-name': 'JOHN SMITH',
      'expire-month': '12',
      'expire-year': '2035',
      cvv2: '123',
      amount: '9.99',
      currency: 'EUR',
      period: 'month',
      interval: '1',
      first_name: 'John',
      last_name: 'Smith',
      email: 'john.smith@example.com',
      server_callback_url: `${handler.base}/cb`,
      ...over,
    });
    expect(r.status, r.raw).toBe(200);
    return {
      client,
      id: String(r.body['recurring-payment-id']),
      orderId: String(r.body['paynet-order-id']),
    };
  };

  beforeAll(async () => {
    handler = await startHandler();
    sb = await startSandbox(
      { finalizeDelayMs: 1000, callbackRetry: { schedule: 'fast', attempts: 5, baseDelayMs: 1000 } },
      fakeClock(START),
    );
  });
  afterAll(async () => {
    await sb.app.close();
    handler.server.closeAllConnections();
    await new Promise((resolve) => handler.server.close(resolve));
  });

  it('charges a monthly subscription three times in one three-month advance, each final, with its callback', async () => {
    const rp = await subscribe();
    expect(rp.id).toMatch(/^\d+$/);
    expect((await sb.acme.status(rp.orderId, rp.client)).status).toBe('approved');

    const before = await scheduleOf(rp.id);
    expect(before).toMatchObject({
      orderId: rp.orderId,
      amount: '9.99',
      currency: 'EUR',
      period: 'month',
      interval: 1,
      status: 'active',
      chargesMade: 0,
      nextChargeAt: utc(2031, 2, 28),
      charges: [],
    });

    // To 30 April: 28 February, 31 March and 30 April fall due within the one advance.
    const moved = await advance(utc(2031, 4, 30) - START);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.steps).toBeGreaterThanOrEqual(3);

    const after = await scheduleOf(rp.id);
    expect(after).toMatchObject({ status: 'active', chargesMade: 3, nextChargeNo: 4 });
    expect(after.nextChargeAt).toBe(utc(2031, 5, 31));
    const charges = [...(after.charges as Loose[])].reverse();
    expect(charges.map((c) => [c.chargeNo, c.clientOrderId, c.dueAt, c.status])).toEqual([
      [1, `${rp.client}-1`, utc(2031, 2, 28), 'approved'],
      [2, `${rp.client}-2`, utc(2031, 3, 31), 'approved'],
      [3, `${rp.client}-3`, utc(2031, 4, 30), 'approved'],
    ]);
    expect(new Set(charges.map((c) => c.orderId)).size).toBe(3);
    expect(charges.map((c) => c.orderId)).not.toContain(rp.orderId);

    // Each charge is an order of its own, read by the normal status operation.
    for (const c of charges) {
      expect(await sb.acme.status(c.orderId, c.clientOrderId)).toMatchObject({
        type: 'status-response',
        status: 'approved',
        amount: '9.99',
        currency: 'EUR',
        'paynet-order-id': c.orderId,
        'merchant-order-id': c.clientOrderId,
        'transaction-type': 'recurring-charge',
        'last-four-digits': '4448',
      });
    }

    // One callback per charge, in the schedule's order, signed as every callback is.
    const got = callbacksOf(rp.client);
    expect(got.map((r) => r.query.get('orderid'))).toEqual(charges.map((c) => c.orderId));
    for (const r of got) {
      const q = r.query;
      expect(q.get('status')).toBe('approved');
      expect(q.get('type')).toBe('recurring-charge');
      expect(q.get('amount')).toBe('9.99');
      expect(q.get('currency')).toBe('EUR');
      expect(q.get('control')).toBe(
        sha1(`${q.get('status')}${q.get('orderid')}${q.get('merchant_order')}${key()}`),
      );
    }
    // The relay recorded each send and the handler's 200.
    for (const c of charges) {
      const d = (await admin(sb.app, 'GET', `/relay/deliveries?orderid=${c.orderId}`)).body
        .deliveries as Loose[];
      expect(d.map((x) => [x.kind, x.httpStatus])).toEqual([['delivery', 200]]);
    }
    // Nothing more until the next date: the subscription's own order sent no callback.
    await advance(DAY);
    expect(callbacksOf(rp.client)).toHaveLength(3);
  });

  it('declines the charge that falls after the card expired (EXPIRED_CARD), and keeps the schedule', async () => {
    // Made on the merchant's date after the test above (1 May 2031), on a card good through June.
    expect((await admin(sb.app, 'GET', '/clock/acme')).body.clockAdvancedMs).toBe(utc(2031, 5, 1) - START);
    const rp = await subscribe({ 'expire-month': '06', 'expire-year': '2031' });
    expect(await scheduleOf(rp.id)).toMatchObject({
      createdAt: utc(2031, 5, 1),
      nextChargeAt: utc(2031, 6, 1),
    });
    await advance(31 * DAY);
    await advance(30 * DAY);
    const s = await scheduleOf(rp.id);
    const [first, second] = [...(s.charges as Loose[])].reverse() as [Loose, Loose];
    expect(first).toMatchObject({ chargeNo: 1, dueAt: utc(2031, 6, 1), status: 'approved' });
    expect(second).toMatchObject({ chargeNo: 2, dueAt: utc(2031, 7, 1), status: 'declined' });
    expect(s).toMatchObject({ status: 'active', chargesMade: 2, nextChargeAt: utc(2031, 8, 1) });
    expect(await sb.acme.status(second.orderId, second.clientOrderId)).toMatchObject({
      status: 'declined',
      'error-message': 'Declined: the stored card has expired',
    });
    const cb = callbacksOf(rp.client).at(-1)!.query;
    expect(cb.get('orderid')).toBe(second.orderId);
    expect(cb.get('status')).toBe('declined');
    expect(cb.get('error_reason')).toBe('EXPIRED_CARD');
    expect(cb.get('control')).toBe(sha1(`declined${second.orderId}${second.clientOrderId}${key()}`));
  });

  it("follows the subscription's scenario: a charge ends filtered, and is refundable when approved", async () => {
    const rp = await subscribe({ period: 'week', interval: '2' });
    const set = await admin(sb.app, 'PUT', `/scenarios/orders/${rp.orderId}`, {
      choice: [{ name: 'final-filtered' }],
    });
    expect(set.status).toBe(200);
    await advance(14 * DAY);
    const filtered = ((await scheduleOf(rp.id)).charges as Loose[])[0]!;
    expect(filtered).toMatchObject({ chargeNo: 1, status: 'filtered' });
    expect(callbacksOf(rp.client).at(-1)!.query.get('status')).toBe('filtered');

    await admin(sb.app, 'PUT', `/scenarios/orders/${rp.orderId}`, { choice: [] });
    await advance(14 * DAY);
    const approved = ((await scheduleOf(rp.id)).charges as Loose[])[0]!;
    expect(approved).toMatchObject({ chargeNo: 2, status: 'approved' });
    // A recurring charge moved money: return refunds it, as a sale's or a rebill's.
    const refund = await sb.acme.call('v2/return', {
      login: 'acme',
      client_orderid: approved.clientOrderId,
      orderid: approved.orderId,
    });
    expect(refund.status, refund.raw).toBe(200);
    await advance(1000);
    expect(await sb.acme.status(approved.orderId, approved.clientOrderId)).toMatchObject({
      status: 'approved',
      'transaction-type': 'reversal',
    });
  });

  it('stops a schedule at its 100th charge in one advance (a daily schedule over a year)', async () => {
    const rp = await subscribe({ period: 'day', interval: '1', server_callback_url: '' });
    const moved = await advance(366 * DAY);
    expect(moved.status).toBe(200);
    const s = await scheduleOf(rp.id);
    expect(s).toMatchObject({ status: 'stopped', chargesMade: 100, nextChargeAt: null });
    // Stopped stays stopped: the next advance charges nothing.
    await advance(10 * DAY);
    expect((await scheduleOf(rp.id)).chargesMade).toBe(100);
  });

  it('refuses an advance past 366 days, and an unknown merchant', async () => {
    const far = await advance(367 * DAY);
    expect(far.status).toBe(400);
    expect(far.body['error-message']).toMatch(/at most 366 days/);
    expect((await admin(sb.app, 'GET', '/clock/nobody')).status).toBe(404);
  });
});
