/**
 * Issue 20, what the field's clients send that the sandbox refused: a two-digit `expire_year`
 * (the vendor's v2 SDK allows only 1–2 digits, so the gateway reads 20YY), and a card destination
 * on v4/payout (the vendor's cc-payout example). gateway-notes.md, "The gateway's default dialect".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browse,
  CARD,
  fakeClock,
  formParams,
  orderId,
  saleParams,
  settle,
  sha1,
  startSandbox,
  type Sandbox,
} from './support.ts';

const AT = Date.UTC(2026, 10, 24, 12); // 24 November 2026

describe('two-digit expiry years', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({}, fakeClock(AT));
  });
  afterAll(async () => {
    await sb.app.close();
  });

  it('approves a sale with expire_year 30 (2030), and a rebill of its card', async () => {
    const ack = await sb.acme.call('v2/sale', saleParams({ expire_year: '30' }));
    expect(ack.status, ack.raw).toBe(200);
    const final = await settle(sb, sb.acme, ack.body);
    expect(final.status).toBe('approved');
    const ref = await sb.acme.call('v2/create-card-ref', {
      login: 'acme',
      client_orderid: String(ack.body['merchant-order-id']),
      orderid: String(ack.body['paynet-order-id']),
    });
    expect(ref.status, ref.raw).toBe(200);
    const rebill = await sb.acme.call('v2/make-rebill', {
      login: 'acme',
      client_orderid: orderId('rb'),
      order_desc: 'Rebill',
      amount: '1.00',
      currency: 'USD',
      ipaddress: '203.0.113.7',
      cardrefid: String(ref.body['card-ref-id']),
    });
    expect(rebill.status, rebill.raw).toBe(200);
    expect((await settle(sb, sb.acme, rebill.body)).status).toBe('approved');
  });

  it('refuses a past two-digit year with the full year in the sentence', async () => {
    const past = await sb.acme.call('v2/sale', saleParams({ expire_year: '25' }));
    expect(past.status).toBe(400);
    expect(past.body['error-message']).toContain('expire_year 25 (2025) is in the past');
    const month = await sb.acme.call('v2/sale', saleParams({ expire_month: '10', expire_year: '26' }));
    expect(month.status).toBe(400);
    expect(month.body['error-message']).toContain('The card expired in 10/2026');
    expect(month.body['error-message']).not.toContain('10/26:');
  });

  it('takes a two-digit year on the hosted payment page too', async () => {
    const form = await sb.acme.call('v2/sale-form', formParams());
    const page = await browse(sb.app, String(form.body['redirect-url']), {
      ...CARD,
      expire_year: '31',
      cvv2: '123',
    });
    expect(page.status, page.body.slice(0, 300)).toBe(200);
    expect(page.posted?.fields.get('status')).toBe('approved');
  });
});

describe('v4/payout to a card', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({}, fakeClock(AT));
  });
  afterAll(async () => {
    await sb.app.close();
  });

  const base = () => ({
    'client-order-id': orderId('cc'),
    amount: '7.50',
    currency: 'USD',
    order_desc: 'Card payout',
  });
  const card = {
    credit_card_number: '4444444444444448',
    expire_month: '12',
    expire_year: '30',
    card_printed_name: 'JOHN SMITH',
  };

  it("accepts a card destination as the vendor's cc-payout example sends it", async () => {
    const r = await sb.acme.call('v4/payout', { ...base(), ...card });
    expect(r.status, r.raw).toBe(200);
    expect(r.body['payout-id']).toMatch(/^\d+$/);
    const final = await settle(sb, sb.acme, { ...r.body, 'merchant-order-id': r.body['merchant-order-id'] });
    expect(final).toMatchObject({ status: 'approved', 'last-four-digits': '4448' });
  });

  it('still accepts the bank destination of the description', async () => {
    const r = await sb.acme.call('v4/payout', {
      ...base(),
      account_number: 'DE89370400440532013000',
      bank_name: 'Bank',
    });
    expect(r.status, r.raw).toBe(200);
  });

  it('says what to send when neither, both, or half of one is there', async () => {
    const choices =
      'send one whole destination, a bank account (account_number, bank_name) or a card (credit_card_number, expire_month, expire_year, card_printed_name).';
    const none = await sb.acme.call('v4/payout', base());
    expect(none.status).toBe(400);
    expect(none.body['error-message']).toBe(`No destination: ${choices}`);
    const both = await sb.acme.call('v4/payout', {
      ...base(),
      ...card,
      account_number: 'DE89',
      bank_name: 'B',
    });
    expect(both.status).toBe(400);
    expect(both.body['error-message']).toBe(`Two destinations: ${choices}`);
    const { expire_year: _y, card_printed_name: _n, ...half } = card;
    const partial = await sb.acme.call('v4/payout', { ...base(), ...half });
    expect(partial.status).toBe(400);
    expect(partial.body['error-message']).toBe(`expire_year, card_printed_name missing: ${choices}`);
    const bad = await sb.acme.call('v4/payout', {
      ...base(),
      ...card,
      credit_card_number: '4444444444444447',
    });
    expect(bad.status).toBe(400);
    expect(bad.body['error-message']).toContain('Luhn');
  });
});

describe('a full capture signed over the order amount it does not send (the vendor SDK)', () => {
  const preauthed = async (sb: Sandbox) => {
    const ack = await sb.acme.call('v2/preauth', saleParams({ amount: '25.00', currency: 'EUR' }));
    expect((await settle(sb, sb.acme, ack.body)).status).toBe('approved');
    return {
      client_orderid: String(ack.body['merchant-order-id']),
      orderid: String(ack.body['paynet-order-id']),
    };
  };
  // control = sha1(login + client_orderid + orderid + amount in minor units + currency + key), here by node:crypto.
  const sdkControl = (sb: Sandbox, ids: { client_orderid: string; orderid: string }) =>
    sha1(`acme${ids.client_orderid}${ids.orderid}2500EUR${sb.merchants.acme.controlKey}`);

  it('accepts it by default, and still accepts the description’s reading over the sent values', async () => {
    const sb = await startSandbox({}, fakeClock(AT));
    try {
      const ids = await preauthed(sb);
      const refused = await sb.acme.call(
        'v2/capture',
        { login: 'acme', ...ids },
        { control: '1'.repeat(40) },
      );
      expect(refused.body['error-reason']).toBe('INVALID_CONTROL_CODE');
      const wrongAmount = sha1(
        `acme${ids.client_orderid}${ids.orderid}2400EUR${sb.merchants.acme.controlKey}`,
      );
      expect(
        (await sb.acme.call('v2/capture', { login: 'acme', ...ids }, { control: wrongAmount })).status,
      ).toBe(400);
      const capture = await sb.acme.call(
        'v2/capture',
        { login: 'acme', ...ids },
        { control: sdkControl(sb, ids) },
      );
      expect(capture.status, capture.raw).toBe(200);
      expect((await settle(sb, sb.acme, capture.body)).status).toBe('approved');

      const other = await preauthed(sb);
      const described = await sb.acme.call('v2/capture', { login: 'acme', ...other });
      expect(described.status, described.raw).toBe(200);
    } finally {
      await sb.app.close();
    }
  });

  it('holds to the sent values only with fullCaptureControl "sent" (SANDBOX_FULL_CAPTURE_CONTROL=sent)', async () => {
    const sb = await startSandbox({ fullCaptureControl: 'sent' }, fakeClock(AT));
    try {
      const ids = await preauthed(sb);
      const capture = await sb.acme.call(
        'v2/capture',
        { login: 'acme', ...ids },
        { control: sdkControl(sb, ids) },
      );
      expect(capture.status).toBe(400);
      expect(capture.body['error-reason']).toBe('INVALID_CONTROL_CODE');
    } finally {
      await sb.app.close();
    }
  });
});
