/**
 * Test clients for the sandbox, written here and independent of src/: RFC 3986 encoding, minor units,
 * the `control` formulas from api-description.md, Node's crypto for SHA-1, the `oauth-1.0a` package
 * for OAuth (HMAC-SHA1 with Node's createHmac, RSA-SHA256 with Node's createSign), python3 and openssl.
 */
import { createHash, createHmac, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { mkdtempSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseQuery } from 'node:querystring';
import OAuth from 'oauth-1.0a';
import type { FastifyInstance } from 'fastify';
import { createSandboxApp } from '../../sandbox/app.ts';
import type { SandboxOptions } from '../../sandbox/options.ts';

export const HOST = '127.0.0.1:4174';
export const BASE_PATH = '/sandbox/paynet';

/** RFC 3986 percent-encoding: only A-Z a-z 0-9 - . _ ~ stay. */
export function enc(s: string): string {
  return encodeURIComponent(s.toWellFormed()).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}

export function formBody(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');
}

/** Decimal text → minor units, by string arithmetic. */
export function minorUnits(amount: string): string {
  if (!/^\d+(\.\d{1,2})?$/.test(amount)) return amount; // malformed on purpose: the sandbox refuses it first
  const [whole, frac = ''] = amount.split('.');
  return String(BigInt(whole!) * 100n + BigInt((frac + '00').slice(0, 2)));
}

export function sha1(s: string): string {
  return createHash('sha1').update(s, 'utf8').digest('hex');
}

type Term = 'login' | 'endpointId' | string;

/** The `control` formulas as api-description.md (and gateway-notes.md for get-card-info) give them. */
export const FORMULAS: Record<string, readonly Term[]> = {
  '3ds/v1/upload-cres-result': ['login', 'client-order-id', 'orderid'],
  '3ds/v1/upload-method-url-result': ['login', 'client-order-id', 'orderid'],
  '3ds/v1/upload-pares-result': ['login', 'client-order-id', 'orderid'],
  'v2/account-verification-form': ['endpointId', 'client_orderid', 'email'],
  'v2/account-verification': ['endpointId', 'client_orderid', 'email'],
  'v2/capture': ['login', 'client_orderid', 'orderid', '#amount', 'currency'],
  'v2/create-card-ref': ['login', 'client_orderid', 'orderid'],
  'v2/get-card-info': ['login', 'cardrefid'],
  'v2/make-rebill': ['login', 'client_orderid', 'cardrefid', '#amount', 'currency'],
  // The vendor's clients (gateway-notes.md, "What the vendor's live clients also rely on").
  'v2/make-rebill-sale': ['login', 'client_orderid', 'cardrefid', '#amount', 'currency'],
  'v2/make-rebill-preauth': ['login', 'client_orderid', 'cardrefid', '#amount', 'currency'],
  'v2/transfer-by-ref': [
    'login',
    'client_orderid',
    'source-card-ref-id',
    'destination-card-ref-id',
    '#amount',
    'currency',
  ],
  'v2/sync/account-verification': ['endpointId', 'client_orderid', 'email'],
  'v2/bank-wire-transfer': [
    'endpointId',
    'client_orderid',
    'payer-fullname',
    'recipient-name',
    'recipient-account-number',
    'recipient-bank-bic',
    '#amount',
    '#vat-amount',
    'currency',
  ],
  'v2/payment-form': ['endpointId', 'client_orderid', '#amount', 'email'],
  'v2/preauth-form': ['endpointId', 'client_orderid', '#amount', 'email'],
  'v2/preauth': ['endpointId', 'client_orderid', '#amount', 'email'],
  'v2/return': ['login', 'client_orderid', 'orderid', '#amount', 'currency'],
  'v2/sale-form': ['endpointId', 'client_orderid', '#amount', 'email'],
  'v2/sale': ['endpointId', 'client_orderid', '#amount', 'email'],
  'v2/status': ['login', 'client_orderid', 'orderid'],
  'v2/void': ['login', 'client_orderid', 'orderid'],
};

export const HMAC_PATHS = ['v2/payout', 'v2/payout-form', 'v2/pan-eligibility/send'];
export const RSA_PATHS = [
  'v4/create-card-ref',
  'v4/create-recurring-payment',
  'v4/payout-check',
  'v4/payout-pay',
  'v4/transfer',
  'v4/transfer-by-ref',
  'v4/payout',
  // From the gateway's public examples (gateway-notes.md), not the description.
  'v4/status',
  'v4/sale',
  'v4/tokenize/create-ephemeral-ticket',
];

export interface TestMerchant {
  login: string;
  controlKey: string;
  endpointIds: string[];
  endpointGroupIds: string[];
  publicKeyPem: string;
  privateKeyPem: string;
}

export function rsaPair(bits = 2048): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

export function makeMerchants(): { acme: TestMerchant; other: TestMerchant } {
  return {
    acme: {
      login: 'acme',
      controlKey: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20',
      endpointIds: ['1111'],
      endpointGroupIds: ['2222'],
      ...rsaPair(),
    },
    other: {
      login: 'other-shop',
      controlKey: 'OTHER-KEY-0000-1111-2222',
      endpointIds: ['3333'],
      endpointGroupIds: [],
      ...rsaPair(),
    },
  };
}

export interface FakeClock {
  now: number;
  advance(ms: number): void;
}

export function fakeClock(start = Date.now()): FakeClock {
  const c = {
    now: start,
    advance(ms: number) {
      c.now += ms;
    },
  };
  return c;
}

export interface CallOptions {
  /** Endpoint id in the path (default the merchant's first), or a group id with `group`. */
  endpoint?: string;
  group?: string;
  /** Who signs (default the client's merchant): a foreign merchant's credentials. */
  signer?: TestMerchant;
  /** Replace the signature: a control value, or an oauth_signature. */
  control?: string;
  oauthSignature?: string;
  nonce?: string;
  timestamp?: string;
  signatureMethod?: string;
  consumerKey?: string;
  /** Extra or replaced headers; `undefined` removes one. */
  headers?: Record<string, string | undefined>;
  /** Change the body after signing. */
  tamperBody?: (body: string) => string;
  /** Sign with no signature at all. */
  unsigned?: boolean;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
  raw: string;
}

/**
 * How a client reads answers: `json` sends `Accept: application/vnd.pay+json`; `gateway` sends no
 * Accept, as the vendor's SDKs do, and reads the gateway's default form-encoded answer the way they
 * do (`querystring.parse`, each value trimmed), independent of the sandbox's encoder.
 */
export type ClientDialect = 'json' | 'gateway';

/** The gateway's default answer read as its clients read it: parse the pairs, trim each value. */
export function readGatewayAnswer(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parseQuery(text))) out[k] = String(v).trim();
  return out;
}

