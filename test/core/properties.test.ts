/**
 * Property-based tests: cases drawn with fast-check (seeded; set FC_SEED to replay a run), sent in
 * one batch to the python oracle, and compared one by one with the core. At least 1,000 requests
 * per scheme on every run.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/catalog/index.ts';
import {
  buildRequest,
  decodeFormBody,
  encodeFormBody,
  isPayError,
  isValidAmount,
  percentEncode,
  toMinorUnits,
  webCryptoPort,
  type BuiltRequest,
  type ControlTerm,
  type EndpointRef,
  type Scheme,
  type SigningKey,
} from '../../src/core/index.ts';
import { importSigningKey } from '../../src/core/keys/key-containers.ts';
import { nodeRsaSha256Base64, parseOAuthHeaderIndependently } from '../oracles/node-crypto.ts';
import { generateRsa, keyDir, type RsaFixture } from '../oracles/openssl.ts';
import { runPythonOracle, type OracleParam, type RequestCase } from '../oracles/python-oracle.ts';

const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
const RUNS_PER_SCHEME = 1000;
const crypto = webCryptoPort();

function sample<T>(arb: fc.Arbitrary<T>, numRuns: number, offset: number): T[] {
  return fc.sample(arb, { numRuns, seed: SEED + offset });
}

/** Fails with the seed, the case number and the case itself (shortened), so a failure can be replayed. */
function agree(what: string, i: number, actual: unknown, expected: unknown, input: unknown): void {
  if (isDeepStrictEqual(actual, expected)) return;
  const shown = JSON.stringify(input);
  expect(
    actual,
    `${what} differs from the oracle (FC_SEED=${SEED}, case ${i}): ${shown.length > 1500 ? `${shown.slice(0, 1500)}…` : shown}`,
  ).toEqual(expected);
}

// ---- Arbitraries -------------------------------------------------------------------------

const SPECIAL = [
  ' ',
  '+',
  '&',
  '=',
  '%',
  '%20',
  '%2B',
  '!',
  "'",
  '(',
  ')',
  '*',
  '~',
  '-',
  '.',
  '_',
  '/',
  '?',
  '#',
  '@',
  ':',
  ';',
  ',',
  '"',
  '\\',
  '<',
  '>',
  '[',
  ']',
  '{',
  '}',
  '|',
  '^',
  '`',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
  '\u2028',
  'é',
  'ß',
  'Ж',
  '中',
  '😀',
  '𝄞',
  '👩‍👩‍👧',
  'e\u0301',
  'a',
  'Z',
  '0',
  '9',
];
const short = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...SPECIAL), maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constant('') },
);
const long = fc.string({
  unit: fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
  minLength: 500,
  maxLength: 3000,
});
/** A value: mostly short and awkward, now and then a few KB, sometimes empty. */
const value = fc.oneof({ weight: 30, arbitrary: short }, { weight: 1, arbitrary: long });
/** Names repeat often (a small pool), and sometimes collide with the oauth_ names. */
const NAME_POOL = [
  'amount',
  'email',
  'client_orderid',
  'orderid',
  'a',
  'a b',
  'A',
  'a=b',
  'a&b',
  'é',
  'oauth_nonce',
  'control',
  '',
];
const name = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...NAME_POOL) },
  { weight: 1, arbitrary: short },
);
const validAmount = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 10n ** 15n }),
    fc.option(fc.stringMatching(/^[0-9]{1,2}$/), { nil: undefined }),
  )
  .map(([w, c]) => (c === undefined ? w.toString() : `${w}.${c}`));
const param = fc.record({ name, value, keepEmpty: fc.boolean() }).chain((p) =>
  // An amount that a formula signs must be an amount; everything else may be any text.
  p.name === 'amount' ? validAmount.map((v) => ({ ...p, value: v })) : fc.constant(p),
);
const params = fc.array(param, { maxLength: 10 });
const endpoint: fc.Arbitrary<EndpointRef> = fc.record({
  kind: fc.constantFrom('endpoint' as const, 'group' as const),
  id: fc.stringMatching(/^[0-9]{1,12}$/),
});
const BASE_URLS = [
  'https://sandbox.example.com/paynet',
  'HTTPS://Gate.Example.COM:443/paynet/',
  'http://127.0.0.1:5173/api/sandbox',
  'https://gate.example.com:8443',
  'http://EXAMPLE.com:80/a%20b/',
  'http://localhost:80//',
];
const baseUrl = fc.constantFrom(...BASE_URLS);
const pathOf = (scheme: Scheme) =>
  fc.constantFrom(...OPERATIONS.filter((o) => o.scheme === scheme).map((o) => o.path));
const term: fc.Arbitrary<ControlTerm> = fc.oneof(
  fc.constant({ kind: 'login' as const }),
  fc.constant({ kind: 'endpointId' as const }),
  fc.constant({ kind: 'field' as const, name: 'amount', minorUnits: true }),
  name.filter((n) => n !== 'amount' && n !== 'control').map((n) => ({ kind: 'field' as const, name: n })),
);
const secret = value.filter((v) => v !== '');

