/**
 * Every catalog operation (30) signed by buildRequest with its own scheme, pinned nonce and
 * timestamp, and compared with independent implementations: the python oracle (control and base
 * string, HMAC-SHA1), Node's crypto.sign and `openssl dgst -sha256 -sign` (RSA-SHA256), and the
 * oauth-1.0a npm package as a third opinion on HMAC-SHA1.
 */
import OAuth from 'oauth-1.0a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleValues, OPERATIONS, type Operation } from '../../src/catalog/index.ts';
import {
  buildRequest,
  webCryptoPort,
  type BuiltRequest,
  type EndpointRef,
  type InputParam,
  type SigningKey,
} from '../../src/core/index.ts';
import { importSigningKey } from '../../src/core/keys/key-containers.ts';
import {
  hmacSha1Base64,
  nodeRsaSha256Base64,
  parseOAuthHeaderIndependently,
} from '../oracles/node-crypto.ts';
import { generateRsa, keyDir, opensslSignBase64, type RsaFixture } from '../oracles/openssl.ts';
import { runPythonOracle, type RequestAnswer, type RequestCase } from '../oracles/python-oracle.ts';

const crypto = webCryptoPort();
const BASE_URL = 'https://Sandbox.Example.com:443/paynet/';
const LOGIN = 'demo-merchant';
// Reserved characters in the key: the HMAC key is the *encoded* control key followed by `&`.
const CONTROL_KEY = 'B17F59B4-A7DC+41B4&8FF9=37D9 86B43D20é';
const NONCE = 'kllo9940pd9333jhK1';
const TIMESTAMP = '1191242096';

/** The form an operation's page would send: example values, the login from the profile, and awkward text where there is no example. */
function paramsFor(op: Operation): InputParam[] {
  const examples = exampleValues(op);
  return op.fields.map((f): InputParam => {
    if (f.fromProfile === 'login') return { name: f.name, value: LOGIN, source: 'profile' };
    if (examples[f.name] !== undefined) return { name: f.name, value: examples[f.name]!, source: 'form' };
    if (f.type === 'amount') return { name: f.name, value: '1.00', source: 'form' };
    if (f.name === 'ssn') return { name: f.name, value: '', source: 'form' }; // left out of the body
    return { name: f.name, value: `${f.name} ✓ a&b=c+d %20 "q" 😀`, source: 'form' };
  });
}

function endpointFor(i: number): EndpointRef {
  return i % 3 === 2 ? { kind: 'group', id: String(7000 + i) } : { kind: 'endpoint', id: String(1111 + i) };
}

const EXPECTED_HEADER_ORDER = [
  'oauth_consumer_key',
  'oauth_nonce',
  'oauth_signature',
  'oauth_signature_method',
  'oauth_timestamp',
  'oauth_version',
];

let dir: ReturnType<typeof keyDir>;
let rsa: RsaFixture;
let signingKey: SigningKey;
const built = new Map<string, BuiltRequest>();
const oracle = new Map<string, RequestAnswer>();

beforeAll(async () => {
  dir = keyDir();
  rsa = generateRsa(dir.dir, 2048);
  signingKey = await importSigningKey(rsa.pkcs1Pem, crypto);
  const cases: RequestCase[] = [];
  for (const [i, op] of OPERATIONS.entries()) {
    const params = paramsFor(op);
    const endpoint = endpointFor(i);
    built.set(
      op.path,
      await buildRequest({
        operation: op,
        baseUrl: BASE_URL,
        endpoint,
        params,
        credentials: { login: LOGIN, controlKey: CONTROL_KEY, privateKey: signingKey.key },
        crypto,
        clock: () => {
          throw new Error('the timestamp is pinned');
        },
        nonce: () => {
          throw new Error('the nonce is pinned');
        },
        pinned: { nonce: NONCE, timestamp: TIMESTAMP },
      }),
    );
    cases.push({
      kind: 'request',
      scheme: op.scheme,
      baseUrl: BASE_URL,
      path: op.path,
      endpoint,
      params,
      login: LOGIN,
      controlKey: CONTROL_KEY,
      ...(op.formula ? { formula: op.formula } : {}),
      nonce: NONCE,
      timestamp: TIMESTAMP,
    });
  }
  runPythonOracle(cases).forEach((a, i) => oracle.set(OPERATIONS[i]!.path, a));
});

afterAll(() => dir?.remove());

describe('the catalog', () => {
  it('has the 35 operations, each path once', () => {
    expect(OPERATIONS).toHaveLength(35);
    expect(new Set(OPERATIONS.map((o) => o.path)).size).toBe(35);
    const count = (s: string) => OPERATIONS.filter((o) => o.scheme === s).length;
    expect(count('control') + count('oauth-hmac-sha1') + count('oauth-rsa-sha256')).toBe(35);
    for (const o of OPERATIONS) if (o.scheme === 'control') expect(o.formula?.length).toBeGreaterThan(0);
  });
});