/** A merchant's back end talking to the sandbox (through fastify's inject: no socket needed). */
export class Client {
  constructor(
    readonly app: FastifyInstance,
    readonly merchant: TestMerchant,
    readonly clock: FakeClock,
    readonly dialect: ClientDialect = 'json',
  ) {}

  controlFor(
    opPath: string,
    params: Record<string, string>,
    endpointOrGroup: string,
    signer: TestMerchant,
  ): string {
    const terms = FORMULAS[opPath];
    if (!terms) throw new Error(`no formula for ${opPath}`);
    const joined = terms
      .map((t) => {
        if (t === 'login') return signer.login;
        if (t === 'endpointId') return endpointOrGroup;
        if (t.startsWith('#')) {
          const v = params[t.slice(1)];
          return v === undefined ? '' : minorUnits(v);
        }
        return params[t] ?? '';
      })
      .join('');
    return sha1(joined + signer.controlKey);
  }

  url(opPath: string, opts: CallOptions = {}): string {
    const ep = opts.group ? `group/${opts.group}` : (opts.endpoint ?? this.merchant.endpointIds[0]!);
    return `${BASE_PATH}/api/${opPath}/${ep}`;
  }

  oauthHeader(
    opPath: string,
    params: Record<string, string>,
    opts: CallOptions,
    method: 'HMAC-SHA1' | 'RSA-SHA256',
  ): string {
    const signer = opts.signer ?? this.merchant;
    const oauth = new OAuth({
      consumer: { key: opts.consumerKey ?? signer.login, secret: signer.controlKey },
      signature_method: opts.signatureMethod ?? method,
      hash_function: (base: string, key: string) =>
        method === 'HMAC-SHA1'
          ? createHmac('sha1', key).update(base).digest('base64')
          : createSign('RSA-SHA256').update(base).sign(signer.privateKeyPem, 'base64'),
    });
    oauth.getNonce = () => opts.nonce ?? randomBytes(16).toString('hex');
    oauth.getTimeStamp = () => Number(opts.timestamp ?? Math.floor(this.clock.now / 1000));
    const data = oauth.authorize({
      url: `http://${HOST}${this.url(opPath, opts)}`,
      method: 'POST',
      data: Object.fromEntries(Object.entries(params).map(([k, v]) => [k.toWellFormed(), v.toWellFormed()])),
    });
    if (opts.oauthSignature !== undefined) data.oauth_signature = opts.oauthSignature;
    return oauth.toHeader(data).Authorization;
  }

