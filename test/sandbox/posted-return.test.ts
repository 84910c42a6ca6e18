/**
 * Issue 20: the customer comes back to the merchant by a POSTed form, as at the gateway
 * (gateway-notes.md, "The gateway's default dialect"). From outside: a sandbox listening on a port,
 * requests signed here with node:crypto, the customer's pages fetched over HTTP, and a merchant's
 * return page of our own (a plain node:http server) that reads the POSTed fields and checks their
 * `control` = sha1(status + orderid + merchant_order + control key) on its own.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { CARD, customer, orderId, readPostedForm, testMerchants } from './support.ts';

const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');

interface Received {
  method: string;
  contentType: string | undefined;
  fields: URLSearchParams;
  query: URLSearchParams;
  verified: boolean;
}

describe('the customer comes back by a POSTed form', () => {
  const merchant = testMerchants().acme;
  let app: FastifyInstance;
  let base: string;
  let shop: Server;
  let shopBase: string;
  const received: Received[] = [];

  beforeAll(async () => {
    // The merchant's return page: reads $_POST, checks control with its own key.
    shop = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const fields = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        const expected = sha1(
          `${fields.get('status') ?? ''}${fields.get('orderid') ?? ''}${fields.get('merchant_order') ?? ''}${merchant.controlKey}`,
        );
        const verified = fields.get('control') === expected;
        received.push({
          method: req.method ?? '',
          contentType: req.headers['content-type'],
          fields,
          query: new URL(req.url ?? '/', 'http://x').searchParams,
          verified,
        });
        res.writeHead(200, { 'content-type': 'text/plain' }).end(verified ? 'verified' : 'mismatch');
      });
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    shopBase = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    app = await createSandboxApp({
      dbPath: ':memory:',
      dataDir: mkdtempSync(path.join(tmpdir(), 'sandbox-return-')),
      finalizeDelayMs: 0,
      merchants: [merchant],
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/paynet`;
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((r) => shop?.close(r));
  });

  /** A signed v2 call over HTTP, JSON answer. */
  async function call(op: string, params: Record<string, string>, formula: string[]) {
    const control = sha1(formula.map((t) => params[t] ?? t).join('') + merchant.controlKey);
    const res = await fetch(`${base}/api/${op}/${merchant.endpointIds[0]}`, {
      method: 'POST',
      headers: { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...params, control }),
    });
    return (await res.json()) as Record<string, unknown>;
  }

  /** What a browser does with the page: submit its form to the action, as the form says. */
  async function submit(html: string, pageUrl: string): Promise<Received> {
    const posted = readPostedForm(html, pageUrl)!;
    expect(posted).toBeDefined();
    const before = received.length;
    const res = await fetch(posted.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: posted.fields,
    });
    expect(res.status).toBe(200);
    expect(received.length).toBe(before + 1);
    return received.at(-1)!;
  }

  it('posts the signed outcome of a hosted form to redirect_url, which verifies it on its own', async () => {
    const params = {
      client_orderid: orderId('pr'),
      ...customer(),
      amount: '25.00',
      currency: 'EUR',
      // A query of the merchant's own stays on the address; the outcome travels in the body.
      redirect_url: `${shopBase}/return?cart=7&who=a%20b`,
    };
    const ack = await call('v2/sale-form', params, ['1111', 'client_orderid', '2500', 'email']);
    expect(ack.type).toBe('async-form-response');
    const formUrl = String(ack['redirect-url']);
    const page = await fetch(formUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...CARD, cvv2: '123' }),
    });
    expect(page.status).toBe(200);
    const html = await page.text();

    // The page: hidden fields, a button, and one script that runs only by this answer's nonce.
    const csp = page.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce, csp).toBeDefined();
    expect(nonce!.length).toBeGreaterThanOrEqual(22);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline'[^;]*script|script-src[^;]*unsafe/);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toBe(` nonce="${nonce}"`);
    expect(html).toMatch(/<button type="submit">/);
    expect(html).not.toMatch(/\son[a-z]+=/i);

    const got = await submit(html, formUrl);
    expect(got.method).toBe('POST');
    expect(got.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(got.query)).toEqual({ cart: '7', who: 'a b' });
    expect(got.fields.get('status')).toBe('approved');
    expect(got.fields.get('merchant_order')).toBe(params.client_orderid);
    expect(got.fields.get('client_orderid')).toBe(params.client_orderid);
    expect(got.fields.get('orderid')).toBe(String(ack['paynet-order-id']));
    expect(got.verified).toBe(true);
  });

  it('makes a new nonce for every page, so none can be reused', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const params = {
        client_orderid: orderId('nn'),
        ...customer(),
        amount: '1.00',
        currency: 'EUR',
        redirect_url: `${shopBase}/return`,
      };
      const ack = await call('v2/sale-form', params, ['1111', 'client_orderid', '100', 'email']);
      const page = await fetch(String(ack['redirect-url']), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...CARD, cvv2: '116' }),
      });
      const csp = page.headers.get('content-security-policy') ?? '';
      nonces.add(/'nonce-([^']+)'/.exec(csp)![1]!);
      const got = await submit(await page.text(), String(ack['redirect-url']));
      expect(got.fields.get('status')).toBe('declined');
      expect(got.verified).toBe(true);
    }
    expect(nonces.size).toBe(3);
  });

  it('posts the PaRes of a 3-D Secure 1.0.2 page to redirect_url (the TermUrl)', async () => {
    const params = {
      client_orderid: orderId('3d'),
      ...customer(),
      ...CARD,
      cvv2: '321',
      amount: '10.00',
      currency: 'USD',
      ipaddress: '203.0.113.7',
      redirect_url: `${shopBase}/term`,
    };
    const ack = await call('v2/sale', params, ['1111', 'client_orderid', '1000', 'email']);
    const orderid = String(ack['paynet-order-id']);
    const status = await call(
      'v2/status',
      { login: merchant.login, client_orderid: params.client_orderid, orderid },
      [merchant.login, 'client_orderid', 'orderid'],
    );
    const acs = String(status['redirect-to']);
    const page = await fetch(acs, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: 'hint' }),
    });
    expect(page.status).toBe(200);
    const got = await submit(await page.text(), acs);
    expect(got.fields.get('MD')).toBe(orderid);
    expect(got.fields.get('client_orderid')).toBe(params.client_orderid);
    const pares = JSON.parse(Buffer.from(got.fields.get('PaRes')!, 'base64').toString()) as unknown;
    expect(pares).toMatchObject({ messageType: 'PaRes', transStatus: 'Y' });
  });
});