describe.each(OPERATIONS.map((op) => [`${op.path} (${op.scheme})`, op] as const))('%s', (_name, op) => {
  it('matches the independent implementations', () => {
    const req = built.get(op.path)!;
    const a = oracle.get(op.path)!;
    expect(req.problems).toEqual([]);
    expect(req.url).toBe(a.url);
    expect(req.body.map((p) => [p.name, p.value])).toEqual(a.body);
    expect(req.bodyText).toBe(a.bodyText);
    expect(req.headers.slice(0, 2).map((h) => `${h.name}: ${h.value}`)).toEqual([
      'Accept: application/vnd.pay+json',
      'Content-Type: application/x-www-form-urlencoded',
    ]);
    const trace = req.signing;

    if (trace.scheme === 'control') {
      const c = a.control!;
      expect(trace.terms.map((t) => t.value)).toEqual(c.terms);
      expect(trace.joined).toBe(c.joined);
      expect(trace.signature).toBe(c.signature);
      expect(req.body.at(-1)).toEqual({ name: 'control', value: c.signature, source: 'computed' });
      expect(req.headers).toHaveLength(2);
      return;
    }

    const o = a.oauth!;
    expect(trace.scheme).toBe(op.scheme);
    expect(trace.nonce).toBe(NONCE);
    expect(trace.timestamp).toBe(TIMESTAMP);
    expect(trace.normalizedUrl).toBe(o.normalizedUrl);
    expect(trace.parameterString).toBe(o.parameterString);
    expect(trace.base.encodedUrl).toBe(o.encodedUrl);
    expect(trace.base.encodedParameters).toBe(o.encodedParameters);
    expect(trace.base.baseString).toBe(o.baseString);
    expect(trace.parameters.filter((p) => p.source === 'body').map((p) => [p.name, p.value])).toEqual(a.body);
    expect(trace.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('&')).toBe(o.parameterString);

    const expectedSignature =
      op.scheme === 'oauth-hmac-sha1' ? o.signature! : nodeRsaSha256Base64(rsa.pkcs8Pem, o.baseString);
    expect(trace.signature).toBe(expectedSignature);

    // The Authorization header, read back with a parser of our own.
    const auth = req.headers.find((h) => h.name === 'Authorization');
    expect(auth?.value).toBe(trace.authorization);
    expect(req.headers.map((h) => h.name)).toEqual(['Accept', 'Content-Type', 'Authorization']);
    const back = parseOAuthHeaderIndependently(auth!.value);
    expect(back.map(([n]) => n)).toEqual(EXPECTED_HEADER_ORDER);
    expect(Object.fromEntries(back)).toEqual({
      oauth_consumer_key: LOGIN,
      oauth_nonce: NONCE,
      oauth_signature: expectedSignature,
      oauth_signature_method: op.scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256',
      oauth_timestamp: TIMESTAMP,
      oauth_version: '1.0',
    });
    // The description never carries the secret.
    expect(JSON.stringify(req)).not.toContain(CONTROL_KEY);
  });

  if (op.scheme === 'oauth-hmac-sha1') {
    it('agrees with the oauth-1.0a package', () => {
      const req = built.get(op.path)!;
      const oauth = new OAuth({
        consumer: { key: LOGIN, secret: CONTROL_KEY },
        signature_method: 'HMAC-SHA1',
        hash_function: (base, key) => hmacSha1Base64(key, base),
      });
      const data = Object.fromEntries(req.body.map((p) => [p.name, p.value]));
      expect(Object.keys(data)).toHaveLength(req.body.length); // the package cannot hold repeated names
      const request = { url: oracle.get(op.path)!.oauth!.normalizedUrl, method: 'POST', data };
      const oauthData = {
        oauth_consumer_key: LOGIN,
        oauth_nonce: NONCE,
        oauth_signature_method: 'HMAC-SHA1',
        oauth_timestamp: Number(TIMESTAMP),
        oauth_version: '1.0',
      };
      if (req.signing.scheme === 'control') throw new Error('unreachable');
      expect(oauth.getBaseString(request, oauthData)).toBe(req.signing.base.baseString);
      expect(oauth.getSignature(request, undefined, oauthData)).toBe(req.signing.signature);
    });
  }

  if (op.scheme === 'oauth-rsa-sha256') {
    it('is byte-identical to openssl dgst -sha256 -sign (PKCS#1 and PKCS#8 key files)', () => {
      const req = built.get(op.path)!;
      const base = oracle.get(op.path)!.oauth!.baseString;
      if (req.signing.scheme === 'control') throw new Error('unreachable');
      expect(opensslSignBase64(rsa.pkcs1Path, base)).toBe(req.signing.signature);
      expect(opensslSignBase64(rsa.pkcs8Path, base)).toBe(req.signing.signature);
    });
  }
});