  async call(opPath: string, params: Record<string, string>, opts: CallOptions = {}): Promise<Answer> {
    const signer = opts.signer ?? this.merchant;
    const headers: Record<string, string | undefined> = {
      host: HOST,
      accept: this.dialect === 'json' ? 'application/vnd.pay+json' : undefined,
      'content-type': 'application/x-www-form-urlencoded',
    };
    let body: string;
    const scheme = HMAC_PATHS.includes(opPath)
      ? 'HMAC-SHA1'
      : RSA_PATHS.includes(opPath)
        ? 'RSA-SHA256'
        : 'control';
    if (scheme === 'control') {
      const control = opts.unsigned
        ? undefined
        : (opts.control ??
          this.controlFor(
            opPath,
            params,
            opts.group ?? opts.endpoint ?? this.merchant.endpointIds[0]!,
            signer,
          ));
      body = formBody(control === undefined ? params : { ...params, control });
    } else {
      body = formBody(params);
      if (!opts.unsigned) headers.authorization = this.oauthHeader(opPath, params, opts, scheme);
    }
    if (opts.tamperBody) body = opts.tamperBody(body);
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k] = v;
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) clean[k] = v;
    const res = await this.app.inject({
      method: 'POST',
      url: this.url(opPath, opts),
      headers: clean,
      payload: body,
    });
    let parsed: Record<string, unknown>;
    if (res.headers['content-type'] === 'text/html;charset=utf-8') parsed = readGatewayAnswer(res.body);
    else {
      try {
        parsed = JSON.parse(res.body) as Record<string, unknown>;
      } catch {
        parsed = {};
      }
    }
    return { status: res.statusCode, body: parsed, headers: res.headers, raw: res.body };
  }

  async status(
    orderId: string,
    clientOrderId: string,
    extra: Record<string, string> = {},
  ): Promise<Record<string, unknown>> {
    const r = await this.call('v2/status', {
      login: this.merchant.login,
      client_orderid: clientOrderId,
      orderid: orderId,
      ...extra,
    });
    if (r.status !== 200) throw new Error(`status failed: ${r.raw}`);
    return r.body;
  }
}

// ---------------------------------------------------------------- request data

