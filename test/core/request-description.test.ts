/**
 * The request description and what derives from it: raw HTTP byte for byte, the curl command run
 * through a real shell, parsing captured text back, matching operation paths, and verifying
 * signatures (ok for all three schemes; false when anything signed is changed).
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperation, OPERATION_PATHS } from '../../src/catalog/index.ts';
import {
  buildRequest,
  isPayError,
  renderCurl,
  renderRawHttp,
  shellQuote,
  webCryptoPort,
  type BuiltRequest,
  type EndpointRef,
  type InputParam,
  type PayErrorCode,
} from '../../src/core/index.ts';
import { importSigningKey, importVerifyingKey } from '../../src/core/keys/key-containers.ts';
import { matchOperationPath, parseRawHttp } from '../../src/capture/index.ts';
import { verifySignature } from '../../src/core/verify/verify-signature.ts';
import { generateRsa, keyDir, type RsaFixture } from '../oracles/openssl.ts';

const crypto = webCryptoPort();
const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const LOGIN = 'demo-merchant';
const PINNED = { nonce: 'kllo9940pd9333jh', timestamp: '1191242096' };
const form = (pairs: Array<[string, string]>): InputParam[] =>
  pairs.map(([name, value]) => ({ name, value, source: 'form' }));

let dir: ReturnType<typeof keyDir>;
let rsa: RsaFixture;
let other: RsaFixture;
let privateKey: CryptoKey;
let publicKey: CryptoKey;
let otherPublicKey: CryptoKey;

beforeAll(async () => {
  dir = keyDir();
  rsa = generateRsa(dir.dir, 2048, 'signer');
  other = generateRsa(dir.dir, 2048, 'other');
  privateKey = (await importSigningKey(rsa.pkcs1Pem, crypto)).key;
  publicKey = (await importVerifyingKey(rsa.spkiPem, crypto)).key;
  otherPublicKey = (await importVerifyingKey(other.spkiPem, crypto)).key;
});
afterAll(() => dir?.remove());

function build(
  path: string,
  baseUrl: string,
  params: InputParam[],
  endpoint: EndpointRef = { kind: 'endpoint', id: '1111' },
): Promise<BuiltRequest> {
  return buildRequest({
    operation: findOperation(path)!,
    baseUrl,
    endpoint,
    params,
    credentials: { login: LOGIN, controlKey: CONTROL_KEY, privateKey },
    crypto,
    clock: () => 0,
    nonce: () => 'unused',
    pinned: PINNED,
  });
}

const saleParams = form([
  ['client_orderid', '902B4FF5'],
  ['order_desc', 'Café order'],
  ['amount', '10.42'],
  ['email', 'john.smith@gmail.com'],
]);
const payoutParams = form([
  ['client_orderid', 'inv-1'],
  ['amount', '10.42'],
  ['currency', 'USD'],
  ['order_desc', 'Payout é & more'],
]);

describe('renderRawHttp, byte for byte', () => {
  it('scheme C: CRLF, Host, Accept, Content-Type, Content-Length, blank line, body', async () => {
    const req = await build('v2/sale', 'https://sandbox.example.com/paynet', saleParams);
    expect(renderRawHttp(req)).toBe(
      'POST /paynet/api/v2/sale/1111 HTTP/1.1\r\n' +
        'Host: sandbox.example.com\r\n' +
        'Accept: application/vnd.pay+json\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\n' +
        'Content-Length: 143\r\n' +
        '\r\n' +
        'client_orderid=902B4FF5&order_desc=Caf%C3%A9%20order&amount=10.42&email=john.smith%40gmail.com&control=c6bdd88a78834ef4b863b088827a459f039e8257',
    );
  });

  it('scheme O1: the Authorization header after Content-Type, the port in Host', async () => {
    const req = await build('v2/payout', 'https://sandbox.example.com:8443/paynet', payoutParams);
    expect(renderRawHttp(req)).toBe(
      'POST /paynet/api/v2/payout/1111 HTTP/1.1\r\n' +
        'Host: sandbox.example.com:8443\r\n' +
        'Accept: application/vnd.pay+json\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\n' +
        'Authorization: OAuth oauth_consumer_key="demo-merchant", oauth_nonce="kllo9940pd9333jh", oauth_signature="fiSl0uSf%2Bv6zy616k5vcVu%2FnaUo%3D", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1191242096", oauth_version="1.0"\r\n' +
        'Content-Length: 86\r\n' +
        '\r\n' +
        'client_orderid=inv-1&amount=10.42&currency=USD&order_desc=Payout%20%C3%A9%20%26%20more',
    );
  });

  it('Content-Length counts UTF-8 bytes, not UTF-16 units', async () => {
    const req = await build('v2/sale', 'https://sandbox.example.com/paynet', saleParams);
    const raw = renderRawHttp({ ...req, bodyText: 'note=é😀' });
    expect(raw).toContain('\r\nContent-Length: 11\r\n\r\nnote=é😀');
  });
});

describe('renderCurl', () => {
  it('has the expected shape and passes exactly the request to curl (checked through sh)', async () => {
    const req = await build('v2/payout', 'https://sandbox.example.com:8443/paynet', payoutParams);
    const text = renderCurl(req);
    const lines = text.split(' \\\n  ');
    expect(lines[0]).toBe("curl -sS -X POST 'https://sandbox.example.com:8443/paynet/api/v2/payout/1111'");
    expect(lines.slice(1, -1)).toEqual(req.headers.map((h) => `-H '${h.name}: ${h.value}'`));
    expect(lines.at(-1)).toBe(`--data-raw '${req.bodyText}'`);
    // A stand-in `curl` function prints its arguments NUL-separated: the shell must hand over exactly these.
    const res = spawnSync('sh', ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${text}`], {
      encoding: 'utf8',
    });
    expect(res.stdout.split('\0').slice(0, -1)).toEqual([
      '-sS',
      '-X',
      'POST',
      req.url,
      ...req.headers.flatMap((h) => ['-H', `${h.name}: ${h.value}`]),
      '--data-raw',
      req.bodyText,
    ]);
  });

  it('shellQuote survives a real shell for any text', () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom("'", '"', '\\', '$', '`', '!', ' ', '\n', '*', ';', '&', '|'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, (s) => {
        const res = spawnSync('sh', ['-c', `printf '%s' ${shellQuote(s)}`], { encoding: 'utf8' });
        expect(res.stdout).toBe(s);
      }),
      { numRuns: 60 },
    );
  });
});

describe('parseRawHttp', () => {
  const crlf =
    'POST /paynet/api/v2/sale/1111 HTTP/1.1\r\nHost: sandbox.example.com\r\nAccept: application/vnd.pay+json\r\n' +
    'Content-Type: application/x-www-form-urlencoded\r\naccept: second\r\nContent-Length: 9\r\n\r\na=1&b=%20\r\n';

  it('reads CRLF text', () => {
    expect(parseRawHttp(crlf)).toEqual({
      method: 'POST',
      url: 'https://sandbox.example.com/paynet/api/v2/sale/1111',
      headers: {
        host: 'sandbox.example.com',
        accept: 'application/vnd.pay+json', // a repeated header keeps its first value
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '9',
      },
      body: 'a=1&b=%20',
    });
  });

  it('reads the same text with LF line ends, after a BOM and a blank line, and with http assumed', () => {
    const lf = `\uFEFF\n${crlf.replace(/\r\n/g, '\n')}`;
    expect(parseRawHttp(lf)).toEqual(parseRawHttp(crlf));
    expect(parseRawHttp(crlf, 'http').url).toBe('http://sandbox.example.com/paynet/api/v2/sale/1111');
  });

  it('reads an absolute-form target without a Host header', () => {
    const r = parseRawHttp(
      'POST https://gate.example.com:8443/paynet/api/v4/payout/7 HTTP/1.1\nAccept: x\n\nq=1',
    );
    expect(r.url).toBe('https://gate.example.com:8443/paynet/api/v4/payout/7');
    expect(r.body).toBe('q=1');
  });

  it.each([
    ['junk', 'hello world'],
    ['empty text', ''],
    ['a lowercase method', 'post /x HTTP/1.1\nHost: a\n\n'],
    ['a header line without a colon', 'POST /x HTTP/1.1\nHost: a\nthis is not a header\n\n'],
    ['a relative target without Host', 'POST /paynet/api/v2/sale/1 HTTP/1.1\nAccept: a\n\nx=1'],
  ])('refuses %s with HTTP_PARSE and advice', (_n, text) => {
    try {
      parseRawHttp(text);
      throw new Error('expected HTTP_PARSE');
    } catch (e) {
      expect(isPayError(e) && (e.code satisfies PayErrorCode)).toBe('HTTP_PARSE');
      expect((e as Error).message).toMatch(/expected|add|form/i);
    }
  });

  it('never throws anything but PayError on random text', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('POST', ' ', '/', ':', '\r\n', '\n', 'Host', 'HTTP/1.1', 'a'),
            fc.string({ unit: 'binary', maxLength: 2 }),
          ),
          maxLength: 40,
        }),
        (s) => {
          try {
            parseRawHttp(s);
          } catch (e) {
            if (!isPayError(e))
              throw new Error(`parseRawHttp threw ${String(e)} for ${JSON.stringify(s)}`, { cause: e });
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('matchOperationPath', () => {
  it.each([
    [
      '/paynet/api/v2/sale/1111',
      { path: 'v2/sale', endpoint: { kind: 'endpoint', id: '1111' }, prefix: '/paynet' },
    ],
    [
      '/paynet/api/v2/sale/group/77',
      { path: 'v2/sale', endpoint: { kind: 'group', id: '77' }, prefix: '/paynet' },
    ],
    ['/api/v2/sale/1111/', { path: 'v2/sale', endpoint: { kind: 'endpoint', id: '1111' }, prefix: '' }],
    [
      '/api/3ds/v1/upload-cres-result/5',
      { path: '3ds/v1/upload-cres-result', endpoint: { kind: 'endpoint', id: '5' }, prefix: '' },
    ],
    [
      '/api/v2/pan-eligibility/send/9',
      { path: 'v2/pan-eligibility/send', endpoint: { kind: 'endpoint', id: '9' }, prefix: '' },
    ],
    ['/api/v4/payout/group/3', { path: 'v4/payout', endpoint: { kind: 'group', id: '3' }, prefix: '' }],
    // A prefix that itself holds "/api/" (a local proxy mounted at /api).
    [
      '/api/sandbox/api/v4/payout-check/5',
      { path: 'v4/payout-check', endpoint: { kind: 'endpoint', id: '5' }, prefix: '/api/sandbox' },
    ],
    [
      '/api/api/v2/status/12',
      { path: 'v2/status', endpoint: { kind: 'endpoint', id: '12' }, prefix: '/api' },
    ],
  ] as const)('%s', (pathname, expected) => {
    expect(matchOperationPath(pathname, OPERATION_PATHS)).toEqual(expected);
  });

  it.each([
    '/paynet/api/v2/unknown/1',
    '/paynet/v2/sale/1',
    '/paynet/api/v2/sale',
    '/paynet/api/v2/sale/1/extra',
    '/',
  ])('no match: %s', (p) => {
    expect(matchOperationPath(p, OPERATION_PATHS)).toBeUndefined();
  });

  it('a broken %-escape in the id does not throw', () => {
    expect(() => matchOperationPath('/api/v2/sale/%E0%A4%A', OPERATION_PATHS)).not.toThrow();
  });

  it.each([...OPERATION_PATHS])('finds %s under a prefix, by endpoint and by group', (path) => {
    expect(matchOperationPath(`/paynet/api/${path}/42`, OPERATION_PATHS)).toEqual({
      path,
      endpoint: { kind: 'endpoint', id: '42' },
      prefix: '/paynet',
    });
    expect(matchOperationPath(`/api/${path}/group/42`, OPERATION_PATHS)).toEqual({
      path,
      endpoint: { kind: 'group', id: '42' },
      prefix: '',
    });
  });
});

describe('verifySignature of requests built by buildRequest', () => {
  const cases = [
    ['control', 'v2/sale', 'https://sandbox.example.com/paynet', saleParams],
    ['oauth-hmac-sha1', 'v2/payout', 'https://sandbox.example.com:8443/paynet', payoutParams],
    [
      'oauth-rsa-sha256',
      'v4/payout',
      'http://127.0.0.1:5173/api/sandbox',
      form([
        ['client-order-id', 'inv-2'],
        ['amount', '10.42'],
        ['currency', 'USD'],
        ['order_desc', "Payout 😀 'quoted' a+b=c"],
        ['account_number', 'GB29NWBK60161331926819'],
        ['bank_name', 'Example Bank'],
      ]),
    ],
  ] as const;

  async function capture(path: string, baseUrl: string, params: InputParam[], endpoint?: EndpointRef) {
    const req = await build(path, baseUrl, params, endpoint);
    const raw = renderRawHttp(req);
    const request = parseRawHttp(raw, new URL(req.url).protocol === 'http:' ? 'http' : 'https');
    const match = matchOperationPath(new URL(request.url).pathname, OPERATION_PATHS)!;
    return { req, raw, request, match };
  }

  describe.each(cases)('%s (%s)', (scheme, path, baseUrl, params) => {
    const verify = (
      request: ReturnType<typeof parseRawHttp>,
      over: { controlKey?: string; publicKey?: CryptoKey } = {},
    ) =>
      verifySignature({
        request,
        operation: findOperation(path)!,
        endpoint: { kind: 'endpoint', id: '1111' },
        login: LOGIN,
        controlKey: over.controlKey ?? CONTROL_KEY,
        publicKey: over.publicKey ?? publicKey,
        crypto,
      });

    it('verifies ok, from the raw text, via a matched path', async () => {
      const { req, request, match } = await capture(path, baseUrl, params);
      expect(match.path).toBe(path);
      const v = await verify(request);
      expect(v.scheme).toBe(scheme);
      expect(v.problems).toEqual([]);
      expect(v.ok).toBe(true);
      if (req.signing.scheme === 'control') {
        expect(v.expected).toBe(req.signing.signature);
      } else {
        expect(v.received).toBe(req.signing.signature);
        if (v.scheme !== 'control') expect(v.base.baseString).toBe(req.signing.base.baseString);
      }
      expect(JSON.stringify(v)).not.toContain(CONTROL_KEY);
    });

    it('a tampered value does not verify', async () => {
      const { raw } = await capture(path, baseUrl, params);
      expect(raw).toContain('amount=10.42');
      expect((await verify(parseRawHttp(raw.replace('amount=10.42', 'amount=10.43'), 'https'))).ok).toBe(
        false,
      );
    });

    it('a wrong key does not verify', async () => {
      const { request } = await capture(path, baseUrl, params);
      const v = await verify(request, { controlKey: `${CONTROL_KEY}x`, publicKey: otherPublicKey });
      expect(v.ok).toBe(false);
    });

    it('a tampered signature does not verify', async () => {
      const { req, raw } = await capture(path, baseUrl, params);
      const sig = req.signing.signature!;
      const flipped = (sig[5] === 'A' ? 'B' : 'A') + '';
      const bad = sig.slice(0, 5) + flipped + sig.slice(6);
      const encoded = (s: string) => encodeURIComponent(s);
      const tampered =
        scheme === 'control'
          ? raw.replace(`control=${sig}`, `control=${bad.toLowerCase()}`)
          : raw.replace(`oauth_signature="${encoded(sig)}"`, `oauth_signature="${encoded(bad)}"`);
      expect(tampered).not.toBe(raw);
      expect((await verify(parseRawHttp(tampered, 'https'))).ok).toBe(false);
    });
  });

  it('scheme C: the control hex is accepted in either case; a value outside the formula is not signed', async () => {
    const { req, raw } = await capture('v2/sale', 'https://sandbox.example.com/paynet', saleParams);
    const sig = req.signing.signature!;
    const run = (text: string) =>
      verifySignature({
        request: parseRawHttp(text),
        operation: findOperation('v2/sale')!,
        endpoint: { kind: 'endpoint', id: '1111' },
        controlKey: CONTROL_KEY,
        crypto,
      });
    expect((await run(raw.replace(sig, sig.toUpperCase()))).ok).toBe(true);
    expect((await run(raw.replace('Caf%C3%A9', 'Tea'))).ok).toBe(true);
    const missing = await run(raw.replace(`&control=${sig}`, ''));
    expect(missing.ok).toBe(false);
    expect(missing.problems.map((p) => p.code)).toContain('SIGNATURE_ENCODING');
  });

  it('OAuth: a changed nonce, timestamp or URL does not verify; a missing header is a problem, not a crash', async () => {
    const { raw } = await capture('v2/payout', 'https://sandbox.example.com:8443/paynet', payoutParams);
    const run = (text: string) =>
      verifySignature({
        request: parseRawHttp(text),
        operation: findOperation('v2/payout')!,
        endpoint: { kind: 'endpoint', id: '1111' },
        controlKey: CONTROL_KEY,
        crypto,
      });
    expect((await run(raw)).ok).toBe(true);
    expect((await run(raw.replace('oauth_nonce="kllo', 'oauth_nonce="xllo'))).ok).toBe(false);
    expect((await run(raw.replace('oauth_timestamp="1191242096"', 'oauth_timestamp="1191242097"'))).ok).toBe(
      false,
    );
    expect((await run(raw.replace('/paynet/api/v2/payout/1111', '/paynet/api/v2/payout/1112'))).ok).toBe(
      false,
    );
    expect(
      (await run(raw.replace('Host: sandbox.example.com:8443', 'Host: sandbox.example.com:8444'))).ok,
    ).toBe(false);
    const noHeader = await run(raw.replace(/Authorization: [^\r]*\r\n/, ''));
    expect(noHeader.ok).toBe(false);
    expect(noHeader.problems.map((p) => p.code)).toContain('AUTHORIZATION_PARSE');
  });

  it('a group endpoint verifies when the group id is used', async () => {
    const group: EndpointRef = { kind: 'group', id: '77' };
    const { request, match } = await capture(
      'v2/sale',
      'https://sandbox.example.com/paynet',
      saleParams,
      group,
    );
    expect(match.endpoint).toEqual(group);
    const v = await verifySignature({
      request,
      operation: findOperation('v2/sale')!,
      endpoint: match.endpoint,
      controlKey: CONTROL_KEY,
      crypto,
    });
    expect(v.ok).toBe(true);
  });
});
