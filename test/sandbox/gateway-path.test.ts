/**
 * The standalone sandbox answers at the gateway's own path too, `/paynet/api/...` (clients
 * hard-code `https://<host>/paynet/api/...`), with the signature checked over the URL the client
 * used: an OAuth signature made for `/sandbox/paynet/...` does not verify at `/paynet/...`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browse,
  Client,
  formParams,
  payoutParams,
  saleParams,
  startSandbox,
  type CallOptions,
  type Sandbox,
} from './support.ts';

/** A client that calls `/paynet/api/...` and signs that URL. */
class GatewayPathClient extends Client {
  override url(opPath: string, opts: CallOptions = {}): string {
    return super.url(opPath, opts).replace(/^\/sandbox\/paynet\//, '/paynet/');
  }
}

describe('the standalone sandbox at /paynet/api', () => {
  let sb: Sandbox;
  let root: GatewayPathClient;
  beforeAll(async () => {
    sb = await startSandbox();
    root = new GatewayPathClient(sb.app, sb.merchants.acme, sb.clock);
  });
  afterAll(async () => {
    await sb.app.close();
  });

  it('answers a sale, its status and an OAuth payout signed over /paynet/api', async () => {
    expect(root.url('v2/sale')).toBe('/paynet/api/v2/sale/1111');
    const sale = await root.call('v2/sale', saleParams());
    expect(sale.status, sale.raw).toBe(200);
    sb.clock.advance(1000);
    const status = await root.status(
      String(sale.body['paynet-order-id']),
      String(sale.body['merchant-order-id']),
    );
    expect(status.status).toBe('approved');
    // The same order is seen under /sandbox: one sandbox, two addresses.
    expect(
      (await sb.acme.status(String(sale.body['paynet-order-id']), String(sale.body['merchant-order-id'])))
        .status,
    ).toBe('approved');
    const payout = await root.call('v2/payout', payoutParams());
    expect(payout.status, payout.raw).toBe(200);
    const rsa = await root.call('v4/payout-check', payoutParams());
    expect(rsa.status, rsa.raw).toBe(200);
  });

  it('checks an OAuth signature over the URL the client used', async () => {
    // Signed for /sandbox/paynet/..., sent to /paynet/...: the base strings differ.
    const params = payoutParams();
    const header = sb.acme.oauthHeader('v2/payout', params, {}, 'HMAC-SHA1');
    const res = await sb.app.inject({
      method: 'POST',
      url: '/paynet/api/v2/payout/1111',
      headers: {
        host: '127.0.0.1:4174',
        accept: 'application/vnd.pay+json',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: header,
      },
      payload: new URLSearchParams(params).toString().replace(/\+/g, '%20'),
    });
    expect(res.statusCode, res.body).toBe(403);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body['error-reason']).toBe('INVALID_SIGNATURE');
    expect(JSON.stringify(body.debug)).toContain('%2Fpaynet%2Fapi%2Fv2%2Fpayout%2F1111');
  });

  it('speaks the gateway dialect there without the JSON Accept', async () => {
    const r = await root.call('v2/sale', saleParams(), { headers: { accept: undefined } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html;charset=utf-8');
    expect(r.raw).toMatch(/^type=async-response\n&/);
  });

  it('sends the customer to the sandbox pages, which live under /sandbox/paynet', async () => {
    const form = await root.call('v2/sale-form', formParams());
    expect(form.status, form.raw).toBe(200);
    const url = String(form.body['redirect-url']);
    expect(new URL(url).pathname).toMatch(/^\/sandbox\/paynet\/form\//);
    expect((await browse(sb.app, url)).status).toBe(200);
  });

  it('keeps other paths under /paynet unknown', async () => {
    const res = await sb.app.inject({
      method: 'GET',
      url: '/paynet/form/x',
      headers: { host: '127.0.0.1:4174' },
    });
    expect(res.statusCode).toBe(404);
    const res2 = await sb.app.inject({
      method: 'POST',
      url: '/paynet/api/v9/nothing/1111',
      headers: { host: '127.0.0.1:4174', accept: 'application/vnd.pay+json' },
      payload: 'a=b',
    });
    expect(res2.statusCode).toBe(404);
    expect(JSON.parse(res2.body)).toMatchObject({ 'error-reason': 'UNKNOWN_OPERATION' });
  });
});
