/**
 * Issue 28, from outside (HTTP signed by this test's own signer, test/sandbox/support.ts): where the
 * vendor's live clients depend on the gateway's behaviour (gateway-notes.md, "What the vendor's
 * live clients also rely on"). A return is a reversal on the wire; server_callback_url hears the
 * initial transaction only, notify_url the later ones too; the ticket call takes an empty body; an
 * empty scenario header chooses none for the order's whole life.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderId, saleParams, startSandbox, type Sandbox, BASE_PATH, HOST, formBody } from './support.ts';
import { startMerchantHandler, type MerchantHandler } from './merchant-handler.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are read field by field
type Loose = Record<string, any>;

async function admin(app: FastifyInstance, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) {
  const res = await app.inject({
    method,
    url: `/sandbox${url}`,
    headers: {
      host: HOST,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as Loose };
}

describe('what the vendor’s live clients rely on (issue 28)', () => {
  let sb: Sandbox;
  let handler: MerchantHandler;
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
    expect(r.status, r.raw).toBe(200);
    return { id: String(r.body['paynet-order-id']), co: String(r.body['merchant-order-id']) };
  };
  const returnOf = async (s: { id: string; co: string }) => {
    const r = await sb.acme.call('v2/return', {
      login: 'acme',
      client_orderid: s.co,
      orderid: s.id,
      comment: 'Refund',
    });
    expect(r.status, r.raw).toBe(200);
  };

  beforeAll(async () => {
    sb = await startSandbox({ finalizeDelayMs: 1000 });
    handler = await startMerchantHandler(sb.merchants.acme.controlKey);
  });
  afterAll(async () => {
    await sb.app.close();
    await handler.close();
  });

  describe('§1 a return is a reversal; notify_url hears later transactions', () => {
    it('status says transaction-type=reversal after a return on a sale', async () => {
      const s = await sale();
      await advance(1000);
      await returnOf(s);
      await advance(1000);
      expect(await sb.acme.status(s.id, s.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'reversal',
      });
    });

    it('the reversal’s callback goes to notify_url (type=reversal), never to server_callback_url', async () => {
      const s = await sale({ notify_url: `${handler.base}/notify` });
      await advance(1000);
      await returnOf(s);
      await advance(1000);
      expect(hitsOf(s.id).map((h) => [h.path, h.query.get('type'), h.controlOk])).toEqual([
        ['/cb', 'sale', true],
        ['/notify', 'sale', true],
        ['/notify', 'reversal', true],
      ]);
      const routes = (await deliveries(s.id)).map((d) => [new URL(d.url).pathname, d.urlField]);
      expect(routes).toEqual([
        ['/cb', 'server_callback_url'],
        ['/notify', 'notify_url'],
        ['/notify', 'notify_url'],
      ]);
      const why = (await deliveries(s.id)).map((d) => d.urlWhy as string);
      expect(why[0]).toMatch(/initial transaction \(sale\)/);
      expect(why[2]).toMatch(/later transaction \(reversal\).*only notify_url/);
    });

    it('without notify_url a later transaction has no callback (server_callback_url hears the initial only)', async () => {
      const s = await sale();
      await advance(1000);
      await returnOf(s);
      await advance(1000);
      expect(hitsOf(s.id).map((h) => h.query.get('type'))).toEqual(['sale']);
    });

    it('one URL for both fields: the initial transaction is heard once', async () => {
      const s = await sale({ notify_url: `${handler.base}/cb` });
      await advance(1000);
      await returnOf(s);
      await advance(1000);
      expect(hitsOf(s.id).map((h) => h.query.get('type'))).toEqual(['sale', 'reversal']);
    });

    it('a notify_url off this machine is refused as server_callback_url is', async () => {
      const r = await sb.acme.call('v2/sale', saleParams({ notify_url: 'http://203.0.113.9/n' }));
      expect(r.body['error-reason']).toBe('CALLBACK_URL_REFUSED');
      expect(r.body['error-message']).toMatch(/^notify_url host/);
    });
  });

  describe('§3 the ticket call as the vendor’s examples send it', () => {
    it('an empty body with only the OAuth header gets an ephemeralTicket that tokenizes a card', async () => {
      for (const contentType of ['application/x-www-form-urlencoded', undefined]) {
        const ticket = await sb.acme.call(
          'v4/tokenize/create-ephemeral-ticket',
          {},
          { headers: { 'content-type': contentType } },
        );
        expect(ticket.status, ticket.raw).toBe(200);
        expect(ticket.body.ephemeralTicket).toMatch(/\S{16,}/);
        expect(ticket.body).not.toHaveProperty('ephemeral-ticket');
        const tokenized = await sb.app.inject({
          method: 'POST',
          url: `${BASE_PATH}/hosted-fields/tokenize`,
          headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
          payload: formBody({
            ticket: String(ticket.body.ephemeralTicket),
            credit_card_number: '4444444444444448',
            card_printed_name: 'JOHN SMITH',
            expire_month: '12',
            expire_year: String(new Date().getUTCFullYear() + 2),
            cvv2: '123',
          }),
        });
        expect(tokenized.statusCode, tokenized.body).toBe(200);
      }
    });

    it('other operations still refuse an empty body', async () => {
      const r = await sb.acme.call('v4/status', {});
      expect(r.status).toBe(400);
      expect(r.body['error-reason']).toBe('BODY_INVALID');
    });
  });

  describe('§5 an empty X-Sandbox-Scenario header chooses none for the order’s whole life', () => {
    it('with the merchant on callback-duplicate, the empty header’s sale is called back once', async () => {
      await choose([{ name: 'callback-duplicate' }]);
      try {
        const none = await sale({ client_orderid: orderId('none') }, { 'x-sandbox-scenario': '' });
        const dup = await sale({ client_orderid: orderId('dup') });
        await advance(1000);
        expect(hitsOf(dup.id)).toHaveLength(2);
        expect(hitsOf(none.id)).toHaveLength(1);
        expect((await deliveries(none.id)).map((d) => d.kind)).toEqual(['delivery']);
      } finally {
        await choose([]);
      }
    });
  });
});