let counter = 0;
export function orderId(prefix = 'inv'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export const CARD = {
  card_printed_name: 'JOHN SMITH',
  credit_card_number: '4444444444444448',
  expire_month: '12',
  expire_year: '2035',
};

export function customer(): Record<string, string> {
  return {
    order_desc: 'Test order',
    first_name: 'John',
    last_name: 'Smith',
    address1: '100 Main Street',
    city: 'Seattle',
    zip_code: '98102',
    country: 'US',
    phone: '12063582043',
    email: 'john.smith@example.com',
    ipaddress: '203.0.113.7',
  };
}

export function saleParams(over: Record<string, string> = {}): Record<string, string> {
  return {
    client_orderid: orderId(),
    ...customer(),
    amount: '10.42',
    currency: 'USD',
    ...CARD,
    cvv2: '123',
    ...over,
  };
}

export function formParams(over: Record<string, string> = {}): Record<string, string> {
  return {
    client_orderid: orderId('form'),
    ...customer(),
    amount: '25.00',
    currency: 'EUR',
    redirect_url: 'http://127.0.0.1:9/return',
    ...over,
  };
}

export function payoutParams(over: Record<string, string> = {}): Record<string, string> {
  return {
    client_orderid: orderId('po'),
    amount: '50.00',
    currency: 'USD',
    order_desc: 'Payout',
    ipaddress: '203.0.113.7',
    account_number: 'GB29NWBK60161331926819',
    bank_name: 'Example Bank',
    ...over,
  };
}

// ---------------------------------------------------------------- apps

export interface Sandbox {
  app: FastifyInstance;
  clock: FakeClock;
  acme: Client;
  other: Client;
  merchants: { acme: TestMerchant; other: TestMerchant };
}

let sharedMerchants: { acme: TestMerchant; other: TestMerchant } | undefined;
export function testMerchants(): { acme: TestMerchant; other: TestMerchant } {
  sharedMerchants ??= makeMerchants();
  return sharedMerchants;
}

export async function startSandbox(options: SandboxOptions = {}, clock = fakeClock()): Promise<Sandbox> {
  const merchants = testMerchants();
  const app = await createSandboxApp({
    dbPath: ':memory:',
    dataDir: mkdtempSync(path.join(tmpdir(), 'sandbox-test-')),
    finalizeDelayMs: 1000,
    clock: () => clock.now,
    merchants: [
      { ...merchants.acme, privateKeyPem: merchants.acme.privateKeyPem },
      {
        login: merchants.other.login,
        controlKey: merchants.other.controlKey,
        endpointIds: merchants.other.endpointIds,
        publicKeyPem: merchants.other.publicKeyPem,
      },
    ],
    ...options,
  });
  return {
    app,
    clock,
    merchants,
    acme: new Client(app, merchants.acme, clock),
    other: new Client(app, merchants.other, clock),
  };
}

/**
 * A hosted-fields token, as a payment page gets one: the merchant's server asks for an ephemeral
 * ticket (v4, RSA-SHA256 by this client), the page's tokenizer (the sandbox's stand-in) turns the
 * ticket and the card into a one-time token.
 */
export async function hostedFieldsToken(
  client: Client,
  card: Record<string, string> = { ...CARD, cvv2: '123' },
): Promise<string> {
  const ticket = await client.call('v4/tokenize/create-ephemeral-ticket', { login: client.merchant.login });
  if (ticket.status !== 200 || !ticket.body.ephemeralTicket) throw new Error(`ticket failed: ${ticket.raw}`);
  const res = await client.app.inject({
    method: 'POST',
    url: `${BASE_PATH}/hosted-fields/tokenize`,
    headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
    payload: formBody({ ticket: String(ticket.body.ephemeralTicket), ...card }),
  });
  if (res.statusCode !== 200) throw new Error(`tokenize failed: ${res.body}`);
  return String((JSON.parse(res.body) as Record<string, unknown>).hosted_fields_token);
}

/** Lets the delay pass and answers the final status. */
export async function settle(
  sb: Sandbox,
  client: Client,
  ack: Record<string, unknown>,
  ms = 1000,
): Promise<Record<string, unknown>> {
  sb.clock.advance(ms);
  return client.status(String(ack['paynet-order-id']), String(ack['merchant-order-id']));
}

/** Reports "something may have changed" by calling `recheck`; returns how to stop. */
export type Changes = (recheck: () => void) => () => void;

/** Each `event` of an emitter (a server's `request`, a spy's notice). */
export const onEvent =
  (emitter: EventEmitter, event: string): Changes =>
  (recheck) => {
    emitter.on(event, recheck);
    return () => emitter.off(event, recheck);
  };

/** Writes to the files of a folder, by another thread or process (inotify, through `fs.watch`). */
export const onFileChanges =
  (dir: string): Changes =>
  (recheck) => {
    const watcher = watch(dir, () => recheck());
    return () => watcher.close();
  };

/**
 * Resolves with the probe's first answer other than undefined: probed at once and again on each
 * change `changes` reports, so a test waits on an event, never on a delay. `timeoutMs` only bounds
 * a failure.
 */
export function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  changes: Changes,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let probing = false;
    let again = false;
    let done = false;
    const finish = (settle: () => void) => {
      done = true;
      stop();
      clearTimeout(timer);
      settle();
    };
    const check = async (): Promise<void> => {
      if (done) return;
      if (probing) {
        again = true; // a change during a probe: probe once more after it
        return;
      }
      probing = true;
      try {
        do {
          again = false;
          const v = await probe();
          if (v !== undefined) return finish(() => resolve(v));
        } while (again && !done);
      } catch (e) {
        finish(() => reject(e as Error));
      } finally {
        probing = false;
      }
    };
    const stop = changes(() => void check());
    const timer = setTimeout(() => finish(() => reject(new Error('waitFor: timed out'))), timeoutMs);
    void check();
  });
}

