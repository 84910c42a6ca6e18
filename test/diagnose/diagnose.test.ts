/**
 * diagnose() beyond the corpus: the first difference, the pasted expected base string, two mistakes
 * at once, an unknown URL scheme, pasted keys, and what must never come out. Captures are signed
 * here with Node's crypto, independently of src/core.
 */
import { createHash, createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPayError, webCryptoPort, type CapturedRequest } from '../../src/core/index.ts';
import { importVerifyingKey } from '../../src/core/keys/key-containers.ts';
import { diagnose, inspectKeyText, type DiagnoseInput } from '../../src/diagnose/index.ts';
import { parseCapture } from '../../src/capture/index.ts';

const crypto = webCryptoPort();
const KEYS = resolve(import.meta.dirname, '../corpus/keys');
const pem = (f: string) => readFileSync(join(KEYS, f), 'utf8');
const KEY = 'DIAG-TEST-ONLY-8B1D-44E0-A3C2-19F7D2E6';
const LOGIN = 'diag-shop';
const HOST = 'gw.example';

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');
const form = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');

function base(url: string, params: ReadonlyArray<readonly [string, string]>, sorted = true): string {
  let pairs = params.map(([k, v]) => `${enc(k)}=${enc(v)}`);
  if (sorted) pairs = [...pairs].sort();
  return `POST&${enc(url)}&${enc(pairs.join('&'))}`;
}

function oauthCapture(opts: {
  path: string;
  body: Array<readonly [string, string]>;
  method: 'HMAC-SHA1' | 'RSA-SHA256';
  sign: (baseString: (url: string, sorted?: boolean) => string) => string;
  consumer?: string;
  url?: string;
}): CapturedRequest {
  const url = opts.url ?? `https://${HOST}/paynet/api/${opts.path}/55`;
  const oauth: Array<readonly [string, string]> = [
    ['oauth_consumer_key', opts.consumer ?? LOGIN],
    ['oauth_nonce', 'n0nce'],
    ['oauth_signature_method', opts.method],
    ['oauth_timestamp', '1767225600'],
    ['oauth_version', '1.0'],
  ];
  const signature = opts.sign((u, sorted) => base(u, [...opts.body, ...oauth], sorted));
  const header = `OAuth ${[...oauth, ['oauth_signature', signature] as const].map(([k, v]) => `${k}="${enc(v)}"`).join(', ')}`;
  return {
    method: 'POST',
    url,
    headers: {
      host: HOST,
      accept: 'application/vnd.pay+json',
      'content-type': 'application/x-www-form-urlencoded',
      authorization: header,
    },
    body: form(opts.body),
  };
}

const PAYOUT: Array<readonly [string, string]> = [
  ['client_orderid', 'p-1'],
  ['amount', '7.25'],
  ['currency', 'EUR'],
  ['order_desc', 'Two words'],
];
const hmacWith = (key: string) => (text: string) => createHmac('sha1', key).update(text).digest('base64');

function run(capture: CapturedRequest, extra: Partial<DiagnoseInput> = {}) {
  return diagnose({ capture, crypto, ...extra });
}

let publicA: CryptoKey;
beforeAll(async () => {
  publicA = (await importVerifyingKey(pem('merchant-a-public.pem'), crypto)).key;
});

describe('the first difference', () => {
  it('control: the term where the mistaken signing departs, with its character offset', async () => {
    const body: Array<readonly [string, string]> = [
      ['client_orderid', 'c-1'],
      ['amount', '10.50'],
      ['email', 'a@b.example'],
    ];
    const capture: CapturedRequest = {
      method: 'POST',
      url: `https://${HOST}/paynet/api/v2/sale/1111`,
      headers: { accept: 'application/vnd.pay+json' },
      body: `${form(body)}&control=${sha1(`1111c-110.5a@b.example${KEY}`)}`,
    };
    const d = await run(capture, { controlKey: KEY });
    expect(d.likelyCauses[0]).toMatchObject({ mistakeId: 'amount-major-units', confidence: 'confirmed' });
    expect(d.likelyCauses[0]!.evidence).toMatch(/signed as 10\.5 instead of 1050/);
    expect(d.firstDifference).toMatchObject({
      against: 'mistaken-signing',
      location: 'term',
      index: 2,
      name: 'amount',
      expected: '1050',
      actual: '10.5',
      offset: '1111c-1'.length + 2,
    });
    expect(d.likelyCauses[0]!.mistakenSigningInput).toBe('1111c-110.5a@b.example<merchant_control_key>');
  });

  it('OAuth: the URL part, pair by pair, or the parameter order', async () => {
    const url = `https://${HOST}/paynet/api/v2/payout/55`;
    const unsorted = oauthCapture({
      path: 'v2/payout',
      body: PAYOUT,
      method: 'HMAC-SHA1',
      sign: (b) => hmacWith(`${KEY}&`)(b(url, false)),
    });
    const d = await run(unsorted, { controlKey: KEY });
    expect(d.firstDifference).toMatchObject({
      location: 'parameter-order',
      index: 0,
      expected: 'amount=7.25',
      actual: 'client_orderid=p-1',
    });
    expect(d.firstDifference!.offset).toBe(`POST&${enc(url)}&`.length);
  });
});

