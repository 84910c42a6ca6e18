/**
 * The step-by-step walkthroughs (src/diagnose/walkthrough.ts, as the teaching page runs them): each
 * scheme's steps are read from the signing trace of the request the model's buildDraft built, in
 * the description's order, every step names the rule it applies, the signature is the one Node's
 * crypto computes here from the published example values, an edited formula is the one walked
 * through, and no step shows a key.
 */
import { createHash, createHmac, createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findOperation, type Operation } from '../../src/catalog/index.ts';
import {
  webCryptoPort,
  type BuiltRequest,
  type ControlTerm,
  type Credentials,
  type Scheme,
} from '../../src/core/index.ts';
import { importSigningKey } from '../../src/core/keys/key-containers.ts';
import { citeRule, type Walkthrough } from '../../src/diagnose/index.ts';
import {
  runTeaching,
  teachingStart,
  teachingWalkthrough,
} from '../../src/features/teaching/teaching-model.ts';
import { draftFromValues, type RequestDraft } from '../../src/model/index.ts';

const crypto = webCryptoPort();
const KEYS = resolve(import.meta.dirname, '../corpus/keys');
const PRIVATE_PEM = readFileSync(join(KEYS, 'merchant-a-private-pkcs8.pem'), 'utf8');
/** gateway-notes.md's published worked example (sale family). */
const KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const LOGIN = 'walk-shop';
const BASE = 'https://sandbox.pay-gateway.test:443/paynet';
const NONCE = 'walkNonce0001';
const TIMESTAMP = '1767225600';

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

let credentials: Credentials;
beforeAll(async () => {
  credentials = {
    login: LOGIN,
    controlKey: KEY,
    privateKey: (await importSigningKey(PRIVATE_PEM, crypto)).key,
  };
});

function op(path: string): Operation {
  const o = findOperation(path);
  if (!o) throw new Error(path);
  return o;
}

const PLACE = {
  origin: 'http://127.0.0.1:4451',
  inboxUrl: 'http://127.0.0.1:4451/callbacks/s-w',
  login: LOGIN,
};

interface Walked {
  walk: Walkthrough;
  built: BuiltRequest;
}

/** The teaching page's run on a draft of these values: built once by the model, walked through from its trace. */
async function walkThrough(
  path: string,
  values: Record<string, string>,
  o: { endpointId?: string; credentials?: Credentials; scheme?: Scheme; formula?: ControlTerm[] } = {},
): Promise<Walked> {
  const draft: RequestDraft = draftFromValues(op(path), {
    values,
    ...(o.scheme ? { scheme: o.scheme } : {}),
    ...(o.formula ? { formula: o.formula } : {}),
  });
  const profile = {
    baseUrl: BASE,
    endpoint: { kind: 'endpoint' as const, id: o.endpointId ?? '1111' },
    credentials: o.credentials ?? credentials,
  };
  const args = {
    op: op(path),
    draft,
    place: PLACE,
    profile,
    pinned: { nonce: NONCE, timestamp: TIMESTAMP },
    mistake: null,
    crypto,
    clock: () => Number(TIMESTAMP) * 1000,
  };
  const t = await runTeaching(args);
  return { walk: teachingWalkthrough(args, t.correct.request), built: t.correct.request };
}

function outputText(w: Walkthrough, call: string, label: string): string {
  const step = w.steps.find((s) => s.call === call);
  const v = step?.output.find((o) => o.label === label);
  if (!v || !('text' in v)) throw new Error(`no ${label} in ${call}`);
  return v.text;
}

const PAYOUT = {
  client_orderid: 'po 1',
  amount: '25.00',
  currency: 'EUR',
  order_desc: "Payout for John O'Neil (refund)",
  ipaddress: '203.0.113.7',
  account_number: 'DE89370400440532013000',
  bank_name: 'Test Bank AG',
};

