import { createHmac, createSign } from 'node:crypto';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import OAuth from 'oauth-1.0a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPlugin } from '../../sandbox/plugin.ts';
import { sandboxOptionsFromEnv } from '../../sandbox/options.ts';
import { installRouteAccess, SANDBOX_POLICY } from '../../sandbox/route-access.ts';
import {
  BASE_PATH,
  Client,
  enc,
  formBody,
  HOST,
  opensslSign,
  orderId,
  payoutParams,
  pythonOAuthHmac,
  pythonSha1,
  saleParams,
  startSandbox,
  testMerchants,
  type Sandbox,
} from './support.ts';

function signatureOf(header: string): string {
  return decodeURIComponent(/oauth_signature="([^"]+)"/.exec(header)![1]!);
}

describe('sandbox signature checks', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb.app.close();
  });

  /** POSTs the form body to the sandbox as a client would, with the Authorization header given. */
  const postSigned = (url: string, authorization: string, params: Record<string, string>) =>
    sb.app.inject({
      method: 'POST',
      url,
      headers: {
        host: HOST,
        accept: 'application/vnd.pay+json',
        'content-type': 'application/x-www-form-urlencoded',
        authorization,
      },
      payload: formBody(params),
    });

  describe('control (scheme C)', () => {
    it('accepts the published worked example byte for byte', async () => {
      // gateway-notes.md: endpoint 1111, client_orderid 902B4FF5, 10.42, john.smith@gmail.com, key B17F59B4-… → c6bdd88a…
      const params = saleParams({
        client_orderid: '902B4FF5',
        amount: '10.42',
        email: 'john.smith@gmail.com',
      });
      const r = await sb.acme.call('v2/sale', params, {
        control: 'c6bdd88a78834ef4b863b088827a459f039e8257',
      });
      expect(r.status, r.raw).toBe(200);
      expect(r.body['merchant-order-id']).toBe('902B4FF5');
    });

    it('accepts a control computed by python3 hashlib, and in upper case', async () => {
      const params = saleParams();
      const [control] = pythonSha1([
        `1111${params.client_orderid}1042${params.email}${sb.merchants.acme.controlKey}`,
      ]);
      expect((await sb.acme.call('v2/sale', params, { control: control! })).status).toBe(200);
      const params2 = saleParams();
      const upper = sb.acme.controlFor('v2/sale', params2, '1111', sb.merchants.acme).toUpperCase();
      expect((await sb.acme.call('v2/sale', params2, { control: upper })).status).toBe(200);
    });

    it('refuses a tampered control with 400 INVALID_CONTROL_CODE and a debug part without the key', async () => {
      const params = saleParams();
      const good = sb.acme.controlFor('v2/sale', params, '1111', sb.merchants.acme);
      const bad = (good[0] === '0' ? '1' : '0') + good.slice(1);
      const r = await sb.acme.call('v2/sale', params, { control: bad });
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toBe('application/vnd.pay+json');
      expect(r.body.type).toBe('validation-error');
      expect(r.body['error-message']).toContain('INVALID_CONTROL_CODE');
      const debug = r.body.debug as Record<string, unknown>;
      expect(debug['signing-input']).toBe(
        `1111${params.client_orderid}1042${params.email}<merchant_control_key>`,
      );
      expect(debug.formula).toBe('endpointId + client_orderid + amount + email + merchant_control_key');
      expect(r.raw).not.toContain(sb.merchants.acme.controlKey);
      expect(r.raw).not.toContain(good);
    });

    it('refuses a body changed after signing, and a missing control', async () => {
      const params = saleParams();
      const changed = await sb.acme.call('v2/sale', params, {
        tamperBody: (b) => b.replace('amount=10.42', 'amount=99.42'),
      });
      expect(changed.status).toBe(400);
      expect(changed.body['error-message']).toContain('INVALID_CONTROL_CODE');
      expect((changed.body.debug as Record<string, unknown>)['signing-input']).toContain('9942');
      const missing = await sb.acme.call('v2/sale', saleParams(), { unsigned: true });
      expect(missing.status).toBe(400);
      expect(missing.body['error-message']).toMatch(/INVALID_CONTROL_CODE: the body has no control/);
    });

    it('signs with the group id on a group path, and refuses the endpoint id there', async () => {
      const params = saleParams();
      const withEndpointId = sb.acme.controlFor('v2/sale', params, '1111', sb.merchants.acme);
      const r = await sb.acme.call('v2/sale', params, { group: '2222', control: withEndpointId });
      expect(r.status).toBe(400);
      expect((r.body.debug as { terms: Array<{ term: string; value: string }> }).terms[0]).toMatchObject({
        term: 'endpointId',
        value: '2222',
      });
    });
  });

  describe('OAuth HMAC-SHA1 (scheme O1)', () => {
    it('accepts a header computed by python3 (a third, independent client)', async () => {
      const params = payoutParams({ order_desc: "Tom's refund (!*)" });
      const url = `${BASE_PATH}/api/v2/payout/1111`;
      const authorization = pythonOAuthHmac({
        url: `http://${HOST}${url}`,
        params,
        consumerKey: 'acme',
        secret: sb.merchants.acme.controlKey,
        nonce: 'py-nonce-1',
        timestamp: String(Math.floor(sb.clock.now / 1000)),
      });
      const res = await postSigned(url, authorization, params);
      expect(res.statusCode, res.body).toBe(200);
    });

    it('refuses a tampered signature with 403 and shows the base string the client should have signed', async () => {
      const params = payoutParams();
      const nonce = 'n-tamper-1';
      const ts = String(Math.floor(sb.clock.now / 1000));
      const real = signatureOf(
        sb.acme.oauthHeader('v2/payout', params, { nonce: 'probe', timestamp: ts }, 'HMAC-SHA1'),
      );
      const r = await sb.acme.call('v2/payout', params, {
        nonce,
        timestamp: ts,
        oauthSignature: 'AAAA' + real.slice(4),
      });
      expect(r.status).toBe(403);
      expect(r.body.type).toBe('error');
      expect(r.body['error-reason']).toBe('INVALID_SIGNATURE');
      const debug = r.body.debug as Record<string, string>;
      expect(debug['base-string']).toMatch(
        /^POST&http%3A%2F%2F127\.0\.0\.1%3A4174%2Fsandbox%2Fpaynet%2Fapi%2Fv2%2Fpayout%2F1111&/,
      );
      expect(debug['signing-key']).toBe('<merchant_control_key>&');
      // The base string is exactly what a correct client signs: HMAC over it gives the right signature.
      const correct = createHmac('sha1', `${enc(sb.merchants.acme.controlKey)}&`)
        .update(debug['base-string']!)
        .digest('base64');
      const good = await sb.acme.call('v2/payout', params, { nonce, timestamp: ts });
      expect(good.status, good.raw).toBe(200);
      expect(
        signatureOf(sb.acme.oauthHeader('v2/payout', params, { nonce, timestamp: ts }, 'HMAC-SHA1')),
      ).toBe(correct);
      expect(r.raw).not.toContain(sb.merchants.acme.controlKey);
      expect(r.raw).not.toContain(correct);
    });

    it('refuses a body changed after signing', async () => {
      const r = await sb.acme.call('v2/payout', payoutParams(), {
        tamperBody: (b) => b.replace('amount=50.00', 'amount=5000.00'),
      });
      expect(r.status).toBe(403);
      expect(r.body['error-reason']).toBe('INVALID_SIGNATURE');
    });

    it('refuses a replayed nonce', async () => {
      const first = await sb.acme.call('v2/payout', payoutParams(), { nonce: 'replay-me' });
      expect(first.status).toBe(200);
      const again = await sb.acme.call('v2/payout', payoutParams(), { nonce: 'replay-me' });
      expect(again.status).toBe(403);
      expect(again.body['error-reason']).toBe('OAUTH_NONCE_REUSED');
      // Another merchant may use the same nonce.
      const other = await sb.other.call('v2/payout', payoutParams(), {
        nonce: 'replay-me',
        endpoint: '3333',
      });
      expect(other.status, other.raw).toBe(200);
    });

    it('refuses a timestamp outside ±600 s and accepts one inside', async () => {
      const now = Math.floor(sb.clock.now / 1000);
      for (const ts of [now - 601, now + 601, 0]) {
        const r = await sb.acme.call('v2/payout', payoutParams(), { timestamp: String(ts) });
        expect(r.status).toBe(403);
        expect(r.body['error-reason']).toBe('OAUTH_TIMESTAMP');
        expect(r.body['sandbox-time']).toBe(String(now));
      }
      expect((await sb.acme.call('v2/payout', payoutParams(), { timestamp: String(now - 590) })).status).toBe(
        200,
      );
      expect((await sb.acme.call('v2/payout', payoutParams(), { timestamp: String(now + 590) })).status).toBe(
        200,
      );
    });

    it('refuses a consumer key that is not the endpoint owner', async () => {
      const foreign = await sb.acme.call('v2/payout', payoutParams(), { signer: sb.merchants.other });
      expect(foreign.status).toBe(403);
      expect(foreign.body['error-reason']).toBe('OAUTH_CONSUMER_KEY');
      const nobody = await sb.acme.call('v2/payout', payoutParams(), { consumerKey: 'nobody' });
      expect(nobody.status).toBe(403);
      expect(nobody.body['error-reason']).toBe('OAUTH_CONSUMER_KEY');
    });

    it('refuses a missing header and the wrong signature method', async () => {
      const none = await sb.acme.call('v2/payout', payoutParams(), { unsigned: true });
      expect(none.status).toBe(403);
      expect(none.body['error-reason']).toBe('OAUTH_HEADER');
      const rsaOnHmac = await sb.acme.call('v2/payout', payoutParams(), { signatureMethod: 'RSA-SHA256' });
      expect(rsaOnHmac.status).toBe(403);
      expect(rsaOnHmac.body['error-reason']).toBe('OAUTH_SIGNATURE_METHOD');
    });
  });

  describe('OAuth RSA-SHA256 (scheme O2)', () => {
    it('accepts a signature made by the openssl CLI over the oauth-1.0a base string', async () => {
      const params = { client_orderid: orderId(), orderid: '1' };
      const oauth = new OAuth({
        consumer: { key: 'acme', secret: '' },
        signature_method: 'RSA-SHA256',
        hash_function: () => '',
      });
      const data = {
        oauth_consumer_key: 'acme',
        oauth_nonce: 'openssl-nonce',
        oauth_signature_method: 'RSA-SHA256',
        oauth_timestamp: Math.floor(sb.clock.now / 1000),
        oauth_version: '1.0',
      };
      const url = `${BASE_PATH}/api/v4/payout-pay/1111`;
      const base = oauth.getBaseString(
        { url: `http://${HOST}${url}`, method: 'POST', data: { ...params } },
        { ...data },
      );
      const signature = opensslSign(sb.merchants.acme.privateKeyPem, base);
      // RSASSA-PKCS1-v1_5 is deterministic: Node's createSign gives the same bytes.
      expect(createSign('RSA-SHA256').update(base).sign(sb.merchants.acme.privateKeyPem, 'base64')).toBe(
        signature,
      );
      const authorization = oauth.toHeader({ ...data, oauth_signature: signature }).Authorization;
      const res = await postSigned(url, authorization, params);
      // Signature accepted: the refusal is about the order, not the signature.
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body)['error-reason']).toBe('ORDER_NOT_FOUND');
    });

    it('refuses a signature by another key, a tampered one and a changed body', async () => {
      const wrongKey = await sb.acme.call('v4/payout-check', payoutParams(), {
        signer: { ...sb.merchants.acme, privateKeyPem: sb.merchants.other.privateKeyPem },
      });
      expect(wrongKey.status).toBe(403);
      expect(wrongKey.body['error-reason']).toBe('INVALID_SIGNATURE');
      expect(String((wrongKey.body.debug as Record<string, string>)['signing-key'])).toMatch(
        /public key registered for acme/,
      );
      const tampered = await sb.acme.call('v4/payout-check', payoutParams(), {
        oauthSignature: 'bm90IGEgc2lnbmF0dXJl',
      });
      expect(tampered.status).toBe(403);
      const notBase64 = await sb.acme.call('v4/payout-check', payoutParams(), { oauthSignature: '%%%' });
      expect(notBase64.status).toBe(403);
      const changed = await sb.acme.call('v4/payout-check', payoutParams(), {
        tamperBody: (b) => `${b}&extra=1`,
      });
      expect(changed.status).toBe(403);
    });

    it('refuses HMAC-SHA1 on an RSA-SHA256 operation', async () => {
      const r = await sb.acme.call('v4/payout-check', payoutParams(), { signatureMethod: 'HMAC-SHA1' });
      expect(r.status).toBe(403);
      expect(r.body['error-reason']).toBe('OAUTH_SIGNATURE_METHOD');
    });

    it('accepts payout-form signed with any of its documented alternatives', async () => {
      const params = {
        client_orderid: orderId('pf'),
        amount: '9.00',
        currency: 'USD',
        order_desc: 'R',
        ipaddress: '203.0.113.7',
        redirect_url: 'http://127.0.0.1:9/',
        email: 'a@example.com',
      };
      const rsa = new Client(sb.app, sb.merchants.acme, sb.clock).oauthHeader(
        'v2/payout-form',
        params,
        {},
        'RSA-SHA256',
      );
      const res = await postSigned(`${BASE_PATH}/api/v2/payout-form/1111`, rsa, params);
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('endpoints, Accept and login', () => {
    it('refuses a foreign endpoint for every scheme', async () => {
      const sale = await sb.acme.call('v2/sale', saleParams(), { endpoint: '3333' });
      expect(sale.status).toBe(400);
      expect(sale.body['error-message']).toContain('INVALID_CONTROL_CODE');
      const status = await sb.acme.call(
        'v2/status',
        { login: 'acme', client_orderid: 'x', orderid: '1' },
        { endpoint: '3333' },
      );
      expect(status.status).toBe(400);
      expect(status.body['error-reason']).toBe('LOGIN_MISMATCH');
      const payout = await sb.acme.call('v2/payout', payoutParams(), { endpoint: '3333' });
      expect(payout.status).toBe(403);
      expect(payout.body['error-reason']).toBe('OAUTH_CONSUMER_KEY');
      const rsa = await sb.acme.call('v4/payout-check', payoutParams(), { endpoint: '3333' });
      expect(rsa.status).toBe(403);
    });

    it('refuses an endpoint that does not exist or is not a number', async () => {
      const unknown = await sb.acme.call('v2/sale', saleParams(), { endpoint: '9999' });
      expect(unknown.status).toBe(400);
      expect(unknown.body['error-reason']).toBe('ENDPOINT_UNKNOWN');
      const letters = await sb.acme.call('v2/sale', saleParams(), { endpoint: 'abc' });
      expect(letters.status).toBe(400);
      expect(letters.body['error-reason']).toBe('ENDPOINT_INVALID');
      const huge = await sb.acme.call('v2/sale', saleParams(), { endpoint: '9223372036854775808' });
      expect(huge.status).toBe(400);
      expect(huge.body['error-reason']).toBe('ENDPOINT_INVALID');
      expect(huge.body['error-message']).toContain('larger than the largest int64');
    });

    it('with SANDBOX_ACCEPT=strict, refuses a request without Accept: application/vnd.pay+json', async () => {
      const strict = await startSandbox({
        accept: sandboxOptionsFromEnv({ SANDBOX_ACCEPT: 'strict' }).accept,
      });
      try {
        for (const accept of [undefined, 'application/json', '*/*', 'application/vnd.pay+jsonx']) {
          const r = await strict.acme.call('v2/sale', saleParams(), { headers: { accept } });
          expect(r.status).toBe(400);
          expect(r.headers['content-type']).toBe('application/vnd.pay+json');
          expect(r.body.type).toBe('validation-error');
          expect(r.body['error-reason']).toBe('ACCEPT_REQUIRED');
          expect(r.body['error-message']).toContain('Accept: application/vnd.pay+json');
        }
        const listed = await strict.acme.call('v2/sale', saleParams(), {
          headers: { accept: 'text/html, application/vnd.pay+json;q=0.9' },
        });
        expect(listed.status).toBe(200);
      } finally {
        await strict.app.close();
      }
    });

    it('switches the debug part off', async () => {
      const quiet = await startSandbox({ debug: false });
      try {
        const r = await quiet.acme.call('v2/sale', saleParams(), { control: '0'.repeat(40) });
        expect(r.status).toBe(400);
        expect(r.body.debug).toBeUndefined();
        const o = await quiet.acme.call('v2/payout', payoutParams(), { oauthSignature: 'x' });
        expect(o.status).toBe(403);
        expect(o.body.debug).toBeUndefined();
      } finally {
        await quiet.app.close();
      }
    });
  });
});

