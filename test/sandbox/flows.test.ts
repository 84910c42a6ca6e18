import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browse,
  CARD,
  customer,
  formParams,
  orderId,
  payoutParams,
  saleParams,
  settle,
  sha1,
  startSandbox,
  type Sandbox,
} from './support.ts';

const RETURN = 'http://127.0.0.1:9/shop/return?cart=7';
const BROWSER = {
  browserUserAgent: 'Mozilla/5.0',
  browserLanguage: 'en-US',
  browserColorDepth: '24',
  browserTZ: '-60',
};

function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

describe('sandbox flows', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.app.close();
  });
  const login = 'acme';
  const tds = (ack: Record<string, unknown>, extra: Record<string, string> = {}) => ({
    login,
    'client-order-id': String(ack['merchant-order-id']),
    orderid: String(ack['paynet-order-id']),
    ...extra,
  });
  const statusOf = (ack: Record<string, unknown>) =>
    sb.acme.status(String(ack['paynet-order-id']), String(ack['merchant-order-id']));

  it('sale approved and sale declined', async () => {
    const ok = await sb.acme.call('v2/sale', saleParams());
    expect(await statusOf(ok.body)).toMatchObject({ status: 'processing' });
    const final = await settle(sb, sb.acme, ok.body);
    expect(final).toMatchObject({
      type: 'status-response',
      status: 'approved',
      amount: '10.42',
      currency: 'USD',
      bin: '444444',
      'last-four-digits': '4448',
    });
    expect(final['serial-number']).toBe(ok.body['serial-number']);
    const no = await sb.acme.call('v2/sale', saleParams({ cvv2: '116' }));
    expect(await settle(sb, sb.acme, no.body)).toMatchObject({
      status: 'declined',
      'error-message': 'Declined: insufficient funds',
      'error-reason': 'INSUFFICIENT_FUNDS',
    });
  });

  describe('3-D Secure 1.0.2', () => {
    it('issuer page with the password "hint", PaRes back to redirect_url, upload, approved', async () => {
      const sale = await sb.acme.call('v2/sale', saleParams({ cvv2: '321', redirect_url: RETURN }));
      const st = await statusOf(sale.body);
      expect(st).toMatchObject({ status: 'processing', 'threeds-version': '1.0.2', 'threeds-stage': 'acs' });
      const page = await browse(sb.app, String(st['redirect-to']));
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('type="password"');
      expect(page.body).not.toMatch(/<script|<link|src=/i);
      const done = await browse(sb.app, String(st['redirect-to']), { password: 'hint' });
      expect(done.status).toBe(200);
      expect(done.posted!.action.origin + done.posted!.action.pathname).toBe(
        'http://127.0.0.1:9/shop/return',
      );
      expect(done.posted!.action.searchParams.get('cart')).toBe('7');
      expect(done.posted!.fields.get('MD')).toBe(sale.body['paynet-order-id']);
      const pares = done.posted!.fields.get('PaRes')!;
      expect(JSON.parse(Buffer.from(pares, 'base64').toString())).toMatchObject({
        messageType: 'PaRes',
        transStatus: 'Y',
      });
      // The page is used up; the status no longer points at it.
      expect((await browse(sb.app, String(st['redirect-to']))).status).toBe(409);
      expect((await statusOf(sale.body))['redirect-to']).toBeUndefined();
      const up = await sb.acme.call('3ds/v1/upload-pares-result', tds(sale.body, { paRes: pares }));
      expect(up.status, up.raw).toBe(200);
      expect((await statusOf(sale.body)).status).toBe('processing');
      expect(await settle(sb, sb.acme, sale.body)).toMatchObject({ status: 'approved' });
      const again = await sb.acme.call('3ds/v1/upload-pares-result', tds(sale.body, { paRes: pares }));
      expect(again.body['error-reason']).toBe('THREE_DS_ORDER');
      expect(again.body['error-message']).toMatch(/already complete/);
    });

    it('a wrong password declines; without redirect_url the page shows the PaRes', async () => {
      const sale = await sb.acme.call('v2/sale', saleParams({ cvv2: '321' }));
      const st = await statusOf(sale.body);
      const done = await browse(sb.app, String(st['redirect-to']), { password: 'guess' });
      expect(done.status).toBe(200);
      const pares = /<textarea readonly>([^<]+)<\/textarea>/.exec(done.body)![1]!;
      expect(JSON.parse(Buffer.from(pares, 'base64').toString()).transStatus).toBe('N');
      expect(
        (await sb.acme.call('3ds/v1/upload-pares-result', tds(sale.body, { paRes: pares }))).status,
      ).toBe(200);
      expect(await settle(sb, sb.acme, sale.body)).toMatchObject({
        status: 'declined',
        'error-reason': 'THREE_DS_FAILED',
      });
    });

    it('refuses uploads that do not fit the transaction', async () => {
      const sale = await sb.acme.call('v2/sale', saleParams({ cvv2: '321' }));
      const method = await sb.acme.call(
        '3ds/v1/upload-method-url-result',
        tds(sale.body, { threeDSCompInd: 'Y' }),
      );
      expect(method.body['error-message']).toMatch(/3-D Secure 1\.0\.2 transaction: it has no Method step/);
      const cres = await sb.acme.call(
        '3ds/v1/upload-cres-result',
        tds(sale.body, { cRes: b64json({ messageType: 'CRes', transStatus: 'Y' }) }),
      );
      expect(cres.body['error-message']).toMatch(/upload the PaRes with upload-pares-result, not a CRes/);
      const forged = await sb.acme.call(
        '3ds/v1/upload-pares-result',
        tds(sale.body, { paRes: b64json({ messageType: 'PaRes', xid: 'someone-else', transStatus: 'Y' }) }),
      );
      expect(forged.body['error-message']).toMatch(/belongs to another 3-D Secure transaction/);
      const garbage = await sb.acme.call(
        '3ds/v1/upload-pares-result',
        tds(sale.body, { paRes: 'bm90IGpzb24=' }),
      );
      expect(garbage.body['error-message']).toMatch(/paRes is not Base64 of a JSON object/);
      const plain = await sb.acme.call('v2/sale', saleParams());
      const onPlain = await sb.acme.call('3ds/v1/upload-pares-result', tds(plain.body, { paRes: 'e30=' }));
      expect(onPlain.status).toBe(400);
      expect(onPlain.body['error-message']).toMatch(/is not a 3-D Secure transaction/);
    });
  });

  describe('3-D Secure 2', () => {
    it('method step, method result, challenge, CRes, approved', async () => {
      const sale = await sb.acme.call(
        'v2/sale',
        saleParams({ cvv2: '321', redirect_url: RETURN, ...BROWSER }),
      );
      const st = await statusOf(sale.body);
      expect(st).toMatchObject({ status: 'processing', 'threeds-version': '2', 'threeds-stage': 'method' });
      expect(st['redirect-to']).toBeUndefined();
      const transId = String(st['threeds-server-trans-id']);
      expect((await browse(sb.app, String(st['threeds-method-url']))).status).toBe(200);

      // Out of order: CRes before the method result, PaRes on a 3DS 2 transaction, the challenge page too early.
      const early = await sb.acme.call(
        '3ds/v1/upload-cres-result',
        tds(sale.body, {
          cRes: b64json({ messageType: 'CRes', threeDSServerTransID: transId, transStatus: 'Y' }),
        }),
      );
      expect(early.status).toBe(400);
      expect(early.body['error-message']).toMatch(
        /Upload the 3DS Method result .* before the challenge result/,
      );
      const pares = await sb.acme.call('3ds/v1/upload-pares-result', tds(sale.body, { paRes: 'e30=' }));
      expect(pares.body['error-message']).toMatch(
        /3-D Secure 2 transaction: upload upload-method-url-result, then upload-cres-result/,
      );

      sb.clock.advance(3_000);
      const method = await sb.acme.call(
        '3ds/v1/upload-method-url-result',
        tds(sale.body, { threeDSCompInd: 'Y', threeDSServerTransID: transId, ...BROWSER }),
      );
      expect(method.status, method.raw).toBe(200);
      expect(method.body['threeds-comp-ind']).toBe('Y');
      const twice = await sb.acme.call(
        '3ds/v1/upload-method-url-result',
        tds(sale.body, { threeDSCompInd: 'Y' }),
      );
      expect(twice.body['error-message']).toMatch(/already uploaded/);

      const st2 = await statusOf(sale.body);
      expect(st2).toMatchObject({ 'threeds-stage': 'challenge', 'threeds-comp-ind': 'Y' });
      const challenge = await browse(sb.app, String(st2['redirect-to']), { password: 'hint' });
      expect(challenge.status).toBe(200);
      expect(challenge.posted!.fields.get('threeDSServerTransID')).toBe(transId);
      const cres = challenge.posted!.fields.get('cres')!;
      expect(JSON.parse(Buffer.from(cres, 'base64').toString())).toMatchObject({
        messageType: 'CRes',
        transStatus: 'Y',
        threeDSServerTransID: transId,
      });

      const wrongType = await sb.acme.call(
        '3ds/v1/upload-cres-result',
        tds(sale.body, {
          cRes: b64json({ messageType: 'PaRes', threeDSServerTransID: transId, transStatus: 'Y' }),
        }),
      );
      expect(wrongType.body['error-message']).toMatch(/messageType "PaRes"; expected "CRes"/);
      const badStatus = await sb.acme.call(
        '3ds/v1/upload-cres-result',
        tds(sale.body, {
          cRes: b64json({ messageType: 'CRes', threeDSServerTransID: transId, transStatus: 'X' }),
        }),
      );
      expect(badStatus.body['error-message']).toMatch(/transStatus must be Y/);

      expect((await sb.acme.call('3ds/v1/upload-cres-result', tds(sale.body, { cRes: cres }))).status).toBe(
        200,
      );
      expect(await settle(sb, sb.acme, sale.body)).toMatchObject({
        status: 'approved',
        'threeds-version': '2',
      });
    });

    it('records N when the method result comes after the 10-second window', async () => {
      const sale = await sb.acme.call(
        'v2/sale',
        saleParams({ cvv2: '321', threeds_version: '2', redirect_url: RETURN }),
      );
      sb.clock.advance(10_001);
      const method = await sb.acme.call(
        '3ds/v1/upload-method-url-result',
        tds(sale.body, { threeDSCompInd: 'Y' }),
      );
      expect(method.body['threeds-comp-ind']).toBe('N');
      // Why N, beside the gateway's answer (which stays as it is).
      expect(method.headers['x-sandbox-note']).toBe(
        'threeDSCompInd recorded as N, not Y: the Method result came 10.001 s after the 3-D Secure Method started, past its 10-second window (api-description.md, Limits).',
      );
      expect((await statusOf(sale.body))['threeds-comp-ind']).toBe('N');
      const st = await statusOf(sale.body);
      const challenge = await browse(sb.app, String(st['redirect-to']), { password: 'wrong' });
      const cres = challenge.posted!.fields.get('cres')!;
      expect((await sb.acme.call('3ds/v1/upload-cres-result', tds(sale.body, { cRes: cres }))).status).toBe(
        200,
      );
      expect(await settle(sb, sb.acme, sale.body)).toMatchObject({
        status: 'declined',
        'error-reason': 'THREE_DS_FAILED',
      });
    });

    it('keeps Y inside the window and U when no method URL was used', async () => {
      const inside = await sb.acme.call('v2/sale', saleParams({ cvv2: '321', ...BROWSER }));
      sb.clock.advance(10_000);
      const inTime = await sb.acme.call(
        '3ds/v1/upload-method-url-result',
        tds(inside.body, { threeDSCompInd: 'Y' }),
      );
      expect(inTime.body['threeds-comp-ind']).toBe('Y');
      expect(inTime.headers['x-sandbox-note']).toBeUndefined();
      const u = await sb.acme.call('v2/sale', saleParams({ cvv2: '321', ...BROWSER }));
      sb.clock.advance(60_000);
      expect(
        (await sb.acme.call('3ds/v1/upload-method-url-result', tds(u.body, { threeDSCompInd: 'U' }))).body[
          'threeds-comp-ind'
        ],
      ).toBe('U');
    });
  });

  it('preauth → partial capture → return', async () => {
    const pre = await sb.acme.call('v2/preauth', saleParams({ amount: '100.00', currency: 'EUR' }));
    const o = {
      login,
      client_orderid: String(pre.body['merchant-order-id']),
      orderid: String(pre.body['paynet-order-id']),
    };
    expect(await settle(sb, sb.acme, pre.body)).toMatchObject({
      status: 'approved',
      amount: '100.00',
      'transaction-type': 'preauth',
    });
    const cap = await sb.acme.call('v2/capture', { ...o, amount: '60.00', currency: 'EUR' });
    expect(cap.body['paynet-order-id']).toBe(pre.body['paynet-order-id']);
    expect(cap.body['serial-number']).not.toBe(pre.body['serial-number']);
    expect(await settle(sb, sb.acme, pre.body)).toMatchObject({
      status: 'approved',
      amount: '60.00',
      'transaction-type': 'capture',
    });
    await sb.acme.call('v2/return', { ...o, amount: '25.00', currency: 'EUR' });
    expect(await settle(sb, sb.acme, pre.body)).toMatchObject({
      status: 'approved',
      amount: '25.00',
      'transaction-type': 'reversal',
    });
    await sb.acme.call('v2/return', o);
    expect(await settle(sb, sb.acme, pre.body)).toMatchObject({
      amount: '35.00',
      'transaction-type': 'reversal',
    });
    const preauthRequest = await sb.acme.status(o.orderid, o.client_orderid, {
      'by-request-sn': String(pre.body['serial-number']),
    });
    expect(preauthRequest).toMatchObject({ amount: '100.00', 'transaction-type': 'preauth' });
  });

  it('preauth → void', async () => {
    const pre = await sb.acme.call('v2/preauth', saleParams());
    await settle(sb, sb.acme, pre.body);
    const o = {
      login,
      client_orderid: String(pre.body['merchant-order-id']),
      orderid: String(pre.body['paynet-order-id']),
    };
    expect((await sb.acme.call('v2/void', o)).status).toBe(200);
    expect(await settle(sb, sb.acme, pre.body)).toMatchObject({
      status: 'approved',
      'transaction-type': 'void',
    });
  });

  it('card reference → rebill', async () => {
    const sale = await sb.acme.call(
      'v2/sale',
      saleParams({ credit_card_number: '378282246310005', cvv2: '1234' }),
    );
    await settle(sb, sb.acme, sale.body);
    const ref = await sb.acme.call('v4/create-card-ref', {
      client_orderid: String(sale.body['merchant-order-id']),
      orderid: String(sale.body['paynet-order-id']),
    });
    const cardrefid = String(ref.body['card-ref-id']);
    const info = await sb.acme.call('v2/get-card-info', { login, cardrefid });
    expect(info.body).toMatchObject({
      'card-brand': 'American Express',
      'masked-card-number': '378282*****0005',
    });
    const rebill = await sb.acme.call('v2/make-rebill', {
      login,
      client_orderid: orderId('rb'),
      order_desc: 'Renewal',
      amount: '19.99',
      currency: 'USD',
      ipaddress: '203.0.113.7',
      cardrefid,
    });
    expect(await settle(sb, sb.acme, rebill.body)).toMatchObject({
      status: 'approved',
      amount: '19.99',
      bin: '378282',
      'last-four-digits': '0005',
    });
  });

  it('payout-check → payout-pay', async () => {
    const check = await sb.acme.call('v4/payout-check', payoutParams({ amount: '75.00' }));
    expect(await settle(sb, sb.acme, check.body)).toMatchObject({
      status: 'approved',
      'transaction-type': 'payout-check',
    });
    const pay = await sb.acme.call('v4/payout-pay', {
      client_orderid: String(check.body['merchant-order-id']),
      orderid: String(check.body['paynet-order-id']),
    });
    expect(pay.status).toBe(200);
    expect(await settle(sb, sb.acme, check.body)).toMatchObject({
      status: 'approved',
      'transaction-type': 'payout-pay',
      amount: '75.00',
    });
  });

  describe('hosted forms', () => {
    it('sale-form: the page collects the card and sends the customer back with a signed outcome', async () => {
      const params = formParams({ redirect_url: RETURN });
      const ack = await sb.acme.call('v2/sale-form', params);
      expect(ack.body.type).toBe('async-form-response');
      const url = String(ack.body['redirect-url']);
      const page = await browse(sb.app, url);
      expect(page.status).toBe(200);
      expect(page.body).toContain('Pay 25.00 EUR');
      expect(page.body).not.toMatch(/<script|<link|src=|https?:\/\/(?!127)/i);
      expect(await statusOf(ack.body)).toMatchObject({ status: 'processing' });

      const bad = await browse(sb.app, url, { ...CARD, credit_card_number: '4444444444444441', cvv2: '123' });
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('credit_card_number fails the Luhn check');
      expect(bad.body).not.toContain('4444444444444441');
      expect(bad.body).toContain('value="JOHN SMITH"');

      const done = await browse(sb.app, url, { ...CARD, cvv2: '123' });
      expect(done.status).toBe(200);
      const q = done.posted!.fields;
      expect(q.get('status')).toBe('approved');
      expect(q.get('orderid')).toBe(ack.body['paynet-order-id']);
      expect(q.get('merchant_order')).toBe(params.client_orderid);
      expect(q.get('client_orderid')).toBe(params.client_orderid);
      expect(done.posted!.action.searchParams.get('cart')).toBe('7');
      expect(q.get('control')).toBe(
        sha1(`approved${q.get('orderid')}${params.client_orderid}${sb.merchants.acme.controlKey}`),
      );
      expect(await statusOf(ack.body)).toMatchObject({
        status: 'approved',
        amount: '25.00',
        currency: 'EUR',
        'last-four-digits': '4448',
      });
      expect((await browse(sb.app, url, { ...CARD, cvv2: '123' })).status).toBe(409);
      expect((await browse(sb.app, url)).status).toBe(409);
    });

    it('preauth-form with 3-D Secure: card, issuer page, back to the shop', async () => {
      const ack = await sb.acme.call('v2/preauth-form', formParams({ redirect_url: RETURN }));
      const url = String(ack.body['redirect-url']);
      const toAcs = await browse(sb.app, url, { ...CARD, cvv2: '321' });
      expect(toAcs.status).toBe(303);
      expect(toAcs.location!.pathname).toMatch(/\/sandbox\/paynet\/3ds\/acs\/[A-Za-z0-9]{32}$/);
      const back = await browse(sb.app, toAcs.location!.toString(), { password: 'hint' });
      expect(back.posted!.fields.get('status')).toBe('approved');
      expect(await statusOf(ack.body)).toMatchObject({ status: 'approved', 'transaction-type': 'preauth' });
      const capture = await sb.acme.call('v2/capture', {
        login,
        client_orderid: String(ack.body['merchant-order-id']),
        orderid: String(ack.body['paynet-order-id']),
      });
      expect(capture.status, capture.raw).toBe(200);
    });

    it('payment-form declined, account-verification-form approved at zero, payout-form to a bank account', async () => {
      const pay = await sb.acme.call('v2/payment-form', formParams({ redirect_url: RETURN }));
      const declined = await browse(sb.app, String(pay.body['redirect-url']), { ...CARD, cvv2: '209' });
      expect(declined.posted!.fields.get('status')).toBe('declined');
      expect(declined.posted!.fields.get('error_message')).toMatch(/stolen/);

      const av = formParams({ redirect_url: RETURN });
      delete av.amount;
      delete av.currency;
      const avAck = await sb.acme.call('v2/account-verification-form', av);
      const avPage = await browse(sb.app, String(avAck.body['redirect-url']));
      expect(avPage.body).toContain('nothing is charged');
      await browse(sb.app, String(avAck.body['redirect-url']), { ...CARD, cvv2: '123' });
      expect(await statusOf(avAck.body)).toMatchObject({ status: 'approved', amount: '0.00' });

      const po = await sb.acme.call('v2/payout-form', {
        client_orderid: orderId('pf'),
        amount: '40.00',
        currency: 'USD',
        order_desc: 'Win',
        ipaddress: '203.0.113.7',
        redirect_url: RETURN,
        email: 'w@example.com',
      });
      const poPage = await browse(sb.app, String(po.body['redirect-url']));
      expect(poPage.body).toContain('Receive 40.00 USD');
      const missing = await browse(sb.app, String(po.body['redirect-url']), { bank_name: 'Bank only' });
      expect(missing.status).toBe(400);
      const paid = await browse(sb.app, String(po.body['redirect-url']), {
        account_number: 'GB29NWBK60161331926819',
        bank_name: 'Example Bank',
      });
      expect(paid.posted!.fields.get('status')).toBe('approved');
      expect(await statusOf(po.body)).toMatchObject({
        status: 'approved',
        'transaction-type': 'payout',
        amount: '40.00',
      });
    });

    it('answers unknown page tokens with 404', async () => {
      for (const p of ['form', '3ds/acs', '3ds/method']) {
        expect((await browse(sb.app, `http://127.0.0.1:4174/sandbox/paynet/${p}/nope`)).status).toBe(404);
      }
    });
  });

  it('account verification approves at zero amount', async () => {
    const av = await sb.acme.call('v2/account-verification', {
      client_orderid: orderId('av'),
      ...customer(),
      ...CARD,
      cvv2: '321',
    });
    expect(await settle(sb, sb.acme, av.body)).toMatchObject({
      status: 'approved',
      amount: '0.00',
      'transaction-type': 'account-verification',
    });
  });
});
