/**
 * Known-answer vectors (test/vectors/*.json, named after their source). Each vector is checked
 * three ways: against itself with Node's crypto (the file is right), against the python oracle,
 * and through the core, intermediate value by intermediate value.
 */
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import {
  buildAuthorizationHeader,
  buildBaseString,
  buildRequest,
  callbackControl,
  collectSignatureParameters,
  decodeFormBody,
  encodeFormBody,
  hmacSigningKey,
  isPayError,
  isValidAmount,
  normalizeParameters,
  normalizeUrl,
  parseAuthorizationHeader,
  percentDecode,
  percentEncode,
  signControl,
  signHmacSha1,
  toMinorUnits,
  webCryptoPort,
  type BaseString,
  type ControlTerm,
  type EndpointRef,
  type PayErrorCode,
} from '../../src/core/index.ts';
import { hmacSha1Base64, parseOAuthHeaderIndependently, sha1Hex } from '../oracles/node-crypto.ts';
import { runPythonOracle, type RequestCase } from '../oracles/python-oracle.ts';
import { loadVector, vectorFiles } from '../oracles/vectors.ts';

const crypto = webCryptoPort();
const used = new Set<string>();
function vector<T>(name: string): T {
  used.add(name);
  return loadVector<T>(name);
}
const noClock = (): number => {
  throw new Error('scheme C must not read the clock');
};
const noNonce = (): string => {
  throw new Error('scheme C must not draw a nonce');
};

/** Expects `fn` to throw a PayError with `code`; returns it. */
function expectPayError(fn: () => unknown, code: PayErrorCode): Error {
  try {
    fn();
  } catch (e) {
    expect(isPayError(e), `expected a PayError, got ${String(e)}`).toBe(true);
    expect((e as { code: string }).code).toBe(code);
    expect((e as Error).message.length).toBeGreaterThan(10);
    return e as Error;
  }
  throw new Error(`expected PayError ${code}, nothing was thrown`);
}

interface ControlVector {
  cases: Array<{
    name: string;
    operation: string;
    baseUrl: string;
    endpoint: EndpointRef;
    login: string;
    controlKey: string;
    formula: ControlTerm[];
    params: Array<{ name: string; value: string }>;
    expected: {
      terms: Array<{ label: string; value: string; source: string; original?: string }>;
      joined: string;
      signingInput: string;
      maskedInput: string;
      signature: string;
      url: string;
      headers: Array<[string, string]>;
      bodyOrder: string[];
      omitted: string[];
      bodyText: string;
    };
  }>;
}

describe('gateway-notes-control.json: the published sale example', () => {
  const v = vector<ControlVector>('gateway-notes-control.json');

  it('the vector is consistent with itself (Node sha1) and with the python oracle', () => {
    const answers = runPythonOracle(
      v.cases.map((c): RequestCase => ({
        kind: 'request',
        scheme: 'control',
        baseUrl: c.baseUrl,
        path: c.operation,
        endpoint: c.endpoint,
        params: c.params,
        login: c.login,
        controlKey: c.controlKey,
        formula: c.formula,
      })),
    );
    v.cases.forEach((c, i) => {
      const e = c.expected;
      expect(e.terms.map((t) => t.value).join('')).toBe(e.joined);
      expect(e.joined + c.controlKey).toBe(e.signingInput);
      expect(sha1Hex(e.signingInput)).toBe(e.signature);
      const a = answers[i]!;
      expect(a.control).toEqual({
        terms: e.terms.map((t) => t.value),
        joined: e.joined,
        signature: e.signature,
      });
      expect(a.url).toBe(e.url);
      expect(a.bodyText).toBe(e.bodyText);
      expect(a.body.map(([n]) => n)).toEqual(e.bodyOrder);
    });
  });

  it.each(v.cases.map((c) => [c.name, c] as const))(
    '%s: the catalog entry carries the same formula',
    (_n, c) => {
      const op = findOperation(c.operation);
      expect(op?.scheme).toBe('control');
      expect(op?.formula).toEqual(c.formula);
    },
  );

  it.each(v.cases.map((c) => [c.name, c] as const))(
    '%s: signControl gives every intermediate value',
    async (_n, c) => {
      const body = c.params.filter((p) => p.value !== '');
      const trace = await signControl(
        c.formula,
        { login: c.login, endpoint: c.endpoint, body },
        c.controlKey,
        crypto,
      );
      expect(trace.terms).toHaveLength(c.expected.terms.length);
      c.expected.terms.forEach((t, i) => expect(trace.terms[i]).toMatchObject(t));
      expect(trace.joined).toBe(c.expected.joined);
      expect(trace.maskedInput).toBe(c.expected.maskedInput);
      expect(trace.signature).toBe(c.expected.signature);
      expect(trace.problems).toEqual([]);
    },
  );

  it.each(v.cases.map((c) => [c.name, c] as const))(
    '%s: buildRequest with the catalog entry',
    async (_n, c) => {
      const op = findOperation(c.operation)!;
      const built = await buildRequest({
        operation: op,
        baseUrl: c.baseUrl,
        endpoint: c.endpoint,
        params: c.params.map((p) => ({ ...p, source: 'form' as const })),
        credentials: { login: c.login, controlKey: c.controlKey },
        crypto,
        clock: noClock,
        nonce: noNonce,
      });
      const e = c.expected;
      expect(built.method).toBe('POST');
      expect(built.url).toBe(e.url);
      expect(built.headers.map((h) => [h.name, h.value])).toEqual(e.headers);
      expect(built.body.map((p) => p.name)).toEqual(e.bodyOrder);
      expect(built.body.at(-1)).toEqual({ name: 'control', value: e.signature, source: 'computed' });
      expect(built.bodyText).toBe(e.bodyText);
      expect(built.omitted.map((o) => o.name)).toEqual(e.omitted);
      expect(built.problems).toEqual([]);
      expect(built.signing.scheme).toBe('control');
      if (built.signing.scheme !== 'control') return;
      expect(built.signing.joined).toBe(e.joined);
      expect(built.signing.signature).toBe(e.signature);
      // The description of the request never carries the key.
      expect(JSON.stringify(built)).not.toContain(c.controlKey);
    },
  );
});