describe('the pasted expected base string', () => {
  it('OAuth: segments of the difference, and where the gateway’s base string departs from ours', async () => {
    const url = `https://${HOST}/paynet/api/v2/payout/55`;
    const capture = oauthCapture({
      path: 'v2/payout',
      body: PAYOUT,
      method: 'HMAC-SHA1',
      sign: (b) => hmacWith(`${KEY}&`)(b(url)),
    });
    const ours = (await run(capture, { controlKey: KEY })).expected.oauth!.baseString;
    // The gateway behind a TLS terminator sees http://.
    const theirs = ours.replace('https%3A', 'http%3A');
    const d = await run(capture, { controlKey: KEY, expectedBaseString: `${theirs}\n` });
    expect(d.verdict).toBe('ok');
    expect(d.expectedDiff).toMatchObject({ equal: false, ours, theirs });
    expect(d.expectedDiff!.segments.filter((s) => s.op !== 'equal')).toEqual([{ op: 'removed', text: 's' }]);
    expect(d.firstDifference).toMatchObject({
      against: 'pasted-expected',
      location: 'url',
      offset: 'POST&http'.length,
    });
  });

  it('control: the sandbox’s signing-input (key masked) is compared term by term', async () => {
    const capture: CapturedRequest = {
      method: 'POST',
      url: `https://${HOST}/paynet/api/v2/void/1111`,
      headers: {},
      body: `${form([
        ['login', LOGIN],
        ['client_orderid', 'c-2'],
        ['orderid', '42'],
      ])}&control=${'0'.repeat(40)}`,
    };
    const d = await run(capture, {
      controlKey: KEY,
      expectedBaseString: `${LOGIN}c-243<merchant_control_key>`,
    });
    expect(d.expectedDiff?.theirs).toBe(`${LOGIN}c-243`);
    expect(d.firstDifference).toMatchObject({
      against: 'pasted-expected',
      location: 'term',
      index: 2,
      name: 'orderid',
    });
  });
});

