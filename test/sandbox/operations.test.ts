import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperation, OPERATION_PATHS, OPERATIONS } from '../../src/catalog/index.ts';
import { parseResponse } from '../../src/catalog/responses.ts';
import {
  browse,
  CARD,
  Client,
  customer,
  formParams,
  hostedFieldsToken,
  orderId,
  payoutParams,
  saleParams,
  settle,
  startSandbox,
  type Answer,
  type Sandbox,
} from './support.ts';

const without = (o: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !names.includes(k)));

/**
 * Every catalog operation, signed by the test's own clients (Node crypto for control, the
 * oauth-1.0a package for HMAC-SHA1 and RSA-SHA256), is accepted and answered with its schema.
 */
// `gateway`: a client of our own that sends no Accept and reads the gateway's default
// form-encoded answer (issue 20), through every operation, as `json` does with JSON.
describe.each(['json', 'gateway'] as const)(
  'every operation accepts a correctly signed request (%s)',
  (dialect) => {
    let sb: Sandbox;
    let acme: Client;
    const covered = new Set<string>();
    const ok = (path: string, r: Answer, type: string) => {
      expect(r.status, `${path}: ${r.raw}`).toBe(200);
      if (dialect === 'json') expect(r.headers['content-type']).toBe('application/vnd.pay+json');
      else {
        expect(r.headers['content-type']).toBe('text/html;charset=utf-8');
        expect(r.raw).toMatch(/^type=[a-z-]+\n(?:&[a-z-]+=[^&\n]*\n)*$/);
      }
      expect(r.body.type).toBe(type);
      // The contract: the answer parses with the catalog's response schema for the operation.
      const parsed = parseResponse(findOperation(path)!.response, r.status, r.body);
      expect(parsed.result.success, `${path}: ${JSON.stringify(parsed.result.error?.issues)}`).toBe(true);
      covered.add(path);
      return r.body;
    };

    beforeAll(async () => {
      sb = await startSandbox();
      acme = new Client(sb.app, sb.merchants.acme, sb.clock, dialect);
    });
    afterAll(async () => {
      await sb.app.close();
    });

    it('answers all 35 operations', async () => {
      const login = acme.merchant.login;

      const sale = ok('v2/sale', await acme.call('v2/sale', saleParams()), 'async-response');
      expect(sale['paynet-order-id']).toMatch(/^\d+$/);
      expect(sale['serial-number']).toMatch(/^[0-9a-f-]{36}$/);
      expect(sale['end-point-id']).toBe('1111');
      expect((await settle(sb, acme, sale)).status).toBe('approved');

      // The group id replaces the endpoint id in the formula.
      const preauth = ok(
        'v2/preauth',
        await acme.call('v2/preauth', saleParams({ amount: '30.00' }), { group: '2222' }),
        'async-response',
      );
      expect(preauth['end-point-id']).toBe('1111');
      expect((await settle(sb, acme, preauth)).status).toBe('approved');

      const av = ok(
        'v2/account-verification',
        await acme.call('v2/account-verification', {
          client_orderid: orderId(),
          ...customer(),
          ...CARD,
          cvv2: '123',
        }),
        'async-response',
      );
      const avStatus = await settle(sb, acme, av);
      expect(avStatus.status).toBe('approved');
      expect(avStatus.amount).toBe('0.00');

      const pid = String(preauth['paynet-order-id']);
      const pco = String(preauth['merchant-order-id']);
      ok(
        'v2/capture',
        await acme.call('v2/capture', {
          login,
          client_orderid: pco,
          orderid: pid,
          amount: '10.00',
          currency: 'USD',
        }),
        'async-response',
      );
      sb.clock.advance(1000);

      const sid = String(sale['paynet-order-id']);
      const sco = String(sale['merchant-order-id']);
      ok(
        'v2/return',
        await acme.call('v2/return', {
          login,
          client_orderid: sco,
          orderid: sid,
          amount: '1.00',
          currency: 'USD',
          comment: 'partial',
        }),
        'async-response',
      );
      sb.clock.advance(1000);

      const preauth2 = ok('v2/preauth', await acme.call('v2/preauth', saleParams()), 'async-response');
      await settle(sb, acme, preauth2);
      ok(
        'v2/void',
        await acme.call('v2/void', {
          login,
          client_orderid: String(preauth2['merchant-order-id']),
          orderid: String(preauth2['paynet-order-id']),
        }),
        'async-response',
      );

      const status = ok(
        'v2/status',
        await acme.call('v2/status', { login, client_orderid: sco, orderid: sid }),
        'status-response',
      );
      expect(status.status).toBe('approved');
      // Status by client_orderid alone: the orderid term is the empty string.
      const byClient = ok(
        'v2/status',
        await acme.call('v2/status', { login, client_orderid: sco }),
        'status-response',
      );
      expect(byClient['paynet-order-id']).toBe(sid);
      // v4/status (the gateway's public examples): the same fields, RSA-SHA256 instead of control.
      const v4 = ok(
        'v4/status',
        await acme.call('v4/status', { login, client_orderid: sco, orderid: sid }),
        'status-response',
      );
      expect(v4).toMatchObject({ status: 'approved', 'paynet-order-id': sid });

      // v4/sale (the gateway's public examples): a hosted-fields token instead of the card;
      // the ticket call it needs is covered by hostedFieldsToken.
      const v4sale = ok(
        'v4/sale',
        await acme.call('v4/sale', {
          ...without(
            saleParams(),
            'credit_card_number',
            'card_printed_name',
            'expire_month',
            'expire_year',
            'cvv2',
          ),
          hosted_fields_token: await hostedFieldsToken(acme),
        }),
        'async-response',
      );
      covered.add('v4/tokenize/create-ephemeral-ticket');
      // A number in JSON (gateway-notes.md); the form-encoded answer has no types.
      if (dialect === 'json') expect(typeof v4sale['paynet-order-id']).toBe('number');
      expect((await settle(sb, acme, v4sale)).status).toBe('approved');

      const ref = ok(
        'v2/create-card-ref',
        await acme.call('v2/create-card-ref', { login, client_orderid: sco, orderid: sid }),
        'create-card-ref-response',
      );
      const cardRefId = String(ref['card-ref-id']);
      const refV4 = ok(
        'v4/create-card-ref',
        await acme.call('v4/create-card-ref', { client_orderid: pco, orderid: pid }),
        'create-card-ref-response',
      );
      expect(refV4['card-ref-id']).not.toBe(cardRefId);

      const info = ok(
        'v2/get-card-info',
        await acme.call('v2/get-card-info', { login, cardrefid: cardRefId }),
        'get-card-info-response',
      );
      expect(info).toMatchObject({
        bin: '444444',
        'last-four-digits': '4448',
        'card-brand': 'Visa',
        'masked-card-number': '444444******4448',
        'expire-month': '12',
        'expire-year': '2035',
        'card-printed-name': 'JOHN SMITH',
      });

      const rebill = ok(
        'v2/make-rebill',
        await acme.call('v2/make-rebill', {
          login,
          client_orderid: orderId('rb'),
          order_desc: 'Monthly',
          amount: '5.00',
          currency: 'USD',
          ipaddress: '203.0.113.7',
          cardrefid: cardRefId,
        }),
        'async-response',
      );
      expect((await settle(sb, acme, rebill)).status).toBe('approved');

      // The vendor's own clients' operations (gateway-notes.md, "What the vendor's live clients also rely on").
      for (const [path, kind] of [
        ['v2/make-rebill-sale', 'sale'],
        ['v2/make-rebill-preauth', 'preauth'],
      ] as const) {
        const r = ok(
          path,
          await acme.call(path, {
            login,
            client_orderid: orderId('rbs'),
            order_desc: 'Renewal',
            amount: '5.00',
            currency: 'USD',
            ipaddress: '203.0.113.7',
            cardrefid: cardRefId,
            recurrent_scenario: 'REGULAR',
            recurrent_initiator: 'MERCHANT',
          }),
          'async-response',
        );
        expect(await settle(sb, acme, r)).toMatchObject({ status: 'approved', 'transaction-type': kind });
      }
      const byRefV2 = ok(
        'v2/transfer-by-ref',
        await acme.call('v2/transfer-by-ref', {
          login,
          client_orderid: orderId('tbr'),
          amount: '2.00',
          currency: 'USD',
          ipaddress: '203.0.113.7',
          'source-card-ref-id': cardRefId,
          'destination-card-ref-id': cardRefId,
        }),
        'async-response',
      );
      expect((await settle(sb, acme, byRefV2)).status).toBe('approved');
      const sav = ok(
        'v2/sync/account-verification',
        await acme.call('v2/sync/account-verification', saleParams({ client_orderid: orderId('sav') })),
        'status-response',
      );
      expect(sav.status).toBe('approved');
      const wire = ok(
        'v2/bank-wire-transfer',
        await acme.call('v2/bank-wire-transfer', {
          client_orderid: orderId('bw'),
          'payer-fullname': 'John Smith',
          'recipient-name': 'Example Supplies Ltd',
          'recipient-account-number': 'GB29NWBK60161331926819',
          'recipient-bank-bic': 'NWBKGB2L',
          amount: '50.00',
          'vat-amount': '0.00',
          currency: 'EUR',
        }),
        'async-response',
      );
      expect((await settle(sb, acme, wire)).status).toBe('approved');

      ok(
        'v2/pan-eligibility/send',
        await acme.call('v2/pan-eligibility/send', {
          'client-order-id': orderId('pe'),
          'sending-card-ref-id': cardRefId,
        }),
        'async-response',
      );
      ok('v2/payout', await acme.call('v2/payout', payoutParams()), 'async-response');

      const payoutForm = ok(
        'v2/payout-form',
        await acme.call('v2/payout-form', {
          client_orderid: orderId('pf'),
          amount: '9.00',
          currency: 'USD',
          order_desc: 'Refund',
          ipaddress: '203.0.113.7',
          redirect_url: 'http://127.0.0.1:9/back',
          email: 'a@example.com',
        }),
        'async-form-response',
      );
      expect(String(payoutForm['redirect-url'])).toMatch(
        /^http:\/\/127\.0\.0\.1:4174\/sandbox\/paynet\/form\/[A-Za-z0-9]{32}$/,
      );
      for (const path of ['v2/sale-form', 'v2/preauth-form', 'v2/payment-form']) {
        const form = ok(path, await acme.call(path, formParams()), 'async-form-response');
        const page = await browse(sb.app, String(form['redirect-url']));
        expect(page.status).toBe(200);
        expect(page.body).toContain('name="credit_card_number"');
      }
      const avForm = formParams();
      delete avForm.amount;
      delete avForm.currency;
      ok(
        'v2/account-verification-form',
        await acme.call('v2/account-verification-form', avForm),
        'async-form-response',
      );

      const check = ok(
        'v4/payout-check',
        await acme.call('v4/payout-check', payoutParams()),
        'async-response',
      );
      expect((await settle(sb, acme, check)).status).toBe('approved');
      ok(
        'v4/payout-pay',
        await acme.call('v4/payout-pay', {
          client_orderid: String(check['merchant-order-id']),
          orderid: String(check['paynet-order-id']),
        }),
        'async-response',
      );

      const rp = ok(
        'v4/create-recurring-payment',
        await acme.call('v4/create-recurring-payment', {
          rp_card_type: 'SRC',
          'client-orderid': orderId('rp'),
          order_desc: 'Subscription',
          'credit-card-number': '5555555555554444',
          'card-printed-name': 'JOHN SMITH',
          'expire-month': '01',
          'expire-year': '2036',
          cvv2: '123',
          amount: '9.99',
          currency: 'USD',
          period: 'month',
          interval: '1',
        }),
        'async-response',
      );
      expect(rp['recurring-payment-id']).toMatch(/^\d+$/);

      const transfer = ok(
        'v4/transfer',
        await acme.call('v4/transfer', {
          amount: '12.00',
          card_printed_name: 'JOHN SMITH',
          client_orderid: orderId('tr'),
          credit_card_number: '4444444444444448',
          currency: 'USD',
          cvv2: '123',
          expire_month: '12',
          expire_year: '2035',
          ipaddress: '203.0.113.7',
          order_desc: 'Transfer',
          'destination-card-no': '5555555555554444',
          deposit2card: 'true',
        }),
        'async-response',
      );
      expect(transfer['transaction-id']).toBe(transfer['paynet-order-id']);
      const byRef = ok(
        'v4/transfer-by-ref',
        await acme.call('v4/transfer-by-ref', {
          'client-order-id': orderId('tbr'),
          amount: '3.00',
          currency: 'USD',
          order_desc: 'T',
          'destination-card-no': '5555555555554444',
        }),
        'async-response',
      );
      expect(byRef['transaction-id']).toMatch(/^\d+$/);
      const payoutV4 = ok(
        'v4/payout',
        await acme.call('v4/payout', {
          'client-order-id': orderId('p4'),
          amount: '4.00',
          currency: 'USD',
          order_desc: 'P',
          account_number: 'DE89370400440532013000',
          bank_name: 'Bank',
        }),
        'async-response',
      );
      expect(payoutV4['payout-id']).toMatch(/^\d+$/);

      // 3-D Secure 2: method result, issuer challenge, CRes.
      const tds2 = ok(
        'v2/sale',
        await acme.call(
          'v2/sale',
          saleParams({
            cvv2: '321',
            browserUserAgent: 'Mozilla/5.0',
            browserLanguage: 'en-US',
            redirect_url: 'http://127.0.0.1:9/back',
          }),
        ),
        'async-response',
      );
      const id2 = String(tds2['paynet-order-id']);
      const co2 = String(tds2['merchant-order-id']);
      ok(
        '3ds/v1/upload-method-url-result',
        await acme.call('3ds/v1/upload-method-url-result', {
          login,
          'client-order-id': co2,
          orderid: id2,
          threeDSCompInd: 'Y',
        }),
        'async-response',
      );
      const st2 = await acme.status(id2, co2);
      const challenge = await browse(sb.app, String(st2['redirect-to']), { password: 'hint' });
      const cres = challenge.posted?.fields.get('cres');
      expect(cres).toBeTruthy();
      ok(
        '3ds/v1/upload-cres-result',
        await acme.call('3ds/v1/upload-cres-result', {
          login,
          'client-order-id': co2,
          orderid: id2,
          cRes: cres!,
        }),
        'async-response',
      );

      // 3-D Secure 1.0.2: issuer page, PaRes.
      const tds1 = ok('v2/sale', await acme.call('v2/sale', saleParams({ cvv2: '321' })), 'async-response');
      const id1 = String(tds1['paynet-order-id']);
      const co1 = String(tds1['merchant-order-id']);
      const st1 = await acme.status(id1, co1);
      const acs = await browse(sb.app, String(st1['redirect-to']), { password: 'hint' });
      const pares =
        acs.body.match(/<textarea readonly>([^<]+)<\/textarea>/)?.[1] ?? acs.posted?.fields.get('PaRes');
      expect(pares).toBeTruthy();
      ok(
        '3ds/v1/upload-pares-result',
        await acme.call('3ds/v1/upload-pares-result', {
          login,
          'client-order-id': co1,
          orderid: id1,
          paRes: pares!,
        }),
        'async-response',
      );

      expect(OPERATIONS).toHaveLength(35);
      expect([...covered].sort()).toEqual([...OPERATION_PATHS].sort());
    });
  },
);
