import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD,
  customer,
  fakeClock,
  orderId,
  payoutParams,
  saleParams,
  settle,
  startSandbox,
  type Sandbox,
} from './support.ts';

interface Order {
  id: string;
  co: string;
}

describe('sandbox state rules (api-description.md, States and transitions)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.app.close();
  });

  const login = 'acme';
  async function create(
    path: 'v2/sale' | 'v2/preauth',
    over: Record<string, string> = {},
    wait = true,
  ): Promise<Order> {
    const r = await sb.acme.call(path, saleParams(over));
    expect(r.status, r.raw).toBe(200);
    const o = { id: String(r.body['paynet-order-id']), co: String(r.body['merchant-order-id']) };
    if (wait) sb.clock.advance(1000);
    return o;
  }
  const on = (o: Order, extra: Record<string, string> = {}) => ({
    login,
    client_orderid: o.co,
    orderid: o.id,
    ...extra,
  });
  async function expectRefused(
    path: string,
    params: Record<string, string>,
    pattern: RegExp,
    code = 'STATE',
  ) {
    const r = await sb.acme.call(path, params);
    expect(r.status, r.raw).toBe(400);
    expect(r.body.type).toBe('validation-error');
    expect(r.body['error-reason']).toBe(code);
    expect(String(r.body['error-message'])).toMatch(pattern);
  }
  async function expectAccepted(path: string, params: Record<string, string>) {
    const r = await sb.acme.call(path, params);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.type).toBe('async-response');
    sb.clock.advance(1000);
    return r.body;
  }
  const status = (o: Order, extra: Record<string, string> = {}) => sb.acme.status(o.id, o.co, extra);

  describe('capture', () => {
    it('captures an approved preauth in full when amount and currency are omitted', async () => {
      const p = await create('v2/preauth', { amount: '30.00' });
      await expectAccepted('v2/capture', on(p));
      expect(await status(p)).toMatchObject({
        status: 'approved',
        amount: '30.00',
        'transaction-type': 'capture',
      });
      await expectRefused('v2/capture', on(p), /nothing left to capture/);
    });

    it('captures partially up to what remains', async () => {
      const p = await create('v2/preauth', { amount: '30.00' });
      await expectAccepted('v2/capture', on(p, { amount: '10.00', currency: 'USD' }));
      await expectRefused(
        'v2/capture',
        on(p, { amount: '20.01', currency: 'USD' }),
        /more than what is left to capture on order \d+ \(20\.00 USD\)/,
      );
      await expectAccepted('v2/capture', on(p, { amount: '20.00', currency: 'USD' }));
      await expectRefused(
        'v2/capture',
        on(p, { amount: '0.01', currency: 'USD' }),
        /nothing left to capture/,
      );
    });

    it('refuses amount without currency, another currency, a sale, a declined or processing preauth', async () => {
      const p = await create('v2/preauth');
      await expectRefused('v2/capture', on(p, { amount: '1.00' }), /both amount and currency/, 'VALIDATION');
      await expectRefused(
        'v2/capture',
        on(p, { amount: '1.00', currency: 'EUR' }),
        /currency EUR does not match/,
        'VALIDATION',
      );
      await expectRefused(
        'v2/capture',
        on(await create('v2/sale')),
        /only to an approved preauth; order \d+ is a sale/,
      );
      await expectRefused(
        'v2/capture',
        on(await create('v2/preauth', { cvv2: '116' })),
        /is declined: only an approved preauth/,
      );
      await expectRefused('v2/capture', on(await create('v2/preauth', {}, false)), /still processing/);
    });

    it('refuses a preauth of another merchant and a mismatched client_orderid', async () => {
      const r = await sb.other.call('v2/preauth', saleParams(), { endpoint: '3333' });
      sb.clock.advance(1000);
      const theirs = { id: String(r.body['paynet-order-id']), co: String(r.body['merchant-order-id']) };
      await expectRefused('v2/capture', on(theirs), /is not an order of merchant acme/, 'ORDER_NOT_FOUND');
      const mine = await create('v2/preauth');
      await expectRefused(
        'v2/capture',
        on(mine, { client_orderid: 'someone-else' }),
        /does not match order/,
        'ORDER_MISMATCH',
      );
    });
  });

  describe('void', () => {
    it('voids an approved preauth that was not captured', async () => {
      const p = await create('v2/preauth');
      await expectAccepted('v2/void', on(p));
      expect(await status(p)).toMatchObject({ status: 'approved', 'transaction-type': 'void' });
      await expectRefused('v2/void', on(p), /already voided/);
      await expectRefused('v2/capture', on(p), /was voided/);
      await expectRefused('v2/return', on(p), /was voided/);
    });

    it('refuses an amount, a sale, a captured preauth and a declined preauth', async () => {
      const p = await create('v2/preauth');
      await expectRefused(
        'v2/void',
        on(p, { amount: '1.00', currency: 'USD' }),
        /void has no amount/,
        'VALIDATION',
      );
      await expectRefused('v2/void', on(await create('v2/sale')), /settled at once: use return/);
      await expectAccepted('v2/capture', on(p, { amount: '1.00', currency: 'USD' }));
      await expectRefused('v2/void', on(p), /has been captured \(settled\): use return/);
      await expectRefused('v2/void', on(await create('v2/preauth', { cvv2: '209' })), /is declined/);
    });
  });

  describe('return', () => {
    it('refunds a sale partially up to what is left, then in full when amount is omitted', async () => {
      const s = await create('v2/sale', { amount: '10.00' });
      await expectAccepted('v2/return', on(s, { amount: '4.00', currency: 'USD' }));
      await expectRefused(
        'v2/return',
        on(s, { amount: '6.01', currency: 'USD' }),
        /more than what is left to refund on order \d+ \(6\.00 USD\)/,
      );
      await expectAccepted('v2/return', on(s));
      expect(await status(s)).toMatchObject({
        status: 'approved',
        amount: '6.00',
        'transaction-type': 'reversal',
      });
      await expectRefused('v2/return', on(s), /nothing left to return \(refunded in full\)/);
    });

    it('cancels (releases) the hold of a preauth, which then limits what can be captured', async () => {
      const p = await create('v2/preauth', { amount: '30.00' });
      await expectAccepted('v2/return', on(p, { amount: '10.00', currency: 'USD' }));
      await expectRefused(
        'v2/capture',
        on(p, { amount: '20.01', currency: 'USD' }),
        /more than what is left to capture/,
      );
      await expectAccepted('v2/return', on(p));
      await expectRefused('v2/capture', on(p), /nothing left to capture/);
      await expectRefused('v2/void', on(p), /released in full/);
    });

    it('refunds the captured part of a preauth', async () => {
      const p = await create('v2/preauth', { amount: '30.00' });
      await expectAccepted('v2/capture', on(p, { amount: '12.00', currency: 'USD' }));
      await expectRefused(
        'v2/return',
        on(p, { amount: '12.01', currency: 'USD' }),
        /left to refund on order \d+ \(12\.00 USD\)/,
      );
      await expectAccepted('v2/return', on(p, { amount: '12.00', currency: 'USD' }));
    });

    it('refuses a declined, unknown or processing transaction and an account verification', async () => {
      await expectRefused(
        'v2/return',
        on(await create('v2/sale', { cvv2: '101' })),
        /final successful status; order \d+ is declined/,
      );
      await expectRefused('v2/return', on(await create('v2/sale', { cvv2: '217' })), /order \d+ is unknown/);
      await expectRefused('v2/return', on(await create('v2/sale', {}, false)), /still processing/);
      const av = await sb.acme.call('v2/account-verification', {
        client_orderid: orderId(),
        ...customer(),
        ...CARD,
        cvv2: '123',
      });
      sb.clock.advance(1000);
      await expectRefused(
        'v2/return',
        on({ id: String(av.body['paynet-order-id']), co: String(av.body['merchant-order-id']) }),
        /moved no money/,
      );
    });
  });

  describe('payout-check and payout-pay', () => {
    it('pays a registered payout once, only after an approved check', async () => {
      const check = await sb.acme.call('v4/payout-check', payoutParams());
      const c = { id: String(check.body['paynet-order-id']), co: String(check.body['merchant-order-id']) };
      const pay = { client_orderid: c.co, orderid: c.id };
      await expectRefused('v4/payout-pay', pay, /still processing/);
      sb.clock.advance(1000);
      expect(await status(c)).toMatchObject({
        status: 'approved',
        'transaction-type': 'payout-check',
        amount: '50.00',
      });
      const r = await sb.acme.call('v4/payout-pay', pay);
      expect(r.status).toBe(200);
      expect(await status(c)).toMatchObject({ status: 'processing', 'transaction-type': 'payout-pay' });
      sb.clock.advance(1000);
      expect(await status(c)).toMatchObject({
        status: 'approved',
        'transaction-type': 'payout-pay',
        amount: '50.00',
      });
      await expectRefused('v4/payout-pay', pay, /already executed/);
    });

    it('refuses to pay an order that is not a payout check', async () => {
      const s = await create('v2/sale');
      await expectRefused(
        'v4/payout-pay',
        { client_orderid: s.co, orderid: s.id },
        /registered by payout-check; order \d+ is a sale/,
      );
      const direct = await sb.acme.call('v2/payout', payoutParams());
      await expectRefused(
        'v4/payout-pay',
        {
          client_orderid: String(direct.body['merchant-order-id']),
          orderid: String(direct.body['paynet-order-id']),
        },
        /is a payout/,
      );
    });

    it('refuses a payout without a destination', async () => {
      const p = payoutParams();
      delete p.account_number;
      delete p.bank_name;
      await expectRefused('v4/payout-check', p, /needs a destination/, 'VALIDATION');
      const r = await sb.acme.call('v4/payout-check', { ...p, receiver_phone: '+15550100' });
      expect(r.status).toBe(200);
    });
  });

  describe('card references', () => {
    it('creates a card reference from a completed sale (the same one again on repeat) and reads it', async () => {
      const s = await create('v2/sale', {
        credit_card_number: '5555555555554444',
        card_printed_name: 'JANE DOE',
      });
      const r1 = await sb.acme.call('v2/create-card-ref', on(s));
      const r2 = await sb.acme.call('v2/create-card-ref', on(s));
      expect(r1.body['card-ref-id']).toBe(r2.body['card-ref-id']);
      expect((await status(s))['card-ref-id']).toBe(r1.body['card-ref-id']);
      const info = await sb.acme.call('v2/get-card-info', {
        login,
        cardrefid: String(r1.body['card-ref-id']),
      });
      expect(info.body).toMatchObject({
        bin: '555555',
        'last-four-digits': '4444',
        'card-brand': 'Mastercard',
        'masked-card-number': '555555******4444',
        'card-printed-name': 'JANE DOE',
      });
      expect(info.raw).not.toContain('5555555555554444');
    });

    it('refuses a declined or processing sale, a payout, and a card reference of another merchant', async () => {
      await expectRefused(
        'v2/create-card-ref',
        on(await create('v2/sale', { cvv2: '116' })),
        /completed \(approved\) sale or preauth; order \d+ is declined/,
      );
      await expectRefused('v2/create-card-ref', on(await create('v2/sale', {}, false)), /is processing/);
      const payout = await sb.acme.call('v2/payout', payoutParams());
      await expectRefused(
        'v2/create-card-ref',
        {
          login,
          client_orderid: String(payout.body['merchant-order-id']),
          orderid: String(payout.body['paynet-order-id']),
        },
        /is a payout/,
      );
      const theirSale = await sb.other.call('v2/sale', saleParams(), { endpoint: '3333' });
      sb.clock.advance(1000);
      const theirRef = await sb.other.call(
        'v2/create-card-ref',
        {
          login: 'other-shop',
          client_orderid: String(theirSale.body['merchant-order-id']),
          orderid: String(theirSale.body['paynet-order-id']),
        },
        { endpoint: '3333' },
      );
      expect(theirRef.status, theirRef.raw).toBe(200);
      await expectRefused(
        'v2/get-card-info',
        { login, cardrefid: String(theirRef.body['card-ref-id']) },
        /not a card reference of merchant acme/,
        'CARD_REF_NOT_FOUND',
      );
      await expectRefused(
        'v2/make-rebill',
        {
          login,
          client_orderid: orderId(),
          order_desc: 'x',
          amount: '1.00',
          currency: 'USD',
          ipaddress: '203.0.113.7',
          cardrefid: '999999999',
        },
        /not a card reference/,
        'CARD_REF_NOT_FOUND',
      );
    });

    it('rebills a card reference; a declining CVV declines it', async () => {
      const s = await create('v2/sale');
      const ref = String((await sb.acme.call('v2/create-card-ref', on(s))).body['card-ref-id']);
      const rebill = (extra: Record<string, string> = {}) =>
        sb.acme.call('v2/make-rebill', {
          login,
          client_orderid: orderId('rb'),
          order_desc: 'Monthly',
          amount: '7.50',
          currency: 'USD',
          ipaddress: '203.0.113.7',
          cardrefid: ref,
          ...extra,
        });
      const ok = await rebill();
      expect(await settle(sb, sb.acme, ok.body)).toMatchObject({
        status: 'approved',
        amount: '7.50',
        'transaction-type': 'rebill',
        'card-ref-id': ref,
        'last-four-digits': '4448',
      });
      const declined = await rebill({ cvv2: '116' });
      expect(await settle(sb, sb.acme, declined.body)).toMatchObject({
        status: 'declined',
        'error-reason': 'INSUFFICIENT_FUNDS',
      });
    });
  });

  describe('repeated client_orderid', () => {
    it('answers an identical retry with the original acknowledgement and refuses different parameters', async () => {
      const params = saleParams();
      const first = await sb.acme.call('v2/sale', params);
      const retry = await sb.acme.call('v2/sale', params);
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
      const changed = await sb.acme.call('v2/sale', { ...params, amount: '11.00' });
      expect(changed.status).toBe(400);
      expect(changed.body['error-reason']).toBe('CLIENT_ORDERID_USED');
      expect(changed.body['error-message']).toMatch(/client_orderid ".+" already used/);
      // Another operation, or another endpoint, may use the same merchant order id.
      expect((await sb.acme.call('v2/preauth', params)).status).toBe(200);
      expect((await sb.acme.call('v2/sale', params, { group: '2222' })).status).toBe(200);
    });

    it('treats an OAuth retry the same way (a fresh nonce each time)', async () => {
      const params = payoutParams();
      const a = await sb.acme.call('v4/payout-check', params);
      const b = await sb.acme.call('v4/payout-check', params);
      expect(b.body).toEqual(a.body);
      expect(
        (await sb.acme.call('v4/payout-check', { ...params, amount: '1.00' })).body['error-reason'],
      ).toBe('CLIENT_ORDERID_USED');
    });
  });

  describe('status', () => {
    it('answers a request of the order by serial number, and refuses unknown ones', async () => {
      const p = await create('v2/preauth', { amount: '20.00' });
      const capture = await sb.acme.call('v2/capture', on(p, { amount: '5.00', currency: 'USD' }));
      sb.clock.advance(1000);
      const preauthSn = String(
        (await status(p, { 'by-request-sn': String(capture.body['serial-number']) }))['serial-number'],
      );
      expect(preauthSn).toBe(capture.body['serial-number']);
      const first = await sb.acme.call('v2/status', {
        login,
        client_orderid: p.co,
        orderid: p.id,
        'by-request-sn': 'nope',
      });
      expect(first.body['error-reason']).toBe('ORDER_NOT_FOUND');
      await expectRefused(
        'v2/status',
        { login, client_orderid: 'never-used' },
        /No order of merchant acme/,
        'ORDER_NOT_FOUND',
      );
    });
  });

  describe('CVV outcomes (gateway-notes.md, Sandbox behaviour)', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['123', { status: 'approved' }],
      ['1234', { status: 'approved' }],
      ['111', { status: 'approved' }],
      ['101', { status: 'declined', 'error-reason': 'EXPIRED_CARD' }],
      ['116', { status: 'declined', 'error-reason': 'INSUFFICIENT_FUNDS' }],
      ['119', { status: 'declined', 'error-reason': 'NOT_PERMITTED' }],
      ['209', { status: 'declined', 'error-reason': 'STOLEN_CARD' }],
      ['999', { status: 'declined', 'error-reason': 'DECLINED' }],
      ['217', { status: 'unknown' }],
    ];
    for (const [cvv, expected] of cases) {
      it(`CVV ${cvv} → ${String(expected.status)}`, async () => {
        const r = await sb.acme.call('v2/sale', saleParams({ cvv2: cvv }));
        expect(
          (await sb.acme.status(String(r.body['paynet-order-id']), String(r.body['merchant-order-id'])))
            .status,
        ).toBe('processing');
        const final = await settle(sb, sb.acme, r.body);
        expect(final).toMatchObject(expected);
        if (expected.status === 'approved') {
          expect(final['approval-code']).toMatch(/^\d{6}$/);
          expect(final['processor-rrn']).toMatch(/^\d{12}$/);
        } else expect(final['approval-code']).toBeUndefined();
        if (cvv === '217') expect((await settle(sb, sb.acme, r.body, 600_000)).status).toBe('unknown');
      });
    }
    it('a 321 sale stays processing and waits for 3-D Secure', async () => {
      const r = await sb.acme.call('v2/sale', saleParams({ cvv2: '321' }));
      const s = await settle(sb, sb.acme, r.body, 60_000);
      expect(s).toMatchObject({ status: 'processing', 'threeds-version': '1.0.2' });
      expect(String(s['redirect-to'])).toMatch(
        /^http:\/\/127\.0\.0\.1:4174\/sandbox\/paynet\/3ds\/acs\/[A-Za-z0-9]{32}$/,
      );
    });
  });

  describe('validation by the catalog', () => {
    const refusedField = async (over: Record<string, string>, field: string, drop?: string) => {
      const params = saleParams(over);
      if (drop) delete params[drop];
      const r = await sb.acme.call('v2/sale', params);
      expect(r.status, `${JSON.stringify(over)}: ${r.raw}`).toBe(400);
      expect(r.body.type).toBe('validation-error');
      expect(r.body['error-message']).toContain(field);
    };
    it('names the field that is missing, too long or malformed', async () => {
      await refusedField({}, 'client_orderid', 'client_orderid');
      await refusedField({}, 'email', 'email');
      await refusedField({ client_orderid: 'x'.repeat(129) }, 'client_orderid');
      await refusedField({ amount: '10,42' }, 'amount');
      await refusedField({ amount: '10.425' }, 'amount');
      await refusedField({ amount: '0.00' }, 'amount');
      await refusedField({ currency: 'usd' }, 'currency');
      await refusedField({ credit_card_number: '4444444444444441' }, 'credit_card_number');
      await refusedField({ expire_month: '13' }, 'expire_month');
      await refusedField({ expire_year: '2001' }, 'expire_year');
      await refusedField({ cvv2: '12' }, 'cvv2');
      await refusedField({ country: 'USA' }, 'country');
      await refusedField({ email: 'not-an-email' }, 'email');
      await refusedField({ redirect_url: 'http://[not-a-host' }, 'redirect_url');
    });
    it('refuses an expiry earlier this year', async () => {
      // A pinned mid-year clock: with the wall clock, January had no earlier month to test.
      const june = await startSandbox({}, fakeClock(Date.UTC(2031, 5, 15, 12)));
      try {
        const r = await june.acme.call('v2/sale', saleParams({ expire_month: '05', expire_year: '2031' }));
        expect(r.status, r.raw).toBe(400);
        expect(r.body['error-message']).toContain('expire_month');
        const ok = await june.acme.call('v2/sale', saleParams({ expire_month: '06', expire_year: '2031' }));
        expect(ok.status, ok.raw).toBe(200);
      } finally {
        await june.app.close();
      }
    });
    it('refuses a non-loopback server_callback_url at request time', async () => {
      const r = await sb.acme.call('v2/sale', saleParams({ server_callback_url: 'http://example.com/cb' }));
      expect(r.status).toBe(400);
      expect(r.body['error-reason']).toBe('CALLBACK_URL_REFUSED');
      expect(r.body['error-message']).toContain('server_callback_url');
      expect(
        (await sb.acme.call('v2/sale', saleParams({ server_callback_url: 'http://localhost:9/cb' }))).status,
      ).toBe(200);
    });
    it('sends callbacks anywhere when allowed', async () => {
      const open = await startSandbox({ callbackAllowAnyHost: true });
      try {
        expect(
          (await open.acme.call('v2/sale', saleParams({ server_callback_url: 'http://example.com/cb' })))
            .status,
        ).toBe(200);
      } finally {
        await open.app.close();
      }
    });
  });
});