// ---------------------------------------------------------------- other independent signers

/** SHA-1 hex of each input, computed by python3's hashlib. */
export function pythonSha1(inputs: string[]): string[] {
  const script =
    'import sys, json, hashlib\nprint(json.dumps([hashlib.sha1(s.encode("utf-8")).hexdigest() for s in json.load(sys.stdin)]))';
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(inputs), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

/** An OAuth 1.0a HMAC-SHA1 Authorization header computed by python3's standard library. */
export function pythonOAuthHmac(input: {
  url: string;
  params: Record<string, string>;
  consumerKey: string;
  secret: string;
  nonce: string;
  timestamp: string;
}): string {
  const script = `
import sys, json, hmac, hashlib, base64
from urllib.parse import quote
d = json.load(sys.stdin)
q = lambda s: quote(s, safe='~')
oauth = {'oauth_consumer_key': d['consumerKey'], 'oauth_nonce': d['nonce'], 'oauth_signature_method': 'HMAC-SHA1',
         'oauth_timestamp': d['timestamp'], 'oauth_version': '1.0'}
pairs = sorted([(q(k), q(v)) for k, v in list(d['params'].items()) + list(oauth.items())])
base = '&'.join(['POST', q(d['url']), q('&'.join(k + '=' + v for k, v in pairs))])
sig = base64.b64encode(hmac.new((q(d['secret']) + '&').encode(), base.encode(), hashlib.sha1).digest()).decode()
oauth['oauth_signature'] = sig
print('OAuth ' + ', '.join('%s="%s"' % (q(k), q(v)) for k, v in sorted(oauth.items())))
`;
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(input), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** Base64 RSA-SHA256 signature of a text by the openssl CLI. */
export function opensslSign(privateKeyPem: string, text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-openssl-'));
  const key = path.join(dir, 'key.pem');
  writeFileSync(key, privateKeyPem, { mode: 0o600 });
  const r = spawnSync('openssl', ['dgst', '-sha256', '-sign', key], { input: text });
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr.toString()}`);
  return r.stdout.toString('base64');
}

// ---------------------------------------------------------------- the customer's browser

export interface PageAnswer {
  status: number;
  body: string;
  location: URL | undefined;
  /** The customer's way back to the merchant: the page's POSTed form (its address and fields). */
  posted: { action: URL; fields: URLSearchParams } | undefined;
  headers: Record<string, unknown>;
}

/** `&#NN;`, `&amp;`, `&quot;`… back to text (what a browser does to an attribute value). */
function unescapeHtml(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) =>
    e.startsWith('#x') || e.startsWith('#X')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : (named[e.toLowerCase()] ?? m),
  );
}

/** Reads a page's POST form as a browser would submit it: the action and each named input's value. */
export function readPostedForm(html: string, base: string): PageAnswer['posted'] {
  const form = /<form\b[^>]*\bmethod="post"[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/.exec(input[0])?.[1];
    const value = /\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name !== undefined) fields.append(unescapeHtml(name), unescapeHtml(value));
  }
  return { action: new URL(unescapeHtml(form[1]!), base), fields };
}

/** Opens or submits a sandbox page by its absolute URL (as the status or form answer gave it). */
export async function browse(
  app: FastifyInstance,
  url: string,
  form?: Record<string, string>,
): Promise<PageAnswer> {
  const u = new URL(url);
  const res = await app.inject({
    method: form ? 'POST' : 'GET',
    url: u.pathname + u.search,
    headers: { host: u.host, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
  const loc = res.headers.location;
  return {
    status: res.statusCode,
    body: res.body,
    location: typeof loc === 'string' ? new URL(loc, url) : undefined,
    posted: res.statusCode === 200 ? readPostedForm(res.body, url) : undefined,
    headers: res.headers,
  };
}
