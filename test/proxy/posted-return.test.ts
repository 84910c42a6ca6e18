/**
 * `POST /return`: the customer posted back from the gateway's page on another site. The route only
 * renders the console's page with the fields as inert data; see docs/security.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startConsole, type Running } from './helpers.ts';

let server: Running;
beforeAll(async () => {
  server = await startConsole();
});
afterAll(async () => {
  await server.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function metaContent(html: string): string | undefined {
  const m = /<meta name="pay-console-posted-return" content="([^"]*)" \/>/.exec(html);
  return m?.[1]?.replace(/&#(\d+);/g, (_x, n: string) => String.fromCharCode(Number(n)));
}

describe('POST /return', () => {
  it('renders the console page with the posted fields, from any site, with the console’s CSP', async () => {
    const body = new URLSearchParams({
      status: 'approved',
      orderid: '7',
      merchant_order: 'a b',
      control: 'x',
    });
    const r = await send(
      server.port,
      'POST',
      '/return',
      { ...FORM, origin: 'https://gateway.example' },
      body.toString(),
    );
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.body).toContain('<title>pay-console fixture</title>');
    expect(Object.fromEntries(new URLSearchParams(metaContent(r.body)))).toEqual({
      status: 'approved',
      orderid: '7',
      merchant_order: 'a b',
      control: 'x',
    });
  });

  it('keeps markup in a value inert: escaped inside the attribute, no element added', async () => {
    const evil = '"><script>alert(1)</script><meta name="pay-console-posted-return" content="x';
    const r = await send(
      server.port,
      'POST',
      '/return',
      FORM,
      new URLSearchParams({ status: evil }).toString(),
    );
    expect(r.status).toBe(200);
    expect(r.body).not.toContain('<script>alert');
    expect(r.body.match(/<meta name="pay-console-posted-return"/g)).toHaveLength(1);
    expect(new URLSearchParams(metaContent(r.body)).get('status')).toBe(evil);
  });

  it('refuses what is not a few form fields, and changes nothing', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `f${i}=1`).join('&');
    expect((await send(server.port, 'POST', '/return', FORM, many)).status).toBe(400);
    expect((await send(server.port, 'POST', '/return', FORM, `a=${'x'.repeat(20_001)}`)).status).toBe(400);
    const large = await send(server.port, 'POST', '/return', FORM, `a=${'x'.repeat(70_000)}`);
    expect(large.status).toBe(413);
    // The limit it names is the one that refused it (64 KiB), not the server's default.
    expect(JSON.parse(large.body)).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    expect(large.body).toContain('(65536 bytes)');
    expect(large.body).not.toContain('1048576');
    const json = await send(server.port, 'POST', '/return', { 'content-type': 'application/json' }, '{}');
    expect(json.status).toBe(415);
    // GET /return stays the plain page; nothing else accepts a POST from another site.
    const page = await send(server.port, 'GET', '/return?status=approved');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('pay-console-posted-return');
    const other = await send(
      server.port,
      'POST',
      '/ops/v2/sale',
      { ...FORM, origin: 'https://gateway.example' },
      'a=1',
    );
    expect([403, 404]).toContain(other.status);
  });
});
