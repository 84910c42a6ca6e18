import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SCENARIOS } from '../../../src/catalog/scenarios.ts';
import { formBody, orderId, saleParams, startSandbox, type Sandbox } from '../support.ts';
import { sha1, startMerchantHandler, type MerchantHandler } from '../merchant-handler.ts';

/** The lab's admin API, as the console calls it (this machine). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are read field by field
type Loose = Record<string, any>;

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

/** A sleep the test releases itself: the held answers are observable without timing. */
function manualSleep() {
  const waits: Array<{ ms: number; release: () => void }> = [];
  return {
    waits,
    sleep: (ms: number) => new Promise<void>((resolve) => waits.push({ ms, release: resolve })),
  };
}

describe('scenario lab', () => {
  let sb: Sandbox;
  let handler: MerchantHandler;
  const sleeps = manualSleep();
  const key = () => sb.merchants.acme.controlKey;
  const advance = (ms: number) => admin(sb.app, 'POST', '/clock/acme/advance', { ms });
  const choose = (choice: unknown[]) => admin(sb.app, 'PUT', '/scenarios/merchants/acme', { choice });
  const hitsOf = (id: string) => handler.hits.filter((h) => h.query.get('orderid') === id);
  const deliveries = async (id: string) =>
    ((await admin(sb.app, 'GET', `/relay/deliveries?orderid=${id}`)).body.deliveries as Loose[]).reverse();
  const sale = async (over: Record<string, string> = {}, headers?: Record<string, string>) => {
    const r = await sb.acme.call(
      'v2/sale',
      saleParams({ server_callback_url: `${handler.base}/cb`, ...over }),
      headers ? { headers } : {},
    );
    return { ...r, id: String(r.body['paynet-order-id']), co: String(r.body['merchant-order-id']) };
  };

  beforeAll(async () => {
    sb = await startSandbox({
      finalizeDelayMs: 1000,
      callbackRetry: { schedule: 'fast', attempts: 21, baseDelayMs: 1000 },
      scenarioSleep: sleeps.sleep,
    });
    handler = await startMerchantHandler(sb.merchants.acme.controlKey);
  });
  afterAll(async () => {
    await sb.app.close();
    await handler.close();
  });

  it('lists the table with a rule for each scenario, and refuses an unknown one', async () => {
    const list = await admin(sb.app, 'GET', '/scenarios');
    expect(list.body.scenarios.map((s: { name: string }) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
    const bad = await choose([{ name: 'no-such' }]);
    expect(bad.status).toBe(400);
    expect(bad.body['error-reason']).toBe('VALIDATION');
    const header = await sale({}, { 'x-sandbox-scenario': 'no-such' });
    expect(header.status).toBe(400);
    expect(header.body['error-reason']).toBe('SCENARIO_INVALID');
  });

  it('latency: holds the answer on a timer while other calls are answered', async () => {
    let done = false;
    const slow = sale({}, { 'x-sandbox-scenario': 'latency;delay-ms=250' }).then((r) => {
      done = true;
      return r;
    });
    await expect.poll(() => sleeps.waits.length).toBe(1);
    expect(sleeps.waits[0]!.ms).toBe(250);
    // Not blocked: a call without the header is answered while the first one waits.
    const other = await sale();
    expect(other.status).toBe(200);
    expect(done).toBe(false);
    sleeps.waits.shift()!.release();
    expect((await slow).status).toBe(200);
  });

  it('processed-timeout: the order commits, the connection is reset; status by client_orderid finds it', async () => {
    await sb.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = sb.app.server.address() as AddressInfo;
    const params = saleParams({ server_callback_url: `${handler.base}/cb` });
    const control = sb.acme.controlFor('v2/sale', params, '1111', sb.merchants.acme);
    const outcome = new Promise<string>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/sandbox/paynet/api/v2/sale/1111',
          headers: {
            host: '127.0.0.1:4174',
            accept: 'application/vnd.pay+json',
            'content-type': 'application/x-www-form-urlencoded',
            'x-sandbox-scenario': 'processed-timeout',
          },
        },
        (res) => resolve(`answered ${res.statusCode}`),
      );
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end(formBody({ ...params, control }));
    });
    await expect.poll(() => sleeps.waits.length).toBe(1);
    expect(sleeps.waits[0]!.ms).toBe(30_000);
    sleeps.waits.shift()!.release();
    expect(await outcome).toBe('ECONNRESET');
    const st = await sb.acme.call('v2/status', { login: 'acme', client_orderid: params.client_orderid! });
    expect(st.body).toMatchObject({ type: 'status-response', status: 'processing' });
    // The identical request again returns the original acknowledgement.
    const again = await sb.acme.call('v2/sale', params);
    expect(again.body['paynet-order-id']).toBe(st.body['paynet-order-id']);
  });

  it('server-error-after-commit: a 500, yet the order exists and becomes final', async () => {
    const params = saleParams();
    const r = await sb.acme.call('v2/sale', params, {
      headers: { 'x-sandbox-scenario': 'server-error-after-commit' },
    });
    expect(r.status).toBe(500);
    expect(r.body['error-message']).toMatch(/query status by client_orderid/);
    await advance(1000);
    const st = await sb.acme.call('v2/status', { login: 'acme', client_orderid: params.client_orderid! });
    expect(st.body.status).toBe('approved');
  });

  it('final-error and final-filtered (merchant choice): final status, signed callback', async () => {
    for (const [name, status, reason] of [
      ['final-error', 'error', 'PROCESSING_ERROR'],
      ['final-filtered', 'filtered', 'FILTERED'],
    ] as const) {
      expect((await choose([{ name }])).status).toBe(200);
      const s = await sale();
      await choose([]);
      await advance(1000);
      expect(await sb.acme.status(s.id, s.co)).toMatchObject({ status, 'error-code': expect.anything() });
      const [hit] = hitsOf(s.id);
      expect(hit!.query.get('status')).toBe(status);
      expect(hit!.query.get('error_reason')).toBe(reason);
      expect(hit!.query.get('control')).toBe(sha1(`${status}${s.id}${s.co}${key()}`));
    }
  });

  it('stuck-processing (order choice): never final, no callback, whatever the clock says', async () => {
    const s = await sale();
    const set = await admin(sb.app, 'PUT', `/scenarios/orders/${s.id}`, {
      choice: [{ name: 'stuck-processing' }],
    });
    expect(set.status).toBe(200);
    await advance(86_400_000);
    expect((await sb.acme.status(s.id, s.co)).status).toBe('processing');
    expect(hitsOf(s.id)).toHaveLength(0);
  });

  it('three-ds-method-timeout: the method result is recorded as N', async () => {
    const s = await sale(
      { cvv2: '321', redirect_url: 'http://127.0.0.1:9/r', browserUserAgent: 'UA', browserLanguage: 'en' },
      { 'x-sandbox-scenario': 'three-ds-method-timeout' },
    );
    const method = await sb.acme.call('3ds/v1/upload-method-url-result', {
      login: 'acme',
      'client-order-id': s.co,
      orderid: s.id,
      threeDSCompInd: 'Y',
    });
    expect(method.status, method.raw).toBe(200);
    expect(method.body['threeds-comp-ind']).toBe('N');
    expect(method.headers['x-sandbox-note']).toBe(
      'threeDSCompInd recorded as N, not Y: scenario three-ds-method-timeout, the Method never completes within its 10-second window (api-description.md, Limits).',
    );
    expect((await sb.acme.status(s.id, s.co))['threeds-comp-ind']).toBe('N');
  });

  it('callback-duplicate: the handler gets the callback twice; both answers are recorded', async () => {
    const s = await sale({}, { 'x-sandbox-scenario': 'callback-duplicate' });
    await advance(1000);
    const hits = hitsOf(s.id);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.query.toString()).toBe(hits[1]!.query.toString());
    const d = await deliveries(s.id);
    expect(d.map((x) => [x.kind, x.httpStatus])).toEqual([
      ['delivery', 200],
      ['duplicate', 200],
    ]);
    expect(d[0]!.bodyExcerpt).toBe(`OK ${s.id}`);
  });

  it("callback-reorder: the capture's callback arrives before the preauth's", async () => {
    await choose([{ name: 'callback-reorder' }]);
    // notify_url: the capture is a later transaction, which server_callback_url never hears.
    const cbUrl = `${handler.base}/cb`;
    const pre = await sb.acme.call(
      'v2/preauth',
      saleParams({ server_callback_url: cbUrl, notify_url: cbUrl }),
    );
    await choose([]);
    const id = String(pre.body['paynet-order-id']);
    const co = String(pre.body['merchant-order-id']);
    await advance(1000);
    expect(hitsOf(id)).toHaveLength(0);
    await sb.acme.call('v2/capture', {
      login: 'acme',
      client_orderid: co,
      orderid: id,
      amount: '1.00',
      currency: 'USD',
    });
    await advance(1000);
    await advance(10_000);
    expect(hitsOf(id).map((h) => h.query.get('type'))).toEqual(['capture', 'preauth']);
  });

  it('callback-delay: nothing at the final status; the callback 60 s later', async () => {
    const s = await sale({}, { 'x-sandbox-scenario': 'callback-delay' });
    await advance(1000);
    expect((await sb.acme.status(s.id, s.co)).status).toBe('approved');
    expect(hitsOf(s.id)).toHaveLength(0);
    await advance(59_000);
    expect(hitsOf(s.id)).toHaveLength(0);
    await advance(1000);
    expect(hitsOf(s.id)).toHaveLength(1);
  });

  it('callback-drop-retry: two attempts dropped, the retry delivers', async () => {
    const s = await sale({}, { 'x-sandbox-scenario': 'callback-drop-retry' });
    await advance(1000);
    expect(hitsOf(s.id)).toHaveLength(0);
    // The relay's list numbers the attempts and says when the pending retry is due.
    const waiting = await deliveries(s.id);
    expect(waiting.map((x) => x.attempt)).toEqual([1]);
    expect(waiting[0]!.nextAttemptAt).toEqual(expect.any(Number));
    await advance(3000); // retries after 1 s and 2 s
    expect(hitsOf(s.id)).toHaveLength(1);
    const done = await deliveries(s.id);
    expect(done.map((x) => x.kind)).toEqual(['dropped', 'dropped', 'delivery']);
    expect(done.map((x) => x.attempt)).toEqual([1, 2, 3]);
    expect(done.map((x) => x.nextAttemptAt)).toEqual([null, null, null]);
  });

  it('callback-bad-control: a forged approved first (refused by the handler), then the genuine one', async () => {
    const s = await sale({ cvv2: '116' }, { 'x-sandbox-scenario': 'callback-bad-control' });
    await advance(1000);
    const hits = hitsOf(s.id);
    expect(hits.map((h) => [h.query.get('status'), h.controlOk, h.answered])).toEqual([
      ['approved', false, 403],
      ['declined', true, 200],
    ]);
    expect(handler.states.get(s.id)).toBe('declined');
  });

  it('test clock: a handler down for two weeks sees the whole retry schedule in one advance', async () => {
    handler.failures.set('/down', 1000);
    const s = await sale({ server_callback_url: `${handler.base}/down` });
    const r = await advance(14 * 86_400_000);
    expect(r.status).toBe(200);
    // 21 attempts, 1 s doubling: the last one 2^20 s (about 12 days) after the first.
    expect(hitsOf(s.id)).toHaveLength(21);
    expect(r.body.totalAdvancedMs).toBeGreaterThanOrEqual(14 * 86_400_000);
    await advance(30 * 86_400_000);
    expect(hitsOf(s.id)).toHaveLength(21);
  });

  it('test clock: later steps do not wait for a delivery in flight, and its retry keeps its delay', async () => {
    handler.failures.set('/once', 1);
    const a = await sale({ server_callback_url: `${handler.base}/once` });
    sb.clock.advance(500);
    const b = await sale();
    // a is due at +1 s and fails: its retry is due at +2 s. b, due at +1.5 s, is reached while a's
    // attempt may still be in flight; the retry is dated in the merchant's time all the same.
    await advance(1499);
    expect(hitsOf(a.id)).toHaveLength(1);
    expect(hitsOf(b.id)).toHaveLength(1);
    await advance(1);
    expect(hitsOf(a.id).map((h) => h.answered)).toEqual([500, 200]);
  });

  it('test clock: deadlines within one scheduler period are one step (a fan-out is not one step per sale)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      ids.push((await sale()).id);
      sb.clock.advance(10);
    }
    const r = await advance(2000);
    expect(ids.filter((id) => hitsOf(id).length === 1)).toHaveLength(60);
    // Due over 600 ms; the timer's period here is 250 ms.
    expect(r.body.steps).toBeLessThanOrEqual(3);
  });

  it('relay: replays a delivery as it was and mutated; the handler refuses the bad ones', async () => {
    const s = await sale();
    await advance(1000);
    const first = (await deliveries(s.id))[0]!;
    const replay = async (mutation: string) => {
      const r = await admin(sb.app, 'POST', `/relay/deliveries/${first.id}/replay`, { mutation });
      expect(r.status).toBe(200);
      return r.body.delivery;
    };
    expect((await replay('as-is')).httpStatus).toBe(200);
    expect((await replay('bad-control')).httpStatus).toBe(403);
    const amount = await replay('amount');
    expect(new URL(amount.url).searchParams.get('amount')).toBe('11.42');
    const stale = await replay('stale');
    expect(new URL(stale.url).searchParams.get('status')).toBe('processing');
    expect(stale.bodyExcerpt).toBe('stale, ignored');
    expect(handler.states.get(s.id)).toBe('approved');
    const all = await deliveries(s.id);
    expect(all.map((x) => x.mutation)).toEqual([null, 'as-is', 'bad-control', 'amount', 'stale']);
    const missing = await admin(sb.app, 'POST', '/relay/deliveries/999999/replay', { mutation: 'as-is' });
    expect(missing.status).toBe(404);
    const badBody = await admin(sb.app, 'POST', `/relay/deliveries/${first.id}/replay`, { mutation: 'eat' });
    expect(badBody.status).toBe(400);
  });

  it("relay: login filters the deliveries whatever else is asked (another merchant's order gives none)", async () => {
    const s = await sale();
    await advance(1000);
    const acme = sb.merchants.acme.login;
    const other = sb.merchants.other.login;
    const own = await admin(sb.app, 'GET', `/relay/deliveries?login=${acme}&orderid=${s.id}`);
    expect((own.body.deliveries as Loose[]).length).toBeGreaterThan(0);
    const foreign = await admin(sb.app, 'GET', `/relay/deliveries?login=${other}&orderid=${s.id}`);
    expect(foreign.status).toBe(200);
    expect(foreign.body.deliveries).toEqual([]);
  });

  it('relay: never reaches a host that is not allowed (clear JSON error)', async () => {
    const r = await admin(sb.app, 'POST', '/relay/handler-check', { url: 'http://203.0.113.9/cb' });
    expect(r.status).toBe(403);
    expect(r.body['error-reason']).toBe('CALLBACK_HOST_REFUSED');
    expect(r.body['error-message']).toMatch(/SANDBOX_CALLBACK_HOSTS/);
    const order = await sb.acme.call('v2/sale', saleParams({ server_callback_url: 'http://203.0.113.9/cb' }));
    expect(order.body['error-reason']).toBe('CALLBACK_URL_REFUSED');
  });

  it('no scenario chosen: one callback, approved, nothing recorded but the delivery', async () => {
    const s = await sale({ client_orderid: orderId('plain') });
    await advance(1000);
    expect(hitsOf(s.id)).toHaveLength(1);
    expect((await deliveries(s.id)).map((x) => x.kind)).toEqual(['delivery']);
  });
});
