import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock, orderId, saleParams, sha1, startSandbox, waitFor, type Sandbox } from './support.ts';

interface Hit {
  path: string;
  query: URLSearchParams;
  method: string;
}

/** A merchant's callback endpoint: answers each path with the codes listed for it, then 200. */
function callbackServer(
  plan: Record<string, number[]>,
): Promise<{ server: Server; base: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    hits.push({ path: u.pathname, query: u.searchParams, method: req.method ?? '' });
    const codes = plan[u.pathname] ?? [];
    res.statusCode = codes.shift() ?? 200;
    res.end('ok');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}`, hits });
    });
  });
}

describe('sandbox callbacks', () => {
  let sb: Sandbox;
  let cb: Awaited<ReturnType<typeof callbackServer>>;
  const clock = fakeClock();
  const realClock = {
    get now() {
      return Date.now();
    },
    advance: (ms: number) => clock.advance(ms),
  };

  beforeAll(async () => {
    cb = await callbackServer({
      '/flaky': [500, 500],
      '/down': [500, 500, 500, 500, 500, 500, 500, 500, 500, 500],
      '/redirect': [302],
    });
    // Real time here: callbacks are retried on the sandbox's own timer.
    sb = await startSandbox(
      { finalizeDelayMs: 30, callbackRetry: { attempts: 4, baseDelayMs: 40 }, clock: () => Date.now() },
      realClock,
    );
  });
  afterAll(async () => {
    await sb.app.close();
    await new Promise((r) => cb.server.close(r));
  });
  const hitsOf = (path: string, orderid: string) =>
    cb.hits.filter((h) => h.path === path && h.query.get('orderid') === orderid);

  it('delivers the final status with a control the merchant can check', async () => {
    const params = saleParams({ server_callback_url: `${cb.base}/ok?shop=1` });
    const ack = await sb.acme.call('v2/sale', params);
    const id = String(ack.body['paynet-order-id']);
    const [hit] = await waitFor(() => (hitsOf('/ok', id).length > 0 ? hitsOf('/ok', id) : undefined));
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

  it('retries with backoff until it gets a 200 (500, 500, then 200)', async () => {
    const ack = await sb.acme.call(
      'v2/sale',
      saleParams({ cvv2: '116', server_callback_url: `${cb.base}/flaky` }),
    );
    const id = String(ack.body['paynet-order-id']);
    const hits = await waitFor(() => (hitsOf('/flaky', id).length >= 3 ? hitsOf('/flaky', id) : undefined));
    expect(hits).toHaveLength(3);
    for (const h of hits) {
      expect(h.query.get('status')).toBe('declined');
      expect(h.query.get('error_code')).toBe('402');
      expect(h.query.get('error_reason')).toBe('INSUFFICIENT_FUNDS');
      expect(h.query.get('error_message')).toBe('Declined: insufficient funds');
    }
    await new Promise((r) => setTimeout(r, 400));
    expect(hitsOf('/flaky', id)).toHaveLength(3);
  });

  it('stops after the configured number of attempts, and treats a redirect as a failure', async () => {
    const ack = await sb.acme.call('v2/sale', saleParams({ server_callback_url: `${cb.base}/down` }));
    const id = String(ack.body['paynet-order-id']);
    await waitFor(() => (hitsOf('/down', id).length >= 4 ? true : undefined));
    // 40 + 80 + 160 ms of backoff have passed; the next would be at +320 ms, and there is none.
    await new Promise((r) => setTimeout(r, 700));
    expect(hitsOf('/down', id)).toHaveLength(4);
    const r = await sb.acme.call('v2/sale', saleParams({ server_callback_url: `${cb.base}/redirect` }));
    const rid = String(r.body['paynet-order-id']);
    await waitFor(() => (hitsOf('/redirect', rid).length >= 2 ? true : undefined));
  });

  it('calls back for a capture with the order callback URL, and not for a non-final status', async () => {
    const pre = await sb.acme.call('v2/preauth', saleParams({ server_callback_url: `${cb.base}/pre` }));
    const id = String(pre.body['paynet-order-id']);
    await waitFor(() => (hitsOf('/pre', id).length >= 1 ? true : undefined));
    await sb.acme.call('v2/capture', {
      login: 'acme',
      client_orderid: String(pre.body['merchant-order-id']),
      orderid: id,
      amount: '1.00',
      currency: 'USD',
    });
    const cap = await waitFor(() => hitsOf('/pre', id).find((h) => h.query.get('type') === 'capture'));
    expect(cap.query.get('amount')).toBe('1.00');

    const unknown = await sb.acme.call(
      'v2/sale',
      saleParams({ cvv2: '217', server_callback_url: `${cb.base}/unknown` }),
    );
    const uid = String(unknown.body['paynet-order-id']);
    await waitFor(async () =>
      (await sb.acme.status(uid, String(unknown.body['merchant-order-id']))).status === 'unknown'
        ? true
        : undefined,
    );
    await new Promise((r) => setTimeout(r, 150));
    expect(hitsOf('/unknown', uid)).toHaveLength(0);
  });

  it("a callback for a rebill goes to the rebill's own URL", async () => {
    const sale = await sb.acme.call('v2/sale', saleParams());
    const id = String(sale.body['paynet-order-id']);
    const co = String(sale.body['merchant-order-id']);
    await waitFor(async () => ((await sb.acme.status(id, co)).status === 'approved' ? true : undefined));
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
    const hit = await waitFor(() => hitsOf('/rebill', String(rebill.body['paynet-order-id']))[0]);
    expect(hit.query.get('type')).toBe('rebill');
  });
});