function oauthBase(path: string, values: Record<string, string>, method: string): string {
  const pairs = [
    ...Object.entries(values),
    ['oauth_consumer_key', LOGIN],
    ['oauth_nonce', NONCE],
    ['oauth_signature_method', method],
    ['oauth_timestamp', TIMESTAMP],
    ['oauth_version', '1.0'],
  ]
    .map(([k, v]) => [enc(k!), enc(v!)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
  // The default port :443 of the base URL is not part of the signed URL.
  const url = `https://sandbox.pay-gateway.test/paynet/api/${path}/1111`;
  return `POST&${enc(url)}&${enc(pairs.map(([k, v]) => `${k}=${v}`).join('&'))}`;
}

describe('control walkthrough', () => {
  it('reproduces the published worked example step by step', async () => {
    const values = {
      client_orderid: '902B4FF5',
      amount: '10.42',
      email: 'john.smith@gmail.com',
    };
    const { walk: w, built: b } = await walkThrough('v2/sale', values);
    expect(w.steps.map((s) => s.call)).toEqual([
      'describeFormula',
      'resolveControlTerms',
      'joinControlTerms',
      'computeControl',
      'encodeFormBody',
    ]);
    expect(outputText(w, 'describeFormula', 'Formula')).toBe(
      'endpointId + client_orderid + amount + email + merchant_control_key',
    );
    expect(outputText(w, 'joinControlTerms', 'Concatenation')).toBe('1111902B4FF51042john.smith@gmail.com');
    expect(w.signature).toBe('c6bdd88a78834ef4b863b088827a459f039e8257');
    expect(w.signature).toBe(
      createHash('sha1').update(`1111902B4FF51042john.smith@gmail.com${KEY}`).digest('hex'),
    );
    expect(b.bodyText).toContain(`control=${w.signature}`);
    const terms = w.steps[1]!.output[0]!;
    expect('table' in terms && terms.table.rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      ['endpointId', '1111', 'path'],
      ['client_orderid', '902B4FF5', 'body'],
      ['amount', '1042', 'body'],
      ['email', 'john.smith@gmail.com', 'body'],
    ]);
    expect(citeRule(w.steps[1]!.rules[0]!)).toMatch(
      /^Authentication › Scheme C step 3: `login` is the merchant login/,
    );
  });

  it('status without orderid signs the empty string there', async () => {
    const { walk: w } = await walkThrough('v2/status', { client_orderid: 'inv-1' });
    expect(outputText(w, 'joinControlTerms', 'Concatenation')).toBe(`${LOGIN}inv-1`);
    expect(w.signature).toBe(createHash('sha1').update(`${LOGIN}inv-1${KEY}`).digest('hex'));
  });

  it('without a control key it stops at the signature and says what is missing', async () => {
    const { walk: w } = await walkThrough(
      'v2/sale',
      { client_orderid: 'a', amount: '1.00', email: 'a@b.c' },
      { credentials: { login: LOGIN } },
    );
    expect(w.signature).toBeNull();
    expect(w.missing).toMatch(/control key/);
  });
});

describe.each([
  ['OAuth HMAC-SHA1', 'v2/payout', 'HMAC-SHA1'],
  ['OAuth RSA-SHA256', 'v4/payout-check', 'RSA-SHA256'],
] as const)('%s walkthrough', (_name, path, method) => {
  it('calls the core’s step functions in order, each naming its rule, and signs what buildRequest signs', async () => {
    const { walk: w, built: b } = await walkThrough(path, PAYOUT);
    const sign =
      method === 'HMAC-SHA1' ? ['hmacSigningKey', 'signHmacSha1'] : ['importSigningKey', 'signRsaSha256'];
    expect(w.steps.map((s) => s.call)).toEqual([
      'buildProtocolParameters',
      'collectSignatureParameters',
      'normalizeParameters',
      'normalizeUrl',
      'buildBaseString',
      ...sign,
      'buildAuthorizationHeader',
    ]);
    for (const s of w.steps) {
      expect(s.rules.length, s.title).toBeGreaterThan(0);
      expect(s.input.length + s.output.length, s.title).toBeGreaterThan(1);
    }
    expect(citeRule(w.steps[1]!.rules[0]!)).toMatch(
      /^Authentication › Scheme O1 step 2: gather all body parameters .* percent-encode \(RFC 3986/,
    );
    expect(outputText(w, 'normalizeUrl', 'Normalized URL')).toBe(
      `https://sandbox.pay-gateway.test/paynet/api/${path}/1111`,
    );
    const base = oauthBase(path, PAYOUT, method);
    expect(outputText(w, 'buildBaseString', 'Base string')).toBe(base);
    const expected =
      method === 'HMAC-SHA1'
        ? createHmac('sha1', `${enc(KEY)}&`)
            .update(base)
            .digest('base64')
        : createSign('RSA-SHA256').update(base).sign(PRIVATE_PEM, 'base64');
    expect(w.signature).toBe(expected);
    expect(w.signature).toBe(b.signing.signature);
    expect(outputText(w, 'buildAuthorizationHeader', 'Authorization')).toBe(
      b.headers.find((h) => h.name === 'Authorization')?.value,
    );
    expect(JSON.stringify(w)).not.toContain(KEY);
    expect(JSON.stringify(w)).not.toContain('PRIVATE KEY');
  });
});

describe('an edited formula (payout-form signed with control)', () => {
  it('is the formula walked through, and the one the signature is computed over', async () => {
    const formula: ControlTerm[] = [
      { kind: 'login' },
      { kind: 'field', name: 'client_orderid' },
      { kind: 'field', name: 'amount', minorUnits: true },
      { kind: 'field', name: 'currency' },
    ];
    const values = { client_orderid: 'pf-9', amount: '3.10', currency: 'EUR' };
    const { walk: w, built: b } = await walkThrough('v2/payout-form', values, { scheme: 'control', formula });
    expect(outputText(w, 'describeFormula', 'Formula')).toBe(
      'login + client_orderid + amount + currency + merchant_control_key',
    );
    expect(outputText(w, 'joinControlTerms', 'Concatenation')).toBe(`${LOGIN}pf-9310EUR`);
    expect(w.signature).toBe(createHash('sha1').update(`${LOGIN}pf-9310EUR${KEY}`).digest('hex'));
    expect(b.bodyText).toContain(`control=${w.signature}`);
  });
});

describe('teaching holds the workbench’s draft', () => {
  const payoutForm = () => op('v2/payout-form');

  it('keeps its scheme, edited formula, endpoint and pinned values, with test data or its own values', () => {
    const formula: ControlTerm[] = [{ kind: 'login' }, { kind: 'field', name: 'amount' }];
    const given: RequestDraft = {
      ...draftFromValues(payoutForm(), { values: {}, scheme: 'control', formula }),
      endpoint: { kind: 'group', id: '2222' },
    };
    const started = teachingStart(payoutForm(), given, Date.UTC(2026, 0, 1));
    expect(started).toMatchObject({ scheme: 'control', formula, endpoint: { kind: 'group', id: '2222' } });
    expect(started.values.amount).not.toBe('');
    const own = draftFromValues(payoutForm(), {
      values: { amount: '1.00' },
      scheme: 'oauth-rsa-sha256',
      pinned: { nonce: 'wbNonce', timestamp: '1767225600' },
      endpoint: { kind: 'endpoint', id: '77' },
    });
    expect(teachingStart(payoutForm(), own, 0)).toBe(own);
  });

  it('signs for the draft’s endpoint, not the profile’s', async () => {
    const draft = {
      ...draftFromValues(op('v2/sale'), { values: { amount: '1.00' } }),
      endpoint: { kind: 'group' as const, id: '2222' },
    };
    const t = await runTeaching({
      op: op('v2/sale'),
      draft,
      place: PLACE,
      profile: { baseUrl: BASE, endpoint: { kind: 'endpoint', id: '1111' }, credentials },
      pinned: { nonce: NONCE, timestamp: TIMESTAMP },
      mistake: null,
      crypto,
      clock: () => 0,
    });
    expect(t.correct.request.url).toBe('https://sandbox.pay-gateway.test:443/paynet/api/v2/sale/group/2222');
  });

  it('refuses a draft that came without values, naming them', async () => {
    const draft = draftFromValues(op('v2/sale'), {
      values: { amount: '1.00' },
      withheld: { credit_card_number: 'card-number', cvv2: 'cvv' },
    });
    await expect(
      runTeaching({
        op: op('v2/sale'),
        draft,
        place: PLACE,
        profile: { baseUrl: BASE, endpoint: { kind: 'endpoint', id: '1111' }, credentials },
        pinned: { nonce: NONCE, timestamp: TIMESTAMP },
        mistake: null,
        crypto,
        clock: () => 0,
      }),
    ).rejects.toThrow(
      'Cannot sign this request: credit_card_number (card number) and cvv2 (CVV) were not kept with this request. Fill them in first.',
    );
  });
});
