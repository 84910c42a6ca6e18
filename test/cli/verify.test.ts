import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, openssl, paysign, referenceOAuth, sha1Hex, tempDir, writeTemp } from './run-cli.ts';

const KEY = 'verify-control-key-7f3a';
const SANDBOX = 'http://127.0.0.1:4173/sandbox/paynet';

let dir: string;
let privatePem: string;
let publicPem: string;

beforeAll(() => {
  dir = tempDir();
  privatePem = writeTemp(
    dir,
    'private.pem',
    openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048']).toString(),
  );
  publicPem = writeTemp(dir, 'public.pem', openssl(['rsa', '-pubout', '-in', privatePem]).toString());
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Replaces one body value of a raw capture; the lengths are kept equal so Content-Length stays right. */
function tamper(raw: string, from: string, to: string): string {
  expect(from.length).toBe(to.length);
  expect(raw).toContain(from);
  return raw.replace(from, to);
}

describe('paysign verify, control scheme', () => {
  it('accepts a capture written by hand (LF line ends, another path prefix) and computed independently', async () => {
    const control = sha1Hex(`4321ord-77` + `1999` + `a@b.example${KEY}`);
    const body = formBody([
      ['client_orderid', 'ord-77'],
      ['amount', '19.99'],
      ['email', 'a@b.example'],
      ['control', control],
    ]);
    const capture = `POST /paynet/api/v2/preauth/4321 HTTP/1.1\nHost: gate.gw.example\nContent-Type: application/x-www-form-urlencoded\n\n${body}\n`;
    const r = await paysign(['verify', '--control-key', KEY], { input: capture });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('signature OK');
  });

  it('sign --raw, then verify: OK from a file, MISMATCH after tampering with the expected input shown', async () => {
    const signed = await paysign([
      'sign',
      'v2/return',
      '--endpoint-id',
      '1111',
      '--login',
      'shop',
      '--control-key',
      KEY,
      '--raw',
      'client_orderid=r-1',
      'orderid=900',
      'amount=10.50',
      'currency=USD',
    ]);
    expect(signed.code).toBe(0);
    const file = writeTemp(dir, 'return.http', signed.stdout);

    const ok = await paysign(['verify', file], { env: { PAYSIGN_CONTROL_KEY: KEY } });
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('signature OK');

    const bad = await paysign(['verify', '--control-key', KEY], {
      input: tamper(signed.stdout, 'amount=10.50', 'amount=10.05'),
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout.split('\n')[0]).toBe('signature MISMATCH');
    const received = sha1Hex(`shopr-1900` + `1050USD${KEY}`);
    const expected = sha1Hex(`shopr-1900` + `1005USD${KEY}`);
    expect(bad.stdout).toMatch(new RegExp(`received control\\s+${received}`));
    expect(bad.stdout).toMatch(new RegExp(`expected control\\s+${expected}`));
    expect(bad.stdout).toContain('shopr-19001005USD<merchant_control_key>');
    expect(bad.stdout).toMatch(/^\s+4\s+amount\s+1005\s+body\s+10\.05 in minor units$/m);
    expect(bad.stdout + bad.stderr).not.toContain(KEY);
  });
});

describe('paysign verify, OAuth HMAC-SHA1', () => {
  const body = { client_orderid: 'p-9', amount: '7.25', currency: 'EUR' };
  let capture: string;

  beforeAll(async () => {
    const r = await paysign([
      'sign',
      'v2/payout',
      '--endpoint-id',
      '55',
      '--login',
      'demo',
      '--control-key',
      KEY,
      '--nonce',
      'nnn',
      '--timestamp',
      '1700000100',
      '--raw',
      ...Object.entries(body).map(([k, v]) => `${k}=${v}`),
    ]);
    expect(r.code).toBe(0);
    capture = r.stdout;
  });

  it('finds the URL scheme itself: "matches when signed as http://…"', async () => {
    const r = await paysign(['verify', '--control-key', KEY], { input: capture });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('signature OK');
    expect(r.stdout).toContain(`matches when signed as ${SANDBOX}/api/v2/payout/55`);
  });

  it('with --scheme https the same capture is a MISMATCH', async () => {
    const r = await paysign(['verify', '--control-key', KEY, '--scheme', 'https', '--json'], {
      input: capture,
    });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(j.verdict).toBe('MISMATCH');
    expect(j.triedUrls).toEqual(['https://127.0.0.1:4173/sandbox/paynet/api/v2/payout/55']);
  });

  it('a tampered value: MISMATCH, expected vs received signature, and the base string rebuilt from the capture', async () => {
    const r = await paysign(['verify', '--control-key', KEY], {
      input: tamper(capture, 'amount=7.25', 'amount=9.25'),
    });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('signature MISMATCH');
    const tampered = { ...body, amount: '9.25' };
    const common = {
      body: tampered,
      consumerKey: 'demo',
      method: 'HMAC-SHA1' as const,
      nonce: 'nnn',
      timestamp: '1700000100',
      controlKey: KEY,
    };
    const https = referenceOAuth({
      ...common,
      url: 'https://127.0.0.1:4173/sandbox/paynet/api/v2/payout/55',
    });
    const http = referenceOAuth({ ...common, url: `${SANDBOX}/api/v2/payout/55` });
    const original = referenceOAuth({ ...common, body, url: `${SANDBOX}/api/v2/payout/55` });
    expect(createHmac('sha1', `${KEY}&`).update(http.baseString).digest('base64')).toBe(http.hmac);
    expect(r.stdout).toMatch(new RegExp(`received\\s+${escape(original.hmac!)}`));
    expect(r.stdout).toMatch(new RegExp(`expected \\(https://\\)\\s+${escape(https.hmac!)}`));
    expect(r.stdout).toMatch(new RegExp(`expected \\(http://\\)\\s+${escape(http.hmac!)}`));
    expect(r.stdout).toContain(`  ${https.baseString}\n`);
    expect(r.stdout).not.toContain(KEY);
  });
});

describe('paysign verify, OAuth RSA-SHA256 with only the public key', () => {
  let capture: string;

  beforeAll(async () => {
    const r = await paysign([
      'sign',
      'v4/create-card-ref',
      '--endpoint-id',
      '808',
      '--login',
      'shop',
      '--private-key-file',
      privatePem,
      '--base-url',
      'https://gate.gw.example/paynet',
      '--raw',
      'client_orderid=cr-1',
      'orderid=12345',
    ]);
    expect(r.code).toBe(0);
    capture = r.stdout;
    expect(capture).toContain('login=shop');
  });

  it('OK with the public key: https matched first', async () => {
    const r = await paysign(['verify', '--public-key-file', publicPem], { input: capture });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'matches when signed as https://gate.gw.example/paynet/api/v4/create-card-ref/808',
    );
  });

  it('--base-url replaces everything before /api/', async () => {
    const moved = capture.replace('POST /paynet/api/', 'POST /internal/proxy/api/');
    const r = await paysign(
      [
        'verify',
        '-',
        '--public-key-file',
        publicPem,
        '--base-url',
        'https://gate.gw.example/paynet',
        '--json',
      ],
      {
        input: moved,
      },
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(j.signedUrl).toBe('https://gate.gw.example/paynet/api/v4/create-card-ref/808');
  });

  it('a tampered value: MISMATCH and the base string the signature was checked against', async () => {
    const r = await paysign(['verify', '--public-key-file', publicPem, '--scheme', 'https'], {
      input: tamper(capture, 'orderid=12345', 'orderid=12346'),
    });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('signature MISMATCH');
    const nonce = /oauth_nonce="([^"]+)"/.exec(capture)![1]!;
    const timestamp = /oauth_timestamp="(\d+)"/.exec(capture)![1]!;
    const ref = referenceOAuth({
      url: 'https://gate.gw.example/paynet/api/v4/create-card-ref/808',
      body: { login: 'shop', client_orderid: 'cr-1', orderid: '12346' },
      consumerKey: 'shop',
      method: 'RSA-SHA256',
      nonce,
      timestamp,
    });
    expect(r.stdout).toContain('Base string the signature was checked against');
    expect(r.stdout).toContain(`  ${ref.baseString}\n`);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