interface CallbackVector {
  cases: Array<{
    name: string;
    fields: { status: string; orderid: string; merchantOrder: string };
    controlKey: string;
    expected: { signingInput: string; signature: string };
  }>;
}

describe('gateway-notes-callback.json: callback control', () => {
  const v = vector<CallbackVector>('gateway-notes-callback.json');
  it.each(v.cases.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const f = c.fields;
    expect(f.status + f.orderid + f.merchantOrder + c.controlKey).toBe(c.expected.signingInput);
    expect(sha1Hex(c.expected.signingInput)).toBe(c.expected.signature);
    expect(await callbackControl(c.fields, c.controlKey, crypto)).toBe(c.expected.signature);
  });
});

interface EncodingVector {
  cases: Array<{ input: string; encoded: string; note: string }>;
}

describe('gateway-notes-encoding.json: percent-encoding', () => {
  const v = vector<EncodingVector>('gateway-notes-encoding.json');
  it('python quote(safe="~") agrees with every vector', () => {
    const answers = runPythonOracle(v.cases.map((c) => ({ kind: 'encode' as const, value: c.input })));
    expect(answers.map((a) => a.encoded)).toEqual(v.cases.map((c) => c.encoded));
  });
  it.each(v.cases.map((c) => [c.input, c] as const))('%s', (_n, c) => {
    expect(percentEncode(c.input)).toBe(c.encoded);
    expect(percentDecode(c.encoded, false)).toBe(c.input);
    expect(encodeFormBody([{ name: c.input, value: c.input }])).toBe(`${c.encoded}=${c.encoded}`);
    expect(decodeFormBody(`${c.encoded}=${c.encoded}`)).toEqual([{ name: c.input, value: c.input }]);
  });
});

interface AmountVector {
  valid: Array<{ amount: string; minor: string }>;
  invalid: Array<{ amount: string; code: PayErrorCode }>;
}

describe('gateway-notes-amounts.json: minor units', () => {
  const v = vector<AmountVector>('gateway-notes-amounts.json');
  it('python Fraction arithmetic agrees', () => {
    const all = [...v.valid.map((c) => c.amount), ...v.invalid.map((c) => c.amount)];
    const answers = runPythonOracle(all.map((text) => ({ kind: 'amount' as const, text })));
    expect(answers.slice(0, v.valid.length)).toEqual(v.valid.map((c) => ({ ok: true, minor: c.minor })));
    for (const a of answers.slice(v.valid.length)) expect(a.ok).toBe(false);
  });
  it.each(v.valid.map((c) => [c.amount, c] as const))('%s is valid', (_n, c) => {
    expect(toMinorUnits(c.amount)).toBe(c.minor);
    expect(isValidAmount(c.amount)).toBe(true);
  });
  it.each(v.invalid.map((c) => [JSON.stringify(c.amount), c] as const))('%s is refused', async (_n, c) => {
    expectPayError(() => toMinorUnits(c.amount), c.code);
    expect(isValidAmount(c.amount)).toBe(false);
    // Inside a control formula the same problem blocks the signature instead of throwing.
    const trace = await signControl(
      [{ kind: 'field', name: 'amount', minorUnits: true }],
      { login: 'm', endpoint: { kind: 'endpoint', id: '1' }, body: [{ name: 'amount', value: c.amount }] },
      'key',
      crypto,
    );
    expect(trace.problems.map((p) => p.code)).toEqual([c.code]);
    expect(trace.signature).toBeNull();
  });
  it('every error code is distinct', () => {
    expect(new Set(v.invalid.map((c) => c.code)).size).toBe(v.invalid.length);
  });
});

