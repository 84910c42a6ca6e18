/**
 * Issue 28, from outside (HTTP signed by this test's own signer, test/sandbox/support.ts): where the
 * vendor's live clients depend on the gateway's behaviour (gateway-notes.md, "What the vendor's
 * live clients also rely on"). A return is a reversal on the wire; server_callback_url hears the
 * initial transaction only, notify_url the later ones too; the ticket call takes an empty body; an
 * empty scenario header chooses none for the order's whole life.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_SOURCE_LABEL, findOperation } from '../../src/catalog/index.ts';
import { resolveSandboxOptions, sandboxOptionsFromEnv } from '../../sandbox/options.ts';
import { GATEWAY_RETRY_WAITS_MS, renderRetryTable } from '../../sandbox/relay/retry-schedule.ts';
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
      const r = await sb.acme.call('v2/sale', saleParams({ notify_url: 'http://notify.invalid/n' }));
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

  describe('§4 the operations the vendor’s clients call', () => {
    const PATHS = [
      'v2/make-rebill-sale',
      'v2/make-rebill-preauth',
      'v2/transfer-by-ref',
      'v2/sync/account-verification',
      'v2/bank-wire-transfer',
    ];
    it.each(PATHS)('%s is in the catalog with its source named', (path) => {
      const op = findOperation(path);
      expect(op?.source).toBe('vendor-clients');
      expect(OPERATION_SOURCE_LABEL[op!.source!]).toMatch(/vendor's own client code/);
      expect(op?.scheme).toBe('control');
    });

    /** An approved card reference of acme's, from an approved sale. */
    const cardRef = async (): Promise<string> => {
      const s = await sale();
      await advance(1000);
      const r = await sb.acme.call('v2/create-card-ref', {
        login: 'acme',
        client_orderid: s.co,
        orderid: s.id,
      });
      expect(r.status, r.raw).toBe(200);
      return String(r.body['card-ref-id']);
    };
    const rebillParams = (cardrefid: string) => ({
      login: 'acme',
      client_orderid: orderId('rb'),
      order_desc: 'Renewal',
      amount: '9.99',
      currency: 'USD',
      ipaddress: '203.0.113.7',
      cardrefid,
      recurrent_scenario: 'REGULAR',
      recurrent_initiator: 'MERCHANT',
      server_callback_url: `${handler.base}/cb`,
      notify_url: `${handler.base}/notify`,
    });
    const idsOf = (body: Record<string, unknown>) => ({
      id: String(body['paynet-order-id']),
      co: String(body['merchant-order-id']),
    });

    it('make-rebill-sale: a sale on the stored card, refundable by return (a reversal)', async () => {
      const ref = await cardRef();
      const r = await sb.acme.call('v2/make-rebill-sale', rebillParams(ref));
      expect(r.status, r.raw).toBe(200);
      expect(r.body.type).toBe('async-response');
      const o = idsOf(r.body);
      await advance(1000);
      expect(await sb.acme.status(o.id, o.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'sale',
        'card-ref-id': ref,
      });
      await returnOf(o);
      await advance(1000);
      expect(await sb.acme.status(o.id, o.co)).toMatchObject({ 'transaction-type': 'reversal' });
      expect(hitsOf(o.id).map((h) => [h.path, h.query.get('type')])).toEqual([
        ['/cb', 'sale'],
        ['/notify', 'sale'],
        ['/notify', 'reversal'],
      ]);
    });

    it('make-rebill-preauth: a preauth on the stored card, captured as any preauth; void refused after it', async () => {
      const ref = await cardRef();
      const r = await sb.acme.call('v2/make-rebill-preauth', rebillParams(ref));
      expect(r.status, r.raw).toBe(200);
      const o = idsOf(r.body);
      await advance(1000);
      expect(await sb.acme.status(o.id, o.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'preauth',
      });
      const cap = await sb.acme.call('v2/capture', { login: 'acme', client_orderid: o.co, orderid: o.id });
      expect(cap.status, cap.raw).toBe(200);
      await advance(1000);
      expect(await sb.acme.status(o.id, o.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'capture',
      });
      const voided = await sb.acme.call('v2/void', { login: 'acme', client_orderid: o.co, orderid: o.id });
      expect(voided.body['error-reason']).toBe('STATE');
    });

    it('a rebill-sale on a card reference that is not the merchant’s is refused', async () => {
      const r = await sb.acme.call('v2/make-rebill-sale', rebillParams('999999999'));
      expect(r.body['error-reason']).toBe('CARD_REF_NOT_FOUND');
    });

    it('transfer-by-ref: between two stored cards, approved after the delay', async () => {
      const [from, to] = [await cardRef(), await cardRef()];
      const r = await sb.acme.call('v2/transfer-by-ref', {
        client_orderid: orderId('tr'),
        amount: '15.00',
        currency: 'USD',
        ipaddress: '203.0.113.7',
        'destination-card-ref-id': to,
        'source-card-ref-id': from,
        login: 'acme',
        server_callback_url: `${handler.base}/cb`,
      });
      expect(r.status, r.raw).toBe(200);
      const o = idsOf(r.body);
      await advance(1000);
      expect(await sb.acme.status(o.id, o.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'transfer',
        amount: '15.00',
      });
      expect(hitsOf(o.id).map((h) => h.query.get('type'))).toEqual(['transfer']);
    });

    it('transfer-by-ref signed without the source it sends is refused (the source is a term)', async () => {
      const [from, to] = [await cardRef(), await cardRef()];
      const params = {
        client_orderid: orderId('tr'),
        amount: '15.00',
        currency: 'USD',
        ipaddress: '203.0.113.7',
        'destination-card-ref-id': to,
        login: 'acme',
      };
      const control = sb.acme.controlFor(
        'v2/transfer-by-ref',
        params,
        sb.merchants.acme.endpointIds[0]!,
        sb.merchants.acme,
      );
      const r = await sb.acme.call(
        'v2/transfer-by-ref',
        { ...params, 'source-card-ref-id': from },
        { control },
      );
      expect(r.body['error-reason']).toBe('INVALID_CONTROL_CODE');
    });

    it('sync/account-verification: the answer is final, with a card reference make-rebill can charge', async () => {
      const r = await sb.acme.call(
        'v2/sync/account-verification',
        saleParams({ client_orderid: orderId('sav'), server_callback_url: `${handler.base}/cb` }),
      );
      expect(r.status, r.raw).toBe(200);
      expect(r.body).toMatchObject({
        type: 'status-response',
        status: 'approved',
        'last-four-digits': '4448',
      });
      expect(r.body['card-ref-id']).toMatch(/^\d+$/);
      const o = idsOf(r.body);
      expect(await sb.acme.status(o.id, o.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'account-verification',
      });
      const rebill = await sb.acme.call('v2/make-rebill', {
        login: 'acme',
        client_orderid: orderId('rbv'),
        order_desc: 'First charge',
        amount: '1.00',
        currency: 'USD',
        ipaddress: '203.0.113.7',
        cardrefid: String(r.body['card-ref-id']),
      });
      expect(rebill.status, rebill.raw).toBe(200);
      await advance(1000);
      expect(hitsOf(o.id).map((h) => h.query.get('type'))).toEqual(['account-verification']);
      const declined = await sb.acme.call(
        'v2/sync/account-verification',
        saleParams({ client_orderid: orderId('sav'), cvv2: '116' }),
      );
      expect(declined.body).toMatchObject({ status: 'declined', 'error-code': expect.anything() });
      expect(declined.body).not.toHaveProperty('card-ref-id');
    });

    it('bank-wire-transfer: a payout by wire, approved after the delay; a VAT above the amount is refused', async () => {
      const params = {
        client_orderid: orderId('bw'),
        'payer-fullname': 'John Smith',
        'recipient-name': 'Example Supplies Ltd',
        'recipient-account-number': 'GB29NWBK60161331926819',
        'recipient-bank-bic': 'NWBKGB2L',
        amount: '120.00',
        'vat-amount': '20.00',
        currency: 'EUR',
        server_callback_url: `${handler.base}/cb`,
      };
      const r = await sb.acme.call('v2/bank-wire-transfer', params);
      expect(r.status, r.raw).toBe(200);
      const o = idsOf(r.body);
      await advance(1000);
      expect(await sb.acme.status(o.id, o.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'payout',
      });
      const over = await sb.acme.call('v2/bank-wire-transfer', {
        ...params,
        client_orderid: orderId('bw'),
        'vat-amount': '130.00',
      });
      expect(over.body['error-reason']).toBe('VALIDATION');
    });
  });

  describe('§2 the retry schedule the notes state: 30 attempts over 14 days, by default', () => {
    it('a handler that is down hears 30 attempts, the next one shown in the merchant’s time', async () => {
      handler.failures.set('/down', 1000);
      const s = await sale({ server_callback_url: `${handler.base}/down` });
      const pending = async () => {
        const state = (await admin(sb.app, 'GET', '/clock/acme')).body;
        const merchantNow = sb.clock.now + (state.clockAdvancedMs as number);
        const mine = (state.callbacks as Loose[]).find((c) => c.orderId === s.id);
        return (
          mine && {
            ...mine,
            inMs: (mine.nextAttemptAt as number) - merchantNow,
            schedule: state.retrySchedule,
          }
        );
      };
      expect(await pending()).toBeUndefined(); // queued when the sale is final
      await advance(1000);
      expect(hitsOf(s.id)).toHaveLength(1);
      let waited = 0;
      for (const [i, wait] of GATEWAY_RETRY_WAITS_MS.entries()) {
        expect(await pending()).toMatchObject({
          attempts: i + 1,
          inMs: wait,
          schedule: 'gateway',
          type: 'sale',
          urlField: 'server_callback_url',
        });
        // One millisecond early: nothing; then the attempt.
        await advance(wait - 1);
        expect(hitsOf(s.id)).toHaveLength(i + 1);
        await advance(1);
        expect(hitsOf(s.id)).toHaveLength(i + 2);
        waited += wait;
      }
      expect(hitsOf(s.id)).toHaveLength(30);
      expect(waited).toBe(14 * 86_400_000);
      expect(await pending()).toBeUndefined();
      await advance(30 * 86_400_000);
      expect(hitsOf(s.id)).toHaveLength(30);
      handler.failures.delete('/down');
    });

    it('docs/scenarios.md prints the one table', () => {
      const doc = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8');
      expect(doc).toContain(renderRetryTable());
    });

    it('the schedule is progressive: no wait shorter than the one before', () => {
      GATEWAY_RETRY_WAITS_MS.slice(1).forEach((w, i) =>
        expect(w).toBeGreaterThanOrEqual(GATEWAY_RETRY_WAITS_MS[i]!),
      );
    });

    it('the fast local schedule is an explicit option; its settings alone are refused', () => {
      expect(resolveSandboxOptions(sandboxOptionsFromEnv({})).callbackRetry).toMatchObject({
        schedule: 'gateway',
        attempts: 30,
      });
      expect(
        resolveSandboxOptions(sandboxOptionsFromEnv({ SANDBOX_CALLBACK_SCHEDULE: 'fast' })).callbackRetry,
      ).toEqual({ schedule: 'fast', attempts: 8, baseDelayMs: 1000 });
      expect(
        resolveSandboxOptions(
          sandboxOptionsFromEnv({ SANDBOX_CALLBACK_SCHEDULE: 'fast', SANDBOX_CALLBACK_ATTEMPTS: '3' }),
        ).callbackRetry,
      ).toEqual({ schedule: 'fast', attempts: 3, baseDelayMs: 1000 });
      expect(() => resolveSandboxOptions(sandboxOptionsFromEnv({ SANDBOX_CALLBACK_ATTEMPTS: '8' }))).toThrow(
        /fast schedule only.*SANDBOX_CALLBACK_SCHEDULE=fast/,
      );
      expect(() => sandboxOptionsFromEnv({ SANDBOX_CALLBACK_SCHEDULE: 'slow' })).toThrow(/gateway or fast/);
    });
  });

  describe('§1 the chargeback scenario: days later, as the gateway does to an order', () => {
    const DAY = 86_400_000;
    it('charges the order back after its delay in the merchant’s time; notify_url hears type=chargeback', async () => {
      const s = await sale(
        { notify_url: `${handler.base}/notify` },
        { 'x-sandbox-scenario': `chargeback;delay-ms=${3 * DAY}` },
      );
      await advance(1000);
      expect(hitsOf(s.id).map((h) => h.query.get('type'))).toEqual(['sale', 'sale']);
      await advance(3 * DAY - 1);
      expect(await sb.acme.status(s.id, s.co)).toMatchObject({ 'transaction-type': 'sale' });
      await advance(1);
      const back = hitsOf(s.id).at(-1)!;
      expect([back.path, back.query.get('type'), back.query.get('status'), back.controlOk]).toEqual([
        '/notify',
        'chargeback',
        'approved',
        true,
      ]);
      expect(back.query.get('amount')).toBe('10.42');
      expect(await sb.acme.status(s.id, s.co)).toMatchObject({
        status: 'approved',
        'transaction-type': 'chargeback',
      });
      // The money went back to the cardholder: a return finds nothing left.
      const r = await sb.acme.call('v2/return', { login: 'acme', client_orderid: s.co, orderid: s.id });
      expect(r.body['error-message']).toMatch(/nothing left to return/);
      expect((await deliveries(s.id)).at(-1)).toMatchObject({ urlField: 'notify_url' });
      expect((await deliveries(s.id)).at(-1)!.urlWhy).toMatch(/later transaction \(chargeback\)/);
    });

    it('the merchant’s choice charges back 7 days later by default; a refunded part is not charged back', async () => {
      await choose([{ name: 'chargeback' }]);
      try {
        const s = await sale({ notify_url: `${handler.base}/notify` });
        await advance(1000);
        const part = await sb.acme.call('v2/return', {
          login: 'acme',
          client_orderid: s.co,
          orderid: s.id,
          amount: '2.42',
          currency: 'USD',
        });
        expect(part.status, part.raw).toBe(200);
        await advance(1000);
        await advance(7 * DAY - 2000);
        expect(hitsOf(s.id).map((h) => h.query.get('type'))).toEqual(['sale', 'sale', 'reversal']);
        await advance(2000);
        const back = hitsOf(s.id).at(-1)!;
        expect([back.query.get('type'), back.query.get('amount')]).toEqual(['chargeback', '8.00']);
      } finally {
        await choose([]);
      }
    });

    it('a declined sale is not charged back', async () => {
      const s = await sale(
        { cvv2: '116', notify_url: `${handler.base}/notify` },
        { 'x-sandbox-scenario': 'chargeback' },
      );
      await advance(8 * DAY);
      expect(hitsOf(s.id).map((h) => h.query.get('status'))).toEqual(['declined', 'declined']);
    });

    it('refuses a delay longer than a year, and other scenarios keep their ten minutes', async () => {
      const long = await sb.acme.call('v2/sale', saleParams(), {
        headers: { 'x-sandbox-scenario': `chargeback;delay-ms=${367 * DAY}` },
      });
      expect(long.body['error-reason']).toBe('SCENARIO_INVALID');
      const latency = await sb.acme.call('v2/sale', saleParams(), {
        headers: { 'x-sandbox-scenario': 'latency;delay-ms=600001' },
      });
      expect(latency.body['error-reason']).toBe('SCENARIO_INVALID');
    });
  });
});