interface Drawn {
  scheme: Scheme;
  path: string;
  baseUrl: string;
  endpoint: EndpointRef;
  params: OracleParam[];
  login: string;
  controlKey: string;
  formula: ControlTerm[];
  nonce: string;
  timestamp: string;
}

function drawn(scheme: Scheme): fc.Arbitrary<Drawn> {
  return fc.record({
    scheme: fc.constant(scheme),
    path: pathOf(scheme),
    baseUrl,
    endpoint,
    params,
    login: value,
    controlKey: secret,
    formula: scheme === 'control' ? fc.array(term, { minLength: 1, maxLength: 6 }) : fc.constant([]),
    nonce: fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{32}$/), short),
    timestamp: fc.bigInt({ min: 0n, max: 10n ** 10n }).map(String),
  });
}

/** The drawn requests must actually hold the awkward inputs the properties are about. */
function assertCoverage(cases: readonly Drawn[]): void {
  const values = cases.flatMap((d) => d.params.map((p) => p.value));
  const has = (re: RegExp) => values.filter((v) => re.test(v)).length;
  const counts = {
    repeatedNames: cases.filter((d) => {
      const names = d.params.map((p) => p.name).filter((n) => n !== '');
      return new Set(names).size < names.length;
    }).length,
    astral: has(/[\u{10000}-\u{10FFFF}]/u),
    reserved: has(/[!'()*]/),
    plus: has(/\+/),
    space: has(/ /),
    ampersand: has(/&/),
    equals: has(/=/),
    percent: has(/%/),
    empty: values.filter((v) => v === '').length,
    keptEmpty: cases.filter((d) => d.params.some((p) => p.value === '' && p.keepEmpty && p.name !== ''))
      .length,
    long: values.filter((v) => v.length >= 500).length,
  };
  for (const [what, n] of Object.entries(counts)) {
    expect(
      n,
      `too few drawn cases with ${what} (FC_SEED=${SEED}): ${JSON.stringify(counts)}`,
    ).toBeGreaterThanOrEqual(20);
  }
}

async function build(d: Drawn, privateKey?: CryptoKey): Promise<BuiltRequest> {
  return buildRequest({
    operation: { path: d.path, scheme: d.scheme, formula: d.formula },
    baseUrl: d.baseUrl,
    endpoint: d.endpoint,
    params: d.params.map((p) => ({ ...p, source: 'form' as const })),
    credentials: { login: d.login, controlKey: d.controlKey, ...(privateKey ? { privateKey } : {}) },
    crypto,
    clock: () => 0,
    nonce: () => 'unused',
    pinned: { nonce: d.nonce, timestamp: d.timestamp },
  });
}

function oracleCase(d: Drawn): RequestCase {
  return { kind: 'request', ...d };
}

// ---- Keys --------------------------------------------------------------------------------

let dir: ReturnType<typeof keyDir>;
let rsa: RsaFixture;
let signingKey: SigningKey;
beforeAll(async () => {
  dir = keyDir();
  rsa = generateRsa(dir.dir, 2048);
  signingKey = await importSigningKey(rsa.pkcs8Pem, crypto);
});
afterAll(() => dir?.remove());

// ---- Properties --------------------------------------------------------------------------

describe(`signing matches the python oracle (FC_SEED=${SEED})`, () => {
  it(`scheme C (control): ${RUNS_PER_SCHEME} random requests`, async () => {
    const cases = sample(drawn('control'), RUNS_PER_SCHEME, 1);
    const answers = runPythonOracle(cases.map(oracleCase));
    for (const [i, d] of cases.entries()) {
      const req = await build(d);
      const a = answers[i]!;
      agree('url', i, req.url, a.url, d);
      agree(
        'body',
        i,
        req.body.map((p) => [p.name, p.value]),
        a.body,
        d,
      );
      agree('bodyText', i, req.bodyText, a.bodyText, d);
      if (req.signing.scheme !== 'control') throw new Error('expected a control trace');
      agree(
        'terms',
        i,
        req.signing.terms.map((t) => t.value),
        a.control!.terms,
        d,
      );
      agree('joined', i, req.signing.joined, a.control!.joined, d);
      agree('control', i, req.signing.signature, a.control!.signature, d);
      agree(
        'problems',
        i,
        req.problems.map((p) => p.code),
        d.login === '' && d.formula.some((t) => t.kind === 'login') ? ['LOGIN_MISSING'] : [],
        d,
      );
    }
    expect(cases.length).toBe(RUNS_PER_SCHEME);
    assertCoverage(cases);
  });

  for (const scheme of ['oauth-hmac-sha1', 'oauth-rsa-sha256'] as const) {
    it(`scheme ${scheme === 'oauth-hmac-sha1' ? 'O1 (HMAC-SHA1)' : 'O2 (RSA-SHA256, 2048-bit key)'}: ${RUNS_PER_SCHEME} random requests`, async () => {
      const cases = sample(drawn(scheme), RUNS_PER_SCHEME, scheme === 'oauth-hmac-sha1' ? 2 : 3);
      const answers = runPythonOracle(cases.map(oracleCase));
      for (const [i, d] of cases.entries()) {
        const req = await build(d, signingKey.key);
        const a = answers[i]!;
        const o = a.oauth!;
        agree('url', i, req.url, a.url, d);
        agree(
          'body',
          i,
          req.body.map((p) => [p.name, p.value]),
          a.body,
          d,
        );
        agree('bodyText', i, req.bodyText, a.bodyText, d);
        if (req.signing.scheme === 'control') throw new Error('expected an OAuth trace');
        const t = req.signing;
        agree('normalizedUrl', i, t.normalizedUrl, o.normalizedUrl, d);
        agree('parameterString', i, t.parameterString, o.parameterString, d);
        agree('baseString', i, t.base.baseString, o.baseString, d);
        const expected =
          scheme === 'oauth-hmac-sha1' ? o.signature : nodeRsaSha256Base64(rsa.pkcs8Pem, o.baseString);
        agree('signature', i, t.signature, expected, d);
        const back = Object.fromEntries(parseOAuthHeaderIndependently(t.authorization ?? ''));
        agree(
          'Authorization header',
          i,
          back,
          {
            oauth_consumer_key: d.login,
            oauth_nonce: d.nonce,
            oauth_signature: expected,
            oauth_signature_method: scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256',
            oauth_timestamp: d.timestamp,
            oauth_version: '1.0',
          },
          d,
        );
        agree(
          'problems',
          i,
          req.problems.map((p) => p.code),
          d.login === '' ? ['LOGIN_MISSING'] : [],
          d,
        );
      }
      expect(cases.length).toBe(RUNS_PER_SCHEME);
      assertCoverage(cases);
    });
  }
});

describe(`encoding and amounts (FC_SEED=${SEED})`, () => {
  it('percentEncode equals python quote(safe="~") on 3,000 strings', () => {
    const values = sample(value, 3000, 4);
    const answers = runPythonOracle(values.map((v) => ({ kind: 'encode' as const, value: v })));
    values.forEach((v, i) => agree('percentEncode', i, percentEncode(v), answers[i]!.encoded, v));
  });

  it('percentEncode turns a lone surrogate into U+FFFD instead of throwing', () => {
    const withLone = fc.string({
      unit: fc.oneof(
        fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
        fc.constantFrom(...SPECIAL),
      ),
      maxLength: 10,
    });
    fc.assert(
      fc.property(withLone, (s) => {
        expect(percentEncode(s)).toBe(percentEncode(s.toWellFormed()));
      }),
      { seed: SEED + 5, numRuns: 500 },
    );
  });

  it('decodeFormBody(encodeFormBody(pairs)) gives the pairs back', () => {
    const pairs = fc.array(fc.record({ name: value, value }), { maxLength: 8 });
    fc.assert(
      fc.property(pairs, (list) => {
        expect(decodeFormBody(encodeFormBody(list))).toEqual(list);
      }),
      { seed: SEED + 6, numRuns: 1000 },
    );
  });

  it('decodeFormBody reads bodies that python urlencode writes (space as +)', () => {
    const lists = sample(fc.array(fc.tuple(value, value), { minLength: 1, maxLength: 6 }), 500, 7);
    const answers = runPythonOracle(lists.map((pairs) => ({ kind: 'form-plus' as const, pairs })));
    lists.forEach((pairs, i) =>
      agree(
        'decodeFormBody',
        i,
        decodeFormBody(answers[i]!.body).map((p) => [p.name, p.value]),
        pairs,
        pairs,
      ),
    );
  });

  it('toMinorUnits equals exact Fraction arithmetic on 3,000 texts', () => {
    const AMOUNT_CHARS = ['0', '1', '2', '5', '9', '.', '.', ',', '-', '+', 'e', 'E', ' ', '\t', 'x', '٣'];
    const text = fc.oneof(
      validAmount,
      fc
        .tuple(fc.constantFrom('', ' ', '-', '+', '0'), validAmount, fc.constantFrom('', ' ', '0', '.', '5'))
        .map((t) => t.join('')),
      fc.string({ unit: fc.constantFrom(...AMOUNT_CHARS), maxLength: 12 }),
      fc.stringMatching(/^[0-9]{1,40}\.[0-9]{0,4}$/),
    );
    const texts = sample(text, 3000, 8);
    const answers = runPythonOracle(texts.map((t) => ({ kind: 'amount' as const, text: t })));
    texts.forEach((t, i) => {
      const a = answers[i]!;
      let got: { ok: true; minor: string } | { ok: false; error: string };
      try {
        got = { ok: true, minor: toMinorUnits(t) };
      } catch (e) {
        if (!isPayError(e)) throw e;
        const code = e.code;
        const error =
          code === 'AMOUNT_EMPTY'
            ? 'empty'
            : code === 'AMOUNT_NEGATIVE'
              ? 'negative'
              : code.startsWith('AMOUNT_')
                ? 'invalid'
                : code;
        got = { ok: false, error };
      }
      agree('toMinorUnits', i, got, a, t);
      agree('isValidAmount', i, isValidAmount(t), a.ok, t);
    });
  });
});