interface NormalizeVector {
  cases: Array<{ url: string; normalized: string; note: string }>;
  invalid: Array<{ url: string; code: PayErrorCode; note: string }>;
}

describe('rfc5849-normalize-url.json: base string URI', () => {
  const v = vector<NormalizeVector>('rfc5849-normalize-url.json');
  it('python urlsplit normalisation agrees', () => {
    const answers = runPythonOracle(v.cases.map((c) => ({ kind: 'normalize-url' as const, url: c.url })));
    expect(answers.map((a) => a.normalized)).toEqual(v.cases.map((c) => c.normalized));
  });
  it.each(v.cases.map((c) => [c.note, c] as const))('%s', (_n, c) => {
    expect(normalizeUrl(c.url)).toBe(c.normalized);
  });
  it.each(v.invalid.map((c) => [c.note, c] as const))('refused: %s', (_n, c) => {
    expectPayError(() => normalizeUrl(c.url), c.code);
  });
});

interface PhotosVector {
  request: {
    method: string;
    url: string;
    query: Array<[string, string]>;
    oauth: Array<[string, string]>;
    consumerSecret: string;
    tokenSecret: string;
  };
  expected: {
    sortedNames: string[];
    parameterString: string;
    normalizedUrl: string;
    method: string;
    encodedUrl: string;
    encodedParameters: string;
    baseString: string;
    signingKey: string;
    signature: string;
    headerSignature: string;
  };
}

const pairs = (list: Array<[string, string]>) => list.map(([name, value]) => ({ name, value }));

describe('rfc5849-photos.json: the oauth.net photos example', () => {
  const { request: r, expected: e } = vector<PhotosVector>('rfc5849-photos.json');

  it('the vector is consistent with itself (Node HMAC) and with the python oracle', () => {
    expect(hmacSha1Base64(e.signingKey, e.baseString)).toBe(e.signature);
    expect(`${e.method}&${e.encodedUrl}&${e.encodedParameters}`).toBe(e.baseString);
    const [a] = runPythonOracle([
      {
        kind: 'oauth-raw',
        method: r.method,
        url: r.url,
        oauth: r.oauth,
        consumerSecret: r.consumerSecret,
        tokenSecret: r.tokenSecret,
      },
    ]);
    expect(a).toEqual({
      normalizedUrl: e.normalizedUrl,
      parameterString: e.parameterString,
      encodedUrl: e.encodedUrl,
      encodedParameters: e.encodedParameters,
      baseString: e.baseString,
      signingKey: e.signingKey,
      signature: e.signature,
    });
  });

  it('every step of the core', async () => {
    const query = decodeFormBody(new URL(r.url).search.slice(1));
    expect(query).toEqual(pairs(r.query));
    const params = collectSignatureParameters(query, pairs(r.oauth));
    expect(params.every((p) => p.included)).toBe(true);
    expect(params.filter((p) => p.source === 'body').map((p) => p.name)).toEqual(['file', 'size']);
    const { sorted, joined } = normalizeParameters(params);
    expect(sorted.map((p) => p.name)).toEqual(e.sortedNames);
    expect(joined).toBe(e.parameterString);
    const url = normalizeUrl(r.url);
    expect(url).toBe(e.normalizedUrl);
    const base = buildBaseString(r.method.toLowerCase(), url, joined);
    expect(base).toEqual({
      method: e.method,
      encodedUrl: e.encodedUrl,
      encodedParameters: e.encodedParameters,
      baseString: e.baseString,
    });
    const key = hmacSigningKey(r.consumerSecret, r.tokenSecret);
    expect(key).toBe(e.signingKey);
    const signature = await signHmacSha1(base.baseString, key, crypto);
    expect(signature).toBe(e.signature);

    const header = buildAuthorizationHeader([
      ...pairs(r.oauth),
      { name: 'oauth_signature', value: signature },
    ]);
    expect(header).toContain(`oauth_signature="${e.headerSignature}"`);
    const back = parseOAuthHeaderIndependently(header);
    expect(Object.fromEntries(back)).toEqual(
      Object.fromEntries([...r.oauth, ['oauth_signature', e.signature]]),
    );
    expect(parseAuthorizationHeader(header)).toEqual(back.map(([name, value]) => ({ name, value })));
  });
});

