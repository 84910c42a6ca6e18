/**
 * Request signing written for the tests, independent of src/core: Node's `crypto` for SHA-1,
 * HMAC-SHA1 and RSA-SHA256, RFC 3986 encoding by hand, and the `oauth-1.0a` package as a second
 * OAuth client. The formulas are copied from api-description.md (Endpoints tables), not read from
 * the catalog.
 */
import { createHash, createHmac, randomBytes, sign, type KeyObject } from 'node:crypto';
import OAuth from 'oauth-1.0a';

export type Params = Array<[string, string]>;

/** RFC 3986: everything but unreserved characters is escaped; space is %20. */
export function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function formBody(params: Params): string {
  return params.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
}

/** "10.42" → "1042", "5" → "500", "0.9" → "90" (exact, no floating point). */
export function minorUnits(amount: string): string {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) throw new Error(`not an amount: ${amount}`);
  return String(BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0') || '0'));
}

type Term = 'endpointId' | 'login' | { field: string } | { amount: string };
const f = (field: string): Term => ({ field });
const SALE: Term[] = ['endpointId', f('client_orderid'), { amount: 'amount' }, f('email')];
const ORDER: Term[] = ['login', f('client_orderid'), f('orderid')];
const SETTLE: Term[] = [...ORDER, { amount: 'amount' }, f('currency')];
const TDS: Term[] = ['login', f('client-order-id'), f('orderid')];

/** Control formulas per operation path (api-description.md; get-card-info and payment-form from gateway-notes.md). */
export const CONTROL_FORMULAS: Record<string, Term[]> = {
  '3ds/v1/upload-cres-result': TDS,
  '3ds/v1/upload-method-url-result': TDS,
  '3ds/v1/upload-pares-result': TDS,
  'v2/account-verification-form': ['endpointId', f('client_orderid'), f('email')],
  'v2/account-verification': ['endpointId', f('client_orderid'), f('email')],
  'v2/capture': SETTLE,
  'v2/create-card-ref': ORDER,
  'v2/get-card-info': ['login', f('cardrefid')],
  'v2/make-rebill': ['login', f('client_orderid'), f('cardrefid'), { amount: 'amount' }, f('currency')],
  // The vendor's own clients (gateway-notes.md, "What the vendor's live clients also rely on").
  'v2/make-rebill-sale': ['login', f('client_orderid'), f('cardrefid'), { amount: 'amount' }, f('currency')],
  'v2/make-rebill-preauth': [
    'login',
    f('client_orderid'),
    f('cardrefid'),
    { amount: 'amount' },
    f('currency'),
  ],
  'v2/transfer-by-ref': [
    'login',
    f('client_orderid'),
    f('source-card-ref-id'),
    f('destination-card-ref-id'),
    { amount: 'amount' },
    f('currency'),
  ],
  'v2/sync/account-verification': ['endpointId', f('client_orderid'), f('email')],
  'v2/bank-wire-transfer': [
    'endpointId',
    f('client_orderid'),
    f('payer-fullname'),
    f('recipient-name'),
    f('recipient-account-number'),
    f('recipient-bank-bic'),
    { amount: 'amount' },
    { amount: 'vat-amount' },
    f('currency'),
  ],
  'v2/payment-form': SALE,
  'v2/preauth-form': SALE,
  'v2/preauth': SALE,
  'v2/return': SETTLE,
  'v2/sale-form': SALE,
  'v2/sale': SALE,
  'v2/status': ORDER,
  'v2/void': ORDER,
};

export function controlInput(path: string, params: Params, login: string, endpointId: string): string {
  const formula = CONTROL_FORMULAS[path];
  if (!formula) throw new Error(`no control formula for ${path}`);
  const get = (name: string) => params.find(([k]) => k === name)?.[1] ?? '';
  return formula
    .map((t) => {
      if (t === 'endpointId') return endpointId;
      if (t === 'login') return login;
      if ('amount' in t) return get(t.amount) === '' ? '' : minorUnits(get(t.amount));
      return get(t.field);
    })
    .join('');
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

export interface SignedRequest {
  /** Path after the base URL, like api/v2/sale/1111. */
  path: string;
  headers: Record<string, string>;
  body: string;
  /** What the test computed, for cross-checks. */
  signature: { scheme: string; input: string; value: string };
}

const HEADERS = { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' };

export function signControl(
  opPath: string,
  params: Params,
  cred: { login: string; controlKey: string; endpointId: string },
): SignedRequest {
  const input = controlInput(opPath, params, cred.login, cred.endpointId);
  const control = sha1Hex(input + cred.controlKey);
  return {
    path: `api/${opPath}/${cred.endpointId}`,
    headers: { ...HEADERS },
    body: formBody([...params, ['control', control]]),
    signature: { scheme: 'control', input, value: control },
  };
}

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** OAuth 1.0a base string (RFC 5849 §3.4.1) over the body parameters and the oauth_* values. */
export function oauthBaseString(url: string, params: Params, oauth: Params): string {
  const pairs = [...params, ...oauth]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return ['POST', rfc3986(url), rfc3986(pairs.map(([k, v]) => `${k}=${v}`).join('&'))].join('&');
}

export function signOAuth(
  baseUrl: string,
  opPath: string,
  params: Params,
  cred: { login: string; controlKey: string; endpointId: string; privateKey: KeyObject },
  method: 'HMAC-SHA1' | 'RSA-SHA256',
  nowSec = Math.floor(Date.now() / 1000),
): SignedRequest {
  const path = `api/${opPath}/${cred.endpointId}`;
  const oauth: Params = [
    ['oauth_consumer_key', cred.login],
    ['oauth_nonce', newNonce()],
    ['oauth_signature_method', method],
    ['oauth_timestamp', String(nowSec)],
    ['oauth_version', '1.0'],
  ];
  const base = oauthBaseString(`${baseUrl}/${path}`, params, oauth);
  const signature =
    method === 'HMAC-SHA1'
      ? createHmac('sha1', `${rfc3986(cred.controlKey)}&`)
          .update(base, 'utf8')
          .digest('base64')
      : sign('sha256', Buffer.from(base, 'utf8'), cred.privateKey).toString('base64');
  const header = `OAuth ${[...oauth, ['oauth_signature', signature] as [string, string]]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}="${rfc3986(v)}"`)
    .join(', ')}`;
  return {
    path,
    headers: { ...HEADERS, authorization: header },
    body: formBody(params),
    signature: { scheme: method, input: base, value: signature },
  };
}

/** The same HMAC-SHA1 request signed by the `oauth-1.0a` package (its hash function: Node's HMAC). */
export function signWithOAuthPackage(
  baseUrl: string,
  opPath: string,
  params: Params,
  cred: { login: string; controlKey: string; endpointId: string },
): SignedRequest {
  const path = `api/${opPath}/${cred.endpointId}`;
  const client = new OAuth({
    consumer: { key: cred.login, secret: cred.controlKey },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  client.getNonce = newNonce;
  const data = client.authorize({
    url: `${baseUrl}/${path}`,
    method: 'POST',
    data: Object.fromEntries(params),
  });
  return {
    path,
    headers: { ...HEADERS, authorization: client.toHeader(data).Authorization },
    body: formBody(params),
    signature: { scheme: 'oauth-1.0a HMAC-SHA1', input: '', value: data.oauth_signature },
  };
}