describe('harder captures', () => {
  it('two mistakes at once (unsorted, over http) are both confirmed, each naming the other', async () => {
    const capture = oauthCapture({
      path: 'v2/payout',
      body: PAYOUT,
      method: 'HMAC-SHA1',
      sign: (b) => hmacWith(`${KEY}&`)(b(`http://${HOST}/paynet/api/v2/payout/55`, false)),
    });
    const d = await run(capture, { controlKey: KEY });
    const confirmed = d.likelyCauses.filter((c) => c.confidence === 'confirmed');
    expect(confirmed.map((c) => [c.mistakeId, c.together]).sort()).toEqual([
      ['http-vs-https', 'unsorted-parameters'],
      ['unsorted-parameters', 'http-vs-https'],
    ]);
  });

  it('raw HTTP does not say http or https: both are tried, and the one that matches is named', async () => {
    const capture = oauthCapture({
      path: 'v2/payout',
      body: PAYOUT,
      method: 'HMAC-SHA1',
      sign: (b) => hmacWith(`${KEY}&`)(b(`http://${HOST}/paynet/api/v2/payout/55`)),
    });
    const d = await run(capture, { controlKey: KEY, urlSchemeKnown: false });
    expect(d.verdict).toBe('ok');
    expect(d.signedUrl).toBe(`http://${HOST}/paynet/api/v2/payout/55`);
    expect(d.triedUrls.map((t) => t.matches)).toEqual([false, true]);
    expect(d.notes.join(' ')).toMatch(/matches when the URL is signed as http:/);
  });

  it('oauth_consumer_key carrying the control key: confirmed swap, and the key never comes out', async () => {
    const url = `https://${HOST}/paynet/api/v2/payout/55`;
    const capture = oauthCapture({
      path: 'v2/payout',
      body: PAYOUT,
      method: 'HMAC-SHA1',
      consumer: KEY,
      sign: (b) => hmacWith(`${enc(LOGIN)}&`)(b(url)),
    });
    const d = await run(capture, { controlKey: KEY, login: LOGIN });
    expect(d.likelyCauses[0]).toMatchObject({ mistakeId: 'key-swapped-with-login', confidence: 'confirmed' });
    // The capture itself carries the key (and so does the base string built from it); the
    // debugger's own words never repeat it.
    const words = JSON.stringify([
      d.likelyCauses.map((c) => [c.evidence, c.advice]),
      d.structuralFindings,
      d.firstDifference,
      d.notes,
    ]);
    expect(words).not.toContain(KEY);
  });

  it('a signature made by a pasted private key that is not the registered pair: the pair mismatch, and the wrong key confirmed', async () => {
    const url = `https://${HOST}/paynet/api/v4/payout-check/55`;
    const capture = oauthCapture({
      path: 'v4/payout-check',
      body: PAYOUT,
      method: 'RSA-SHA256',
      sign: (b) =>
        createSign('RSA-SHA256').update(b(url)).sign(pem('merchant-b-private-pkcs8.pem'), 'base64'),
    });
    const d = await run(capture, { publicKey: publicA, privateKeyText: pem('merchant-b-private-pkcs1.pem') });
    expect(d.verdict).toBe('mismatch');
    expect(d.structuralFindings.map((f) => f.id)).toContain('key-pair-mismatch');
    expect(d.likelyCauses[0]).toMatchObject({ mistakeId: 'wrong-key', confidence: 'confirmed' });
    expect(d.likelyCauses[0]!.evidence).toMatch(/the private key pasted/);
    expect(JSON.stringify(d)).not.toContain('PRIVATE KEY');
  });

  it('an RSA signature longer than the key makes: signed with another key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
    const url = `https://${HOST}/paynet/api/v4/payout-check/55`;
    const capture = oauthCapture({
      path: 'v4/payout-check',
      body: PAYOUT,
      method: 'RSA-SHA256',
      sign: (b) => createSign('RSA-SHA256').update(b(url)).sign(privateKey, 'base64'),
    });
    const d = await run(capture, { publicKey: publicA });
    expect(d.structuralFindings.find((f) => f.id === 'signature-length')?.message).toMatch(
      /384 bytes.*2048 bits/,
    );
    expect(d.likelyCauses[0]).toMatchObject({ mistakeId: 'wrong-key', confidence: 'possible' });
  });

  it('without any key: cannot-check, the structural findings and their possible causes', async () => {
    const capture = oauthCapture({
      path: 'v4/payout-check',
      body: [...PAYOUT, ['note', 'a+b']],
      method: 'RSA-SHA256',
      sign: () => 'AAAA',
    });
    capture.body = capture.body.replace('a%2Bb', 'a+b');
    delete capture.headers.accept;
    const d = await run(capture);
    expect(d.verdict).toBe('cannot-check');
    expect(d.structuralFindings.map((f) => f.id)).toEqual(
      expect.arrayContaining(['accept-missing', 'plus-in-body', 'unknown-parameter']),
    );
    expect(d.likelyCauses.map((c) => [c.mistakeId, c.confidence])).toContainEqual([
      'plus-for-space',
      'possible',
    ]);
  });

  it('a path no operation has: OPERATION_UNKNOWN with what to do', async () => {
    const err = await run({
      method: 'POST',
      url: 'https://gw.example/api/v9/nope/1',
      headers: {},
      body: '',
    }).catch((e: unknown) => e);
    expect(isPayError(err) && err.code).toBe('OPERATION_UNKNOWN');
    expect((err as Error).message).toMatch(/names no known operation/);
  });

  it('parses and diagnoses a curl capture end to end', async () => {
    const control = sha1(`1111c-31000a@b.example${KEY}`);
    const p = parseCapture(
      `curl 'https://${HOST}/paynet/api/v2/sale/1111' -d client_orderid=c-3 -d amount=10.00 --data-urlencode email=a@b.example -d control=${control}`,
    );
    const d = await run(p.request, { controlKey: KEY, headersComplete: p.headersComplete });
    expect(d.verdict).toBe('ok');
    expect(d.structuralFindings.map((f) => f.id)).toContain('accept-wrong');
  });
});

describe('inspectKeyText', () => {
  it('a BEGIN line edited by hand, a bare Base64 key, a public key, a container the tool cannot take', () => {
    const pkcs8 = pem('merchant-a-private-pkcs8.pem');
    const relabelled = pkcs8
      .replace(/BEGIN PRIVATE KEY/, 'BEGIN RSA PRIVATE KEY')
      .replace(/END PRIVATE KEY/, 'END RSA PRIVATE KEY');
    expect(inspectKeyText(relabelled).problems.map((p) => p.id)).toEqual(['key-relabelled']);
    expect(inspectKeyText(relabelled).structure).toBe('pkcs8-private');
    const bare = pkcs8.replace(/-----[^-]+-----/g, '').trim();
    expect(inspectKeyText(bare).problems.map((p) => p.id)).toEqual(['key-without-armor']);
    expect(inspectKeyText(pem('merchant-a-public.pem')).problems.map((p) => p.id)).toEqual(['key-is-public']);
    expect(inspectKeyText(pem('merchant-a-private-pkcs1.pem'), 'pkcs8').problems.map((p) => p.id)).toEqual([
      'key-container-mismatch',
    ]);
    expect(inspectKeyText(pkcs8, 'pkcs1').problems.map((p) => p.id)).toEqual(['key-container-mismatch']);
    expect(inspectKeyText(pkcs8, 'pkcs8').problems).toEqual([]);
    expect(inspectKeyText('hello').problems.map((p) => p.id)).toEqual(['key-not-pem']);
  });
});