interface BaseStringVector {
  request: {
    method: string;
    url: string;
    form: string;
    query: Array<[string, string]>;
    body: Array<[string, string]>;
    oauth: Array<[string, string]>;
  };
  expected: {
    excluded: string[];
    sorted: Array<[string, string]>;
    parameterString: string;
    normalizedUrl: string;
    baseString: string;
  };
}

describe('rfc5849-base-string-example.json: RFC 5849 §3.4.1 worked example', () => {
  const { request: r, expected: e } = vector<BaseStringVector>('rfc5849-base-string-example.json');

  it('the python oracle agrees', () => {
    const [a] = runPythonOracle([
      { kind: 'oauth-raw', method: r.method, url: r.url, form: r.form, oauth: r.oauth },
    ]);
    expect(a).toMatchObject({
      normalizedUrl: e.normalizedUrl,
      parameterString: e.parameterString,
      baseString: e.baseString,
    });
  });

  it('every step of the core', () => {
    const query = decodeFormBody(new URL(r.url).search.slice(1));
    expect(query).toEqual(pairs(r.query));
    const body = decodeFormBody(r.form);
    expect(body).toEqual(pairs(r.body));
    const params = collectSignatureParameters([...query, ...body], pairs(r.oauth));
    expect(params.filter((p) => !p.included).map((p) => p.name)).toEqual(e.excluded);
    for (const p of params.filter((x) => !x.included)) expect(p.excludedBecause).toMatch(/RFC 5849/);
    const { sorted, joined } = normalizeParameters(params);
    expect(sorted.map((p) => [p.encodedName, p.encodedValue])).toEqual(e.sorted);
    expect(joined).toBe(e.parameterString);
    const url = normalizeUrl(r.url);
    expect(url).toBe(e.normalizedUrl);
    expect(buildBaseString(r.method, url, joined).baseString).toBe(e.baseString as BaseString);
  });
});

interface VendorVector {
  source: string;
  cases: Array<{
    name: string;
    by: string;
    operation: string;
    login: string;
    controlKey: string;
    endpoint: string;
    params: Array<{ name: string; value: string }>;
    joined?: string;
    signature: string;
  }>;
}

describe('vendor-clients-control.json: the catalog signs as the vendor’s clients do (issue 28)', () => {
  // Computed in PHP by test/oracles/vendor-clients-vectors.php: the vendor's v2 PHP SDK signs
  // transfer-by-ref, sync/account-verification and make-rebill; PHP's sha1 the notes' bank-wire-transfer.
  const v = vector<VendorVector>('vendor-clients-control.json');

  it('covers each operation the vendor’s clients call', () => {
    expect(new Set(v.cases.map((c) => c.operation))).toEqual(
      new Set([
        'v2/make-rebill-sale',
        'v2/make-rebill-preauth',
        'v2/transfer-by-ref',
        'v2/sync/account-verification',
        'v2/bank-wire-transfer',
      ]),
    );
  });

  it.each(v.cases.map((c) => [c.name, c] as const))(
    '%s: signControl with the catalog formula',
    async (_n, c) => {
      const op = findOperation(c.operation)!;
      expect(op.source).toBe('vendor-clients');
      const trace = await signControl(
        op.formula!,
        { login: c.login, endpoint: { kind: 'endpoint', id: c.endpoint }, body: c.params },
        c.controlKey,
        crypto,
      );
      expect(trace.problems).toEqual([]);
      if (c.joined !== undefined) expect(trace.joined).toBe(c.joined);
      // Node's crypto over the core's concatenation, and PHP's signature.
      expect(sha1Hex(trace.joined + c.controlKey)).toBe(c.signature);
      expect(trace.signature).toBe(c.signature);
    },
  );

  it.each(v.cases.map((c) => [c.name, c] as const))('%s: buildRequest puts it on the wire', async (_n, c) => {
    const built = await buildRequest({
      operation: findOperation(c.operation)!,
      baseUrl: 'https://sandbox.example.com/paynet',
      endpoint: { kind: 'endpoint', id: c.endpoint },
      params: c.params.map((p) => ({ ...p, source: 'form' as const })),
      credentials: { login: c.login, controlKey: c.controlKey },
      crypto,
      clock: noClock,
      nonce: noNonce,
    });
    expect(built.problems).toEqual([]);
    expect(built.url).toBe(`https://sandbox.example.com/paynet/api/${c.operation}/${c.endpoint}`);
    expect(built.body.at(-1)).toEqual({ name: 'control', value: c.signature, source: 'computed' });
  });
});

describe('test/vectors', () => {
  it('every vector file is checked by this suite', () => {
    expect(vectorFiles().sort()).toEqual([...used].sort());
  });
});