describe('sandbox logs', () => {
  it('never carry keys, card numbers, CVVs or signatures', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const merchants = testMerchants();
    const app = Fastify({ logger: { level: 'trace', stream } });
    installRouteAccess(app, SANDBOX_POLICY);
    await app.register(sandboxPlugin, {
      prefix: '/sandbox',
      dbPath: ':memory:',
      merchants: [merchants.acme],
      finalizeDelayMs: 0,
    });
    const clock = { now: Date.now(), advance: () => undefined };
    const client = new Client(app, merchants.acme, clock);
    const params = saleParams({ credit_card_number: '5555555555554444', cvv2: '4321' });
    await client.call('v2/sale', params);
    await client.call('v2/sale', saleParams({ credit_card_number: '5555555555554444' }), {
      control: 'f'.repeat(40),
    });
    await client.call('v2/payout', payoutParams());
    await client.call('v2/payout', payoutParams(), { oauthSignature: 'bad' });
    await client.call('v2/sale', saleParams(), { tamperBody: () => '%%%\u0000' });
    await app.close();
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [
      merchants.acme.controlKey,
      '5555555555554444',
      'oauth_signature',
      'control=',
      'BEGIN',
    ]) {
      expect(log).not.toContain(secret);
    }
    // A CVV is short enough to occur inside a timing figure ("responseTime":0.4321…), so it
    // counts only as a digit run of its own.
    expect(log).not.toMatch(standaloneDigits('4321'));
  });

  it('counts a CVV only as a digit run of its own', () => {
    const cvv = standaloneDigits('4321');
    expect('"responseTime":0.4321669').not.toMatch(cvv);
    expect('"time":1795468743215').not.toMatch(cvv);
    expect('cvv2=4321&x=1').toMatch(cvv);
    expect('{"cvv2":"4321"}').toMatch(cvv);
  });
});

function standaloneDigits(digits: string): RegExp {
  return new RegExp(`(?<![0-9.])${digits}(?![0-9])`);
}
