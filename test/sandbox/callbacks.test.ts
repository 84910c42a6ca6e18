import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderId, saleParams, sha1, startSandbox, type Sandbox } from './support.ts';

interface Hit {
  path: string;
  query: URLSearchParams;
  method: string;
}

/**
 * A merchant's callback endpoint: answers each path with the codes listed for it, then 200.
 * `next` resolves on the next hit that matches: a wait on an event, never on a delay.
 */
function callbackServer(plan: Record<string, number[]>): Promise<{
  server: Server;
  base: string;
  hits: Hit[];
  next: (match: (h: Hit) => boolean) => Promise<Hit>;
}> {
  const hits: Hit[] = [];
  let waiters: Array<{ match: (h: Hit) => boolean; resolve: (h: Hit) => void }> = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const hit = { path: u.pathname, query: u.searchParams, method: req.method ?? '' };
    hits.push(hit);
    const codes = plan[u.pathname] ?? [];
    res.statusCode = codes.shift() ?? 200;
    res.end('ok');
    const woken = waiters.filter((w) => w.match(hit));
    waiters = waiters.filter((w) => !w.match(hit));
    for (const w of woken) w.resolve(hit);
  });
  const next = (match: (h: Hit) => boolean) =>
    new Promise<Hit>((resolve) => waiters.push({ match, resolve }));
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}`, hits, next });
    });
  });
}

/**
 * Driven by the test clock (`POST /sandbox/clock/acme/advance`): an advance finalises what falls
 * due, delivers every callback and waits for the handler's answers, so each expectation below holds
 * when the advance returns, whatever the machine's speed, and a retry is reached by moving time,
 * not by waiting for it.
 */
describe('sandbox callbacks', () => {
  let sb: Sandbox;
  let cb: Awaited<ReturnType<typeof callbackServer>>;

  beforeAll(async () => {
    cb = await callbackServer({
      '/flaky': [500, 500],
      '/down': [500, 500, 500, 500, 500, 500, 500, 500, 500, 500],
      '/redirect': [302],
    });
    sb = await startSandbox({
      finalizeDelayMs: 30,
      callbackRetry: { schedule: 'fast', attempts: 4, baseDelayMs: 40 },
    });
  });
  afterAll(async () => {
    await sb.app.close();
    await new Promise((r) => cb.server.close(r));
  });
  const hitsOf = (path: string, orderid: string) =>
    cb.hits.filter((h) => h.path === path && h.query.get('orderid') === orderid);
  const advance = async (ms: number) => {
    const r = await sb.app.inject({
      method: 'POST',
      url: '/sandbox/clock/acme/advance',
      headers: { host: '127.0.0.1:4174', 'content-type': 'application/json' },
      payload: JSON.stringify({ ms }),
    });
    expect(r.statusCode).toBe(200);
  };

  it('delivers the final status with a control the merchant can check', async () => {
    const params = saleParams({ server_callback_url: `${cb.base}/ok?shop=1` });
    const ack = await sb.acme.call('v2/sale', params);
    const id = String(ack.body['paynet-order-id']);
    await advance(29);
    expect(hitsOf('/ok', id)).toHaveLength(0);
    await advance(1);
    const [hit] = hitsOf('/ok', id);
    expect(hit!.method).toBe('GET');
    const q = hit!.query;
    expect(q.get('shop')).toBe('1');
    expect(q.get('status')).toBe('approved');
    expect(q.get('merchant_order')).toBe(params.client_orderid);
    expect(q.get('client_orderid')).toBe(params.client_orderid);
    expect(q.get('amount')).toBe('10.42');
    expect(q.get('type')).toBe('sale');
    expect(q.get('error_message')).toBeNull();
    expect(q.get('control')).toBe(
      sha1(`approved${id}${params.client_orderid}${sb.merchants.acme.controlKey}`),
    );
  });

  it("delivers on the sandbox's own timer too, without the test clock", async () => {
    const ack = await sb.acme.call('v2/sale', saleParams({ server_callback_url: `${cb.base}/timer` }));
    const id = String(ack.body['paynet-order-id']);
    const arrived = cb.next((h) => h.path === '/timer' && h.query.get('orderid') === id);
    sb.clock.advance(30); // the sandbox's clock, read by its timer
    expect((await arrived).query.get('status')).toBe('approved');
  });

  it('retries with backoff until it gets a 200 (500, 500, then 200), 40 then 80 ms apart', async () => {
    const ack = await sb.acme.call(
      'v2/sale',
      saleParams({ cvv2: '116', server_callback_url: `${cb.base}/flaky` }),
    );
    const id = String(ack.body['paynet-order-id']);
    await advance(30);
    expect(hitsOf('/flaky', id)).toHaveLength(1);
    await advance(39);
    expect(hitsOf('/flaky', id)).toHaveLength(1);
    await advance(1);
    expect(hitsOf('/flaky', id)).toHaveLength(2);
    await advance(79);
    expect(hitsOf('/flaky', id)).toHaveLength(2);
    await advance(1);
    const hits = hitsOf('/flaky', id);
    expect(hits).toHaveLength(3);
    for (const h of hits) {
      expect(h.query.get('status')).toBe('declined');
      expect(h.query.get('error_code')).toBe('402');
      expect(h.query.get('error_reason')).toBe('INSUFFICIENT_FUNDS');
      expect(h.query.get('error_message')).toBe('Declined: insufficient funds');
    }
    await advance(86_400_000);
    expect(hitsOf('/flaky', id)).toHaveLength(3);
  });

  it('stops after the configured number of attempts, and treats a redirect as a failure', async () => {
    const ack = await sb.acme.call('v2/sale', saleParams({ server_callback_url: `${cb.base}/down` }));
    const id = String(ack.body['paynet-order-id']);
    // 30 ms to the final status, then 40 + 80 + 160 ms of backoff: four attempts, and no fifth.
    await advance(30 + 40 + 80 + 160);
    expect(hitsOf('/down', id)).toHaveLength(4);
    await advance(86_400_000);
    expect(hitsOf('/down', id)).toHaveLength(4);
    const r = await sb.acme.call('v2/sale', saleParams({ server_callback_url: `${cb.base}/redirect` }));
    const rid = String(r.body['paynet-order-id']);
    await advance(30);
    expect(hitsOf('/redirect', rid)).toHaveLength(1);
    await advance(40);
    expect(hitsOf('/redirect', rid)).toHaveLength(2);
  });

  it('calls back for a capture with the order notify_url, and not for a non-final status', async () => {
    // A capture is a later transaction: notify_url hears it, server_callback_url never (issue 28).
    const pre = await sb.acme.call(
      'v2/preauth',
      saleParams({ server_callback_url: `${cb.base}/pre`, notify_url: `${cb.base}/pre` }),
    );
    const id = String(pre.body['paynet-order-id']);
    await advance(30);
    expect(hitsOf('/pre', id)).toHaveLength(1);
    await sb.acme.call('v2/capture', {
      login: 'acme',
      client_orderid: String(pre.body['merchant-order-id']),
      orderid: id,
      amount: '1.00',
      currency: 'USD',
    });
    await advance(30);
    const cap = hitsOf('/pre', id).find((h) => h.query.get('type') === 'capture');
    expect(cap?.query.get('amount')).toBe('1.00');

    const unknown = await sb.acme.call(
      'v2/sale',
      saleParams({ cvv2: '217', server_callback_url: `${cb.base}/unknown` }),
    );
    const uid = String(unknown.body['paynet-order-id']);
    await advance(86_400_000);
    expect((await sb.acme.status(uid, String(unknown.body['merchant-order-id']))).status).toBe('unknown');
    expect(hitsOf('/unknown', uid)).toHaveLength(0);
  });

  it("a callback for a rebill goes to the rebill's own URL", async () => {
    const sale = await sb.acme.call('v2/sale', saleParams());
    const id = String(sale.body['paynet-order-id']);
    const co = String(sale.body['merchant-order-id']);
    await advance(30);
    expect((await sb.acme.status(id, co)).status).toBe('approved');
    const ref = await sb.acme.call('v2/create-card-ref', { login: 'acme', client_orderid: co, orderid: id });
    const rebill = await sb.acme.call('v2/make-rebill', {
      login: 'acme',
      client_orderid: orderId('rb'),
      order_desc: 'Renewal',
      amount: '3.00',
      currency: 'USD',
      ipaddress: '203.0.113.7',
      cardrefid: String(ref.body['card-ref-id']),
      server_callback_url: `${cb.base}/rebill`,
    });
    await advance(30);
    const hit = hitsOf('/rebill', String(rebill.body['paynet-order-id']))[0];
    expect(hit?.query.get('type')).toBe('rebill');
  });
});
