import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BASE_PATH,
  CARD,
  Client,
  customer,
  formBody,
  HOST,
  hostedFieldsToken,
  orderId,
  settle,
  startSandbox,
  type Sandbox,
} from '../support.ts';
import { TOKEN_TTL_MS } from '../../../sandbox/engine/hosted-fields-store.ts';

/**
 * v4/sale with hosted fields, from outside: the ticket call and the sale signed RSA-SHA256 by the
 * test's own client (the oauth-1.0a package, node:crypto's createSign), the card tokenized by the
 * sandbox's stand-in for the vendor's browser tokenizer.
 */
const saleParams = (token: string, over: Record<string, string> = {}) => ({
  client_orderid: orderId('hf'),
  ...customer(),
  amount: '12.30',
  currency: 'USD',
  hosted_fields_token: token,
  ...over,
});

describe('v4/sale with a hosted-fields token', () => {
  let sb: Sandbox;
  let gateway: Client;
  beforeAll(async () => {
    sb = await startSandbox();
    gateway = new Client(sb.app, sb.merchants.acme, sb.clock, 'gateway');
  });
  afterAll(async () => {
    await sb.app.close();
  });

  it('ticket → tokenize → sale: approved, paynet-order-id a number in JSON', async () => {
    const sale = await sb.acme.call('v4/sale', saleParams(await hostedFieldsToken(sb.acme)));
    expect(sale.status, sale.raw).toBe(200);
    expect(sale.body.type).toBe('async-response');
    expect(typeof sale.body['paynet-order-id']).toBe('number');
    expect(sale.raw).toMatch(/"paynet-order-id":\d+[,}]/);
    const status = await settle(sb, sb.acme, sale.body);
    expect(status).toMatchObject({ status: 'approved', bin: '444444', 'last-four-digits': '4448' });
  });

  it('the CVV of the tokenized card picks the outcome, as v2 sale', async () => {
    const token = await hostedFieldsToken(sb.acme, { ...CARD, cvv2: '116' });
    const sale = await sb.acme.call('v4/sale', saleParams(token));
    expect(sale.status, sale.raw).toBe(200);
    expect((await settle(sb, sb.acme, sale.body)).status).toBe('declined');
  });

  it('refuses a used token, naming hosted_fields_token, with a numeric error-code', async () => {
    const token = await hostedFieldsToken(sb.acme);
    const first = saleParams(token);
    expect((await sb.acme.call('v4/sale', first)).status).toBe(200);
    // The identical request again is a retry: the original answer.
    const retry = await sb.acme.call('v4/sale', first);
    expect(retry.status).toBe(200);
    expect(typeof retry.body['paynet-order-id']).toBe('number');
    const reuse = await sb.acme.call('v4/sale', saleParams(token));
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({
      type: 'validation-error',
      'error-code': 308,
      'error-reason': 'HOSTED_FIELDS_TOKEN',
    });
    expect(String(reuse.body['error-message'])).toContain('hosted_fields_token');
  });

  it('refuses an unknown, expired or another merchant’s token', async () => {
    expect((await sb.acme.call('v4/sale', saleParams('hft_nope'))).body['error-code']).toBe(308);
    const old = await hostedFieldsToken(sb.acme);
    sb.clock.advance(TOKEN_TTL_MS + 1000);
    expect((await sb.acme.call('v4/sale', saleParams(old))).body['error-reason']).toBe('HOSTED_FIELDS_TOKEN');
    const theirs = await hostedFieldsToken(sb.other);
    expect((await sb.acme.call('v4/sale', saleParams(theirs))).body['error-reason']).toBe(
      'HOSTED_FIELDS_TOKEN',
    );
  });

  it('answers in the default dialect without the JSON Accept (200 form-encoded, refusal too)', async () => {
    const token = await hostedFieldsToken(gateway);
    const sale = await gateway.call('v4/sale', saleParams(token));
    expect(sale.status).toBe(200);
    expect(sale.headers['content-type']).toBe('text/html;charset=utf-8');
    expect(sale.body).toMatchObject({ type: 'async-response' });
    expect(sale.body['paynet-order-id']).toMatch(/^\d+$/);
    const reuse = await gateway.call('v4/sale', saleParams(token));
    expect(reuse.status).toBe(200);
    expect(reuse.body).toMatchObject({ type: 'validation-error', 'error-code': '308' });
  });

  it('the tokenizer refuses an unknown ticket and a bad card, without echoing the number', async () => {
    const tokenize = (body: Record<string, string>) =>
      sb.app.inject({
        method: 'POST',
        url: `${BASE_PATH}/hosted-fields/tokenize`,
        headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
        payload: formBody(body),
      });
    const unknown = await tokenize({ ticket: 'eph_nope', ...CARD, cvv2: '123' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ 'error-reason': 'HOSTED_FIELDS_TOKEN' });
    const ticket = await sb.acme.call('v4/tokenize/create-ephemeral-ticket', {
      login: sb.merchants.acme.login,
    });
    expect(ticket.body.type).toBe('ephemeral-ticket-response');
    const bad = await tokenize({
      ticket: String(ticket.body.ephemeralTicket),
      ...CARD,
      credit_card_number: '4444444444444449',
      cvv2: '123',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toContain('4444444444444449');
    expect((await tokenize({})).statusCode).toBe(400);
  });
});
