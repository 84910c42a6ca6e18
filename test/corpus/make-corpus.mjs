#!/usr/bin/env node
/**
 * Writes the signature debugger's corpus: captured requests, each broken by one known mistake
 * (plus correct ones), in the four capture formats, with a sidecar JSON per case that names the
 * operation, the (test-only) secrets, the expected verdict and the expected cause.
 *
 * Run once: `node test/corpus/make-corpus.mjs`, then `npx prettier --write test/corpus`. The output
 * is committed. The signer below is written here with Node's `crypto` and shares no code with
 * src/core: it is the independent party the debugger must agree with. The RSA keys are generated on
 * the first run (test-only keys, never used anywhere else) and reused after.
 */
import { createHash, createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const CASES = join(HERE, 'cases');
const KEYS = join(HERE, 'keys');

// ---------------------------------------------------------------------------------------------
// Test-only merchants

const A = {
  login: 'corpus-shop',
  controlKey: 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B',
  productionKey: 'CORPUS-PROD-ONLY-0A9B8C7D-6E5F-4A3B-2C1D-0E9F8A7B6C5D',
  endpointId: '4411',
  groupId: '77',
};
const OTHER_MERCHANT_KEY = 'SOMEONE-ELSES-KEY-11111111-2222-3333-4444-555555555555';
const HOST = 'sandbox.pay-gateway.test';
const BASE = `https://${HOST}/paynet`;
const T0 = 1767225600; // 2026-01-01T00:00:00Z

function ensureKeys() {
  mkdirSync(KEYS, { recursive: true });
  for (const name of ['merchant-a', 'merchant-b']) {
    const pkcs8 = join(KEYS, `${name}-private-pkcs8.pem`);
    if (existsSync(pkcs8)) continue;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(pkcs8, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(
      join(KEYS, `${name}-private-pkcs1.pem`),
      privateKey.export({ type: 'pkcs1', format: 'pem' }),
    );
    writeFileSync(join(KEYS, `${name}-public.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
  }
  const read = (f) => readFileSync(join(KEYS, f), 'utf8');
  return {
    aPrivate: read('merchant-a-private-pkcs8.pem'),
    bPrivate: read('merchant-b-private-pkcs8.pem'),
  };
}

// ---------------------------------------------------------------------------------------------
// The independent signer

/** RFC 3986 percent-encoding (space %20, !'()* encoded, uppercase hex). */
const enc = (s) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const formPlus = (s) => enc(s).replace(/%20/g, '+');
const sha1 = (s) => createHash('sha1').update(s, 'utf8').digest('hex');
const hmac = (key, text) => createHmac('sha1', key).update(text, 'utf8').digest('base64');
const rsa = (pem, text) => createSign('RSA-SHA256').update(text, 'utf8').sign(pem, 'base64');

/** Minor units with string arithmetic. */
function minor(amount) {
  const [whole, frac = ''] = amount.split('.');
  return String(Number(whole) * 100 + Number(frac.padEnd(2, '0')));
}

function control(values, key) {
  return sha1(values.join('') + key);
}

/**
 * An OAuth 1.0a base string with every knob a mistaken signer turns:
 * valueEnc (per name/value), order ('sorted' | 'given'), url as it goes in.
 */
function baseString({ url, params, valueEnc = enc, order = 'sorted', lowercaseEscapes = false }) {
  let pairs = params.map(([k, v]) => [valueEnc(k), valueEnc(v)]);
  if (order === 'sorted')
    pairs = [...pairs].sort((a, b) =>
      a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
    );
  const joined = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  const outer = lowercaseEscapes ? (s) => enc(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) : enc;
  return `POST&${outer(url)}&${outer(joined)}`;
}

function oauthParams({ method, nonce, timestamp, consumer = A.login }) {
  return [
    ['oauth_consumer_key', consumer],
    ['oauth_nonce', nonce],
    ['oauth_signature_method', method],
    ['oauth_timestamp', String(timestamp)],
    ['oauth_version', '1.0'],
  ];
}

function authorization(oauth, signature) {
  const all = [...oauth, ['oauth_signature', signature]];
  const order = [
    'oauth_consumer_key',
    'oauth_nonce',
    'oauth_signature',
    'oauth_signature_method',
    'oauth_timestamp',
    'oauth_version',
  ];
  all.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
  return `OAuth ${all.map(([k, v]) => `${k}="${enc(v)}"`).join(', ')}`;
}

// ---------------------------------------------------------------------------------------------
// The four capture formats

function formBody(body, valueEnc = enc) {
  return body.map(([k, v]) => `${valueEnc(k)}=${valueEnc(v)}`).join('&');
}

function defaultHeaders(auth) {
  return [
    ['Accept', 'application/vnd.pay+json'],
    ['Content-Type', 'application/x-www-form-urlencoded'],
    ...(auth ? [['Authorization', auth]] : []),
  ];
}

function rawHttp({ url, headers, bodyText }) {
  const u = new URL(url);
  const lines = [
    `POST ${u.pathname} HTTP/1.1`,
    `Host: ${u.host}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(bodyText)}`,
  ];
  return `${lines.join('\r\n')}\r\n\r\n${bodyText}`;
}

const sq = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

function curl({ url, headers, bodyText }) {
  return (
    [
      `curl -sS -X POST ${sq(url)}`,
      ...headers.map(([k, v]) => `-H ${sq(`${k}: ${v}`)}`),
      `--data-raw ${sq(bodyText)}`,
    ].join(' \\\n  ') + '\n'
  );
}

function har({ url, headers, bodyText }, { withPageEntry = false } = {}) {
  const entry = {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 120,
    request: {
      method: 'POST',
      url,
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'Host', value: new URL(url).host },
        ...headers.map(([name, value]) => ({ name, value })),
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: Buffer.byteLength(bodyText),
      postData: { mimeType: 'application/x-www-form-urlencoded', text: bodyText },
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: 0, mimeType: 'application/vnd.pay+json' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 1, wait: 110, receive: 9 },
  };
  const page = {
    ...entry,
    request: { ...entry.request, method: 'GET', url: `https://${HOST}/`, postData: undefined, bodySize: 0 },
  };
  const entries = withPageEntry ? [page, entry] : [entry];
  return `${JSON.stringify({ log: { version: '1.2', creator: { name: 'make-corpus', version: '1' }, entries } }, null, 2)}\n`;
}

/** A log line: `<time> INFO gateway-client POST <url> key=value … [Authorization="…"]`. */
function logLine({ url, body, auth, oauthAsPairs }) {
  const q = (v) => (/[\s"]/.test(v) || v === '' ? `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : v);
  const parts = ['2026-01-01T00:00:01.234Z', 'INFO', 'gateway-client', 'request', 'POST', url];
  for (const [k, v] of body) parts.push(`${k}=${q(v)}`);
  if (oauthAsPairs) for (const [k, v] of oauthAsPairs) parts.push(`${k}=${q(v)}`);
  else if (auth) parts.push(`Authorization=${q(auth)}`);
  return `${parts.join(' ')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The formats merchants' logs come in (issue 31)

const qs = (pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
const plainObject = (pairs) => Object.fromEntries(pairs);

/** PHP Monolog (Laravel, Symfony): `[date] channel.LEVEL: message {context} {extra}`. */
function monologLine({ url: u, body }) {
  return `[2026-01-01 00:00:01] payment.INFO: POST ${u} ${JSON.stringify(plainObject(body))} []\n`;
}
/** Laravel's Http client logged with the URL and the encoded body in the context. */
function laravelLine({ url: u, bodyText }) {
  return `[2026-01-01 00:00:01] production.INFO: Gateway request ${JSON.stringify({ method: 'POST', url: u, body: bodyText })} []\n`;
}
/** Java logback's default pattern. */
function logbackLine({ url: u, bodyText }) {
  return `2026-01-01 00:00:01.234 INFO [http-nio-8080-exec-1] c.m.PaymentClient - Request: POST ${u} body: ${bodyText}\n`;
}
/** pino: one JSON object a line, the request under req. */
function pinoLine({ url: u, bodyText, headers }) {
  const rec = {
    level: 30,
    time: T0 * 1000,
    pid: 4242,
    hostname: 'shop-1',
    req: { method: 'POST', url: u, headers: Object.fromEntries(headers), body: bodyText },
    msg: 'gateway request',
  };
  return `${JSON.stringify({ level: 30, time: T0 * 1000, msg: 'checkout started' })}\n${JSON.stringify(rec)}\n`;
}
/** A Python bytes literal as repr() writes it. */
function pyBytes(text) {
  let out = '';
  for (const b of Buffer.from(text, 'utf8')) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x27) out += "\\'";
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x09) out += '\\t';
    else if (b < 0x20 || b > 0x7e) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `b'${out}'`;
}
/** requests with http.client's debuglevel = 1 and urllib3's DEBUG logging. */
function pythonDebug(c) {
  const raw = rawHttp(c);
  const split = raw.indexOf('\r\n\r\n') + 4;
  return (
    [
      `DEBUG:urllib3.connectionpool:Starting new HTTPS connection (1): ${HOST}:443`,
      `send: ${pyBytes(raw.slice(0, split))}`,
      `send: ${pyBytes(raw.slice(split))}`,
      `reply: 'HTTP/1.1 200 OK\\r\\n'`,
      'header: Content-Type: application/vnd.pay+json',
      `DEBUG:urllib3.connectionpool:https://${HOST}:443 "POST ${new URL(c.url).pathname} HTTP/1.1" 200 87`,
    ].join('\n') + '\n'
  );
}
/** nginx's combined access log of the gateway's GET callback. */
function accessLogLine(query) {
  return `198.51.100.23 - - [01/Jan/2026:00:00:05 +0000] "GET /payment/callback?${qs(query)} HTTP/1.1" 200 2 "-" "PaynetEasy-Callback/1.0"\n`;
}
/** curl with each value given to --data-urlencode, as a shell script writes it. */
function curlUrlencode({ url: u, headers, body }) {
  return (
    [
      `curl -sS -X POST ${sq(u)}`,
      ...headers.map(([k, v]) => `-H ${sq(`${k}: ${v}`)}`),
      ...body.map(([k, v]) => `--data-urlencode ${sq(`${k}=${v}`)}`),
    ].join(' \\\n  ') + '\n'
  );
}
/** curl reading its body from a here-document (`-d @-`). */
function curlHeredoc({ url: u, headers, bodyText }) {
  return (
    [
      `curl -sS -X POST ${sq(u)}`,
      ...headers.map(([k, v]) => `-H ${sq(`${k}: ${v}`)}`),
      `-d @- <<'BODY'`,
    ].join(' \\\n  ') + `\n${bodyText}\nBODY\n`
  );
}
/** Chrome's HAR export, the body only in postData.params (values as encoded on the wire). */
function harParams(c) {
  const doc = JSON.parse(har(c));
  doc.log.creator = { name: 'WebInspector', version: '537.36' };
  doc.log.entries[0].request.postData = {
    mimeType: 'application/x-www-form-urlencoded',
    params: c.bodyText.split('&').map((p) => {
      const i = p.indexOf('=');
      return { name: p.slice(0, i), value: p.slice(i + 1) };
    }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
/** Raw HTTP with Transfer-Encoding: chunked (a client that streams its body). */
function rawChunked({ url: u, headers, bodyText }) {
  const x = new URL(u);
  const chunks = [];
  for (let i = 0; i < bodyText.length; i += 40) chunks.push(bodyText.slice(i, i + 40));
  const lines = [
    `POST ${x.pathname} HTTP/1.1`,
    `Host: ${x.host}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
    'Transfer-Encoding: chunked',
  ];
  const body =
    chunks.map((ch) => `${Buffer.byteLength(ch).toString(16)}\r\n${ch}\r\n`).join('') + '0\r\n\r\n';
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

// ---------------------------------------------------------------------------------------------
// Cases

const cases = [];
function add(c) {
  cases.push(c);
}

const url = (path, endpoint = A.endpointId) => `${BASE}/api/${path}/${endpoint}`;
const SALE_BODY = [
  ['client_orderid', 'inv-2026-0001'],
  ['order_desc', 'Corpus order'],
  ['first_name', 'Jane'],
  ['last_name', 'Doe'],
  ['address1', '1 Test Street'],
  ['city', 'Springfield'],
  ['zip_code', '12345'],
  ['country', 'US'],
  ['phone', '15555550100'],
  ['email', 'jane.doe@example.com'],
  ['amount', '10.42'],
  ['currency', 'USD'],
  ['ipaddress', '203.0.113.7'],
  ['card_printed_name', 'JANE DOE'],
  ['credit_card_number', '4444444444444448'],
  ['expire_month', '12'],
  ['expire_year', '2030'],
  ['cvv2', '123'],
  ['redirect_url', 'https://shop.example/return'],
];
const saleTerms = (body, endpoint = A.endpointId) => {
  const get = (n) => body.find(([k]) => k === n)?.[1] ?? '';
  return [endpoint, get('client_orderid'), minor(get('amount')), get('email')];
};
const PAYOUT_BODY = [
  ['client_orderid', 'po-2026-0001'],
  ['amount', '25.00'],
  ['currency', 'EUR'],
  ['order_desc', 'Payout for John Smith'],
  ['ipaddress', '203.0.113.7'],
  ['account_number', 'DE89370400440532013000'],
  ['bank_name', 'Test Bank AG'],
];

function controlCase({
  id,
  format,
  path,
  endpoint = A.endpointId,
  body,
  terms,
  key = A.controlKey,
  upper = false,
  group = false,
}) {
  let c = control(terms, key);
  if (upper) c = c.toUpperCase();
  const full = [...body, ['control', c]];
  const u = group ? url(path, `group/${endpoint}`) : url(path, endpoint);
  return { id, format, path, url: u, body: full, bodyText: formBody(full), headers: defaultHeaders() };
}

function oauthCase({
  id,
  format,
  path,
  body,
  method,
  nonce,
  timestamp = T0,
  sign,
  bodyEnc = enc,
  urlOverride,
  consumer,
}) {
  const oauth = oauthParams({ method, nonce, timestamp, consumer });
  const u = urlOverride ?? url(path);
  const signature = sign({ url: u, body, oauth });
  const auth = authorization(oauth, signature);
  return {
    id,
    format,
    path,
    url: u,
    body,
    bodyText: formBody(body, bodyEnc),
    headers: defaultHeaders(auth),
    auth,
    oauth,
    signature,
  };
}

function main() {
  const keys = ensureKeys();
  const SECRET_A = { login: A.login, controlKey: A.controlKey };
  const RSA_A = { login: A.login, publicKeyFile: 'keys/merchant-a-public.pem' };
  const params = (body, oauth) => [...body, ...oauth];

  // ---- correct captures, every scheme ------------------------------------------------------
  add({
    ...controlCase({
      id: 'ok-control-sale',
      format: 'raw-http',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: saleTerms(SALE_BODY),
    }),
    title: 'A correct sale (control)',
    secrets: SECRET_A,
    expected: { verdict: 'ok' },
  });
  const statusBody = [
    ['login', A.login],
    ['client_orderid', 'inv-2026-0001'],
    ['orderid', '9100001'],
  ];
  add({
    ...controlCase({
      id: 'ok-control-status',
      format: 'log-line',
      path: 'v2/status',
      body: statusBody,
      terms: [A.login, 'inv-2026-0001', '9100001'],
    }),
    title: 'A correct status request (control), from a log line',
    secrets: SECRET_A,
    expected: { verdict: 'ok' },
  });
  const hmacOk = ({ url: u, body, oauth }) =>
    hmac(`${enc(A.controlKey)}&`, baseString({ url: u, params: params(body, oauth) }));
  add({
    ...oauthCase({
      id: 'ok-hmac-payout',
      format: 'curl',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'okHmacNonce0001',
      sign: hmacOk,
    }),
    title: 'A correct v2 payout (OAuth HMAC-SHA1), as a curl command',
    secrets: SECRET_A,
    expected: { verdict: 'ok' },
  });
  add({
    ...oauthCase({
      id: 'ok-hmac-pan-eligibility',
      format: 'log-line',
      path: 'v2/pan-eligibility/send',
      body: [
        ['client-order-id', 'pe-2026-0001'],
        ['sending-card-ref-id', '5500001'],
      ],
      method: 'HMAC-SHA1',
      nonce: 'okPanNonce0002',
      sign: hmacOk,
    }),
    title: 'A correct pan-eligibility send (OAuth HMAC-SHA1), from a log line with the Authorization header',
    secrets: SECRET_A,
    expected: { verdict: 'ok' },
  });
  const rsaOk = ({ url: u, body, oauth }) =>
    rsa(keys.aPrivate, baseString({ url: u, params: params(body, oauth) }));
  add({
    ...oauthCase({
      id: 'ok-rsa-payout-check',
      format: 'har',
      path: 'v4/payout-check',
      body: PAYOUT_BODY,
      method: 'RSA-SHA256',
      nonce: 'okRsaNonce0003',
      sign: rsaOk,
    }),
    title: 'A correct v4 payout-check (OAuth RSA-SHA256), in a HAR file with two entries',
    harPageEntry: true,
    secrets: RSA_A,
    expected: { verdict: 'ok' },
  });
  add({
    ...oauthCase({
      id: 'ok-rsa-create-card-ref',
      format: 'raw-http',
      path: 'v4/create-card-ref',
      body: [
        ['client_orderid', 'cr-2026-0001'],
        ['orderid', '9100002'],
      ],
      method: 'RSA-SHA256',
      nonce: 'okRsaNonce0004',
      sign: rsaOk,
    }),
    title: 'A correct v4 create-card-ref (OAuth RSA-SHA256); raw HTTP does not say https, both are tried',
    secrets: RSA_A,
    urlSchemeKnown: false,
    expected: { verdict: 'ok' },
  });

  // ---- broken captures, one mistake each ----------------------------------------------------
  add({
    ...controlCase({
      id: 'amount-major-units',
      format: 'raw-http',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: [A.endpointId, 'inv-2026-0001', '10.42', 'jane.doe@example.com'],
    }),
    title: 'Amount signed in major units (10.42 instead of 1042)',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'amount-major-units', confidence: 'confirmed' },
  });
  const rebillBody = [
    ['login', A.login],
    ['client_orderid', 'rb-2026-0001'],
    ['order_desc', 'Monthly plan'],
    ['amount', '0.29'],
    ['currency', 'USD'],
    ['ipaddress', '203.0.113.7'],
    ['cardrefid', '5500002'],
  ];
  add({
    ...controlCase({
      id: 'amount-float-cents',
      format: 'curl',
      path: 'v2/make-rebill',
      body: rebillBody,
      // The SDK bug: Math.floor(0.29 * 100) is 28.
      terms: [A.login, 'rb-2026-0001', '5500002', String(Math.floor(0.29 * 100)), 'USD'],
    }),
    title: 'Amount converted with floating-point arithmetic (0.29 × 100 = 28.999…, truncated to 28)',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'amount-major-units', confidence: 'confirmed' },
  });
  add({
    ...oauthCase({
      id: 'plus-for-space',
      format: 'curl',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'plusNonce0005',
      bodyEnc: formPlus,
      sign: ({ url: u, body, oauth }) =>
        hmac(
          `${enc(A.controlKey)}&`,
          baseString({ url: u, params: params(body, oauth), valueEnc: formPlus }),
        ),
    }),
    title: 'Spaces encoded as + (HTML form encoding) in the base string',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'plus-for-space', confidence: 'confirmed' },
    withoutSecret: { cause: 'plus-for-space' },
  });
  const checkBody = [
    ['client_orderid', 'pc-2026-0002'],
    ['amount', '40.00'],
    ['currency', 'EUR'],
    ['order_desc', 'Refund: order #17 (partial)'],
    ['ipaddress', '203.0.113.7'],
    ['account_number', 'DE89370400440532013000'],
    ['bank_name', 'Test Bank AG'],
  ];
  add({
    ...oauthCase({
      id: 'double-encoding',
      format: 'har',
      path: 'v4/payout-check',
      body: checkBody,
      method: 'RSA-SHA256',
      nonce: 'doubleNonce0006',
      sign: ({ url: u, body, oauth }) =>
        rsa(keys.aPrivate, baseString({ url: u, params: params(body, oauth), valueEnc: (s) => enc(enc(s)) })),
    }),
    title: 'Values percent-encoded twice in the base string',
    secrets: RSA_A,
    expected: { verdict: 'mismatch', cause: 'double-encoding', confidence: 'confirmed' },
  });
  const unsorted = oauthCase({
    id: 'unsorted-parameters',
    format: 'log-line',
    path: 'v2/payout',
    body: PAYOUT_BODY,
    method: 'HMAC-SHA1',
    nonce: 'unsortedNonce0007',
    sign: ({ url: u, body, oauth }) =>
      hmac(`${enc(A.controlKey)}&`, baseString({ url: u, params: params(body, oauth), order: 'given' })),
  });
  add({
    ...unsorted,
    oauthAsPairs: [...unsorted.oauth, ['oauth_signature', unsorted.signature]],
    title: 'Parameters joined in insertion order, not sorted (the log prints the oauth_* values as pairs)',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'unsorted-parameters', confidence: 'confirmed' },
  });
  const cardRefBody = [
    ['client_orderid', 'cr-2026-0002'],
    ['orderid', '9100003'],
  ];
  add({
    ...oauthCase({
      id: 'default-port',
      format: 'curl',
      path: 'v4/create-card-ref',
      body: cardRefBody,
      method: 'RSA-SHA256',
      nonce: 'portNonce0008',
      urlOverride: `https://${HOST}:443/paynet/api/v4/create-card-ref/${A.endpointId}`,
      sign: ({ url: u, body, oauth }) =>
        rsa(keys.aPrivate, baseString({ url: u, params: params(body, oauth) })),
    }),
    title: 'Default port :443 kept in the signed URL',
    secrets: RSA_A,
    expected: { verdict: 'mismatch', cause: 'default-port', confidence: 'confirmed' },
    withoutSecret: { cause: 'default-port' },
  });
  add({
    ...oauthCase({
      id: 'http-vs-https',
      format: 'har',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'schemeNonce0009',
      sign: ({ url: u, body, oauth }) =>
        hmac(
          `${enc(A.controlKey)}&`,
          baseString({ url: u.replace('https://', 'http://'), params: params(body, oauth) }),
        ),
    }),
    title: 'Signed over http:// although the request went to https:// (TLS ended at a proxy)',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'http-vs-https', confidence: 'confirmed' },
  });
  add({
    ...controlCase({
      id: 'wrong-key-production',
      format: 'raw-http',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: saleTerms(SALE_BODY),
      key: A.productionKey,
    }),
    title: 'Signed with the production key while sending to the sandbox (both keys given to the debugger)',
    secrets: { ...SECRET_A, alternativeKeys: [{ label: 'production', controlKey: A.productionKey }] },
    expected: { verdict: 'mismatch', cause: 'wrong-key', confidence: 'confirmed' },
  });
  add({
    ...oauthCase({
      id: 'wrong-key-unknown',
      format: 'curl',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'otherKeyNonce0010',
      sign: ({ url: u, body, oauth }) =>
        hmac(`${enc(OTHER_MERCHANT_KEY)}&`, baseString({ url: u, params: params(body, oauth) })),
    }),
    title: "Signed with another merchant's key, which the debugger is not given: a conclusion, not a proof",
    secrets: SECRET_A,
    expected: {
      verdict: 'mismatch',
      cause: 'wrong-key',
      confidence: 'possible',
      evidence: 'Key text changed: whitespace, line end or letter case (',
    },
  });
  const voidBody = [
    ['login', A.login],
    ['client_orderid', 'inv-2026-0003'],
    ['orderid', '9100004'],
  ];
  add({
    ...controlCase({
      id: 'key-swapped-with-login',
      format: 'log-line',
      path: 'v2/void',
      body: voidBody,
      terms: [A.controlKey, 'inv-2026-0003', '9100004'],
      key: A.login,
    }),
    title: 'Login and control key swapped in the signing call',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'key-swapped-with-login', confidence: 'confirmed' },
  });
  add({
    ...oauthCase({
      id: 'hmac-key-without-ampersand',
      format: 'raw-http',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'ampNonce0011',
      urlOverride: url('v2/payout'),
      sign: ({ url: u, body, oauth }) =>
        hmac(enc(A.controlKey), baseString({ url: u, params: params(body, oauth) })),
    }),
    title: 'HMAC key without the trailing & (the empty token secret dropped)',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'hmac-key-without-ampersand', confidence: 'confirmed' },
  });
  add({
    ...oauthCase({
      id: 'pkcs1-pkcs8-confusion',
      format: 'raw-http',
      path: 'v4/payout-check',
      body: PAYOUT_BODY,
      method: 'RSA-SHA256',
      nonce: 'pkcsNonce0012',
      // Web Crypto's importKey('pkcs8', …) refused the PKCS#1 key; the client sent an empty signature.
      sign: () => '',
    }),
    title: 'A PKCS#1 key given to a tool that takes PKCS#8: signing failed, the signature went out empty',
    secrets: { ...RSA_A, privateKeyFile: 'keys/merchant-a-private-pkcs1.pem', keyConsumer: 'pkcs8' },
    expected: { verdict: 'mismatch', cause: 'pkcs1-pkcs8-confusion', confidence: 'confirmed' },
  });
  add({
    ...oauthCase({
      id: 'pkcs-public-key-pasted',
      format: 'har',
      path: 'v4/create-card-ref',
      body: cardRefBody,
      method: 'RSA-SHA256',
      nonce: 'pkcsNonce0013',
      sign: () => '',
    }),
    title: 'The public key pasted where the signing tool wanted the private key',
    secrets: { login: A.login, privateKeyFile: 'keys/merchant-a-public.pem' },
    expected: { verdict: 'mismatch', cause: 'pkcs1-pkcs8-confusion', confidence: 'confirmed' },
  });
  add({
    ...controlCase({
      id: 'endpoint-vs-group-id',
      format: 'curl',
      path: 'v2/sale',
      endpoint: A.groupId,
      group: true,
      body: SALE_BODY,
      terms: saleTerms(SALE_BODY, A.endpointId),
    }),
    title: 'Sent to the endpoint group, signed with the endpoint id',
    secrets: { ...SECRET_A, knownIds: { endpointId: A.endpointId, endpointGroupId: A.groupId } },
    expected: { verdict: 'mismatch', cause: 'endpoint-vs-group-id', confidence: 'confirmed' },
  });
  add({
    ...oauthCase({
      id: 'group-path-not-signed',
      format: 'har',
      path: 'v4/payout-check',
      body: PAYOUT_BODY,
      method: 'RSA-SHA256',
      nonce: 'groupNonce0014',
      urlOverride: `${BASE}/api/v4/payout-check/group/${A.groupId}`,
      sign: ({ body, oauth }) =>
        rsa(
          keys.aPrivate,
          baseString({ url: `${BASE}/api/v4/payout-check/${A.groupId}`, params: params(body, oauth) }),
        ),
    }),
    title: 'Sent to …/group/77 but the signed URL has no /group/',
    secrets: RSA_A,
    expected: { verdict: 'mismatch', cause: 'endpoint-vs-group-id', confidence: 'confirmed' },
  });
  const cresBody = [
    ['login', A.login],
    ['client_orderid', 'inv-2026-0004'],
    ['orderid', '9100005'],
    ['cRes', 'eyJtZXNzYWdlVHlwZSI6IkNSZXMiLCJ0cmFuc1N0YXR1cyI6IlkifQ=='],
  ];
  add({
    ...controlCase({
      id: 'hyphen-vs-underscore',
      format: 'raw-http',
      path: '3ds/v1/upload-cres-result',
      body: cresBody,
      terms: [A.login, 'inv-2026-0004', '9100005'],
    }),
    title: 'client_orderid sent where the 3DS upload spells client-order-id',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'hyphen-vs-underscore', confidence: 'confirmed' },
    withoutSecret: { cause: 'hyphen-vs-underscore' },
  });
  const statusNoOrder = [
    ['login', A.login],
    ['client_orderid', 'inv-2026-0005'],
  ];
  add({
    ...controlCase({
      id: 'field-missing-null',
      format: 'log-line',
      path: 'v2/status',
      body: statusNoOrder,
      terms: [A.login, 'inv-2026-0005', 'null'],
    }),
    title: 'orderid not sent, signed as "null" instead of the empty string',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'field-missing-from-formula', confidence: 'confirmed' },
  });
  const saleNoEmail = SALE_BODY.filter(([k]) => k !== 'email');
  add({
    ...controlCase({
      id: 'field-missing-unsent',
      format: 'raw-http',
      path: 'v2/preauth',
      body: saleNoEmail,
      terms: saleTerms(SALE_BODY),
    }),
    title:
      'email signed but not sent: the gateway signs it as the empty string (the signed value is unknown, so not provable)',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'field-missing-from-formula', confidence: 'possible' },
    withoutSecret: { cause: 'field-missing-from-formula' },
  });
  const captureBody = [
    ['login', A.login],
    ['client_orderid', 'inv-2026-0006'],
    ['orderid', '9100006'],
    ['amount', '10.00'],
    ['currency', 'USD'],
  ];
  add({
    ...controlCase({
      id: 'uppercase-hex',
      format: 'curl',
      path: 'v2/capture',
      body: captureBody,
      terms: [A.login, 'inv-2026-0006', '9100006', '1000', 'USD'],
      upper: true,
    }),
    title: 'control sent in uppercase hex',
    secrets: SECRET_A,
    expected: {
      verdict: 'mismatch',
      cause: 'uppercase-hex',
      confidence: 'confirmed',
      evidence: 'local sandbox',
    },
    withoutSecret: { cause: 'uppercase-hex' },
  });
  add({
    ...oauthCase({
      id: 'stale-timestamp',
      format: 'har',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'staleNonce0015',
      timestamp: T0,
      sign: hmacOk,
    }),
    title: 'A correctly signed request replayed three days later (oauth_timestamp far from now)',
    now: (T0 + 3 * 86400) * 1000,
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'stale-timestamp', confidence: 'confirmed' },
    withoutSecret: { cause: 'stale-timestamp' },
  });
  add({
    ...oauthCase({
      id: 'timestamp-milliseconds',
      format: 'log-line',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'msNonce0016',
      timestamp: T0 * 1000 + 123,
      sign: hmacOk,
    }),
    title: 'oauth_timestamp in milliseconds (Date.now() without / 1000)',
    now: T0 * 1000 + 123,
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'stale-timestamp', confidence: 'confirmed' },
    withoutSecret: { cause: 'stale-timestamp' },
  });
  add({
    ...oauthCase({
      id: 'include-oauth-signature',
      format: 'curl',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'inclNonce0017',
      sign: ({ url: u, body, oauth }) =>
        hmac(
          `${enc(A.controlKey)}&`,
          baseString({ url: u, params: [...params(body, oauth), ['oauth_signature', '']] }),
        ),
    }),
    title: 'An empty oauth_signature signed along with the other parameters',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'include-oauth-signature', confidence: 'confirmed' },
  });
  const rpBody = [
    ['rp_card_type', 'SRC'],
    ['client-orderid', 'rp-2026-0001'],
    ['order_desc', 'Gym membership: monthly'],
    ['credit-card-number', '4444444444444448'],
    ['card-printed-name', 'JANE DOE'],
    ['expire-month', '12'],
    ['expire-year', '2030'],
    ['cvv2', '123'],
    ['amount', '19.99'],
    ['currency', 'USD'],
    ['period', 'month'],
    ['interval', '1'],
  ];
  add({
    ...oauthCase({
      id: 'lowercase-percent-encoding',
      format: 'raw-http',
      path: 'v4/create-recurring-payment',
      body: rpBody,
      method: 'RSA-SHA256',
      nonce: 'lowerNonce0018',
      urlOverride: url('v4/create-recurring-payment'),
      sign: ({ url: u, body, oauth }) =>
        rsa(
          keys.aPrivate,
          baseString({
            url: u,
            params: params(body, oauth),
            valueEnc: (s) => enc(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
            lowercaseEscapes: true,
          }),
        ),
    }),
    title: 'Percent-escapes written in lowercase hex (%3a) in the base string',
    secrets: RSA_A,
    expected: { verdict: 'mismatch', cause: 'lowercase-percent-encoding', confidence: 'confirmed' },
  });
  add({
    ...oauthCase({
      id: 'wrong-signature-method',
      format: 'har',
      path: 'v4/payout-check',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'methodNonce0019',
      sign: hmacOk,
    }),
    title: 'A v4 operation signed with HMAC-SHA1 instead of RSA-SHA256',
    secrets: { ...RSA_A, controlKey: A.controlKey },
    expected: { verdict: 'mismatch', cause: 'wrong-signature-method', confidence: 'confirmed' },
    withoutSecret: { cause: 'wrong-signature-method' },
  });

  // ---- issue 31: the formats of merchants' logs, and the mistakes they make ---------------------
  const cb = (status, orderid, merchantOrder, key = A.controlKey) =>
    sha1(status + orderid + merchantOrder + key);
  add({
    ...controlCase({
      id: 'ok-laravel-sale',
      format: 'app-log',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: saleTerms(SALE_BODY),
    }),
    writer: laravelLine,
    title: 'A correct sale from a Laravel log line (URL and encoded body in the context JSON)',
    secrets: SECRET_A,
    expected: { verdict: 'ok' },
  });
  add({
    ...controlCase({
      id: 'formula-terms-reordered',
      format: 'app-log',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: [A.endpointId, minor('10.42'), 'inv-2026-0001', 'jane.doe@example.com'],
    }),
    writer: monologLine,
    title: 'amount before client_orderid in the concatenation, from a Monolog line whose context is the body',
    secrets: SECRET_A,
    expected: {
      verdict: 'mismatch',
      cause: 'formula-terms',
      confidence: 'confirmed',
      evidence: 'amount + client_orderid',
    },
    withoutSecret: { noFindings: true },
  });
  add({
    ...controlCase({
      id: 'formula-term-doubled',
      format: 'app-log',
      path: 'v2/status',
      body: statusBody,
      terms: [A.login, A.login, 'inv-2026-0001', '9100001'],
    }),
    writer: logbackLine,
    title: 'login concatenated twice, from a Java logback line',
    secrets: SECRET_A,
    expected: {
      verdict: 'mismatch',
      cause: 'formula-terms',
      confidence: 'confirmed',
      evidence: 'login concatenated twice',
    },
    withoutSecret: { noFindings: true },
  });
  add({
    ...controlCase({
      id: 'formula-term-left-out',
      format: 'json-log',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: ['inv-2026-0001', minor('10.42'), 'jane.doe@example.com'],
    }),
    writer: pinoLine,
    title: 'endpointId left out of the concatenation, from pino JSON log lines',
    secrets: SECRET_A,
    expected: {
      verdict: 'mismatch',
      cause: 'formula-terms',
      confidence: 'confirmed',
      evidence: 'endpointId left out',
    },
    withoutSecret: { noFindings: true },
  });
  add({
    ...controlCase({
      id: 'key-trailing-newline',
      format: 'python-debug',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: saleTerms(SALE_BODY),
      key: `${A.controlKey}\n`,
    }),
    writer: pythonDebug,
    title: "The key read from a file with its line end, from Python requests' debug output",
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'key-text-slip', confidence: 'confirmed', evidence: 'line end' },
    withoutSecret: { noFindings: true },
  });
  add({
    ...controlCase({
      id: 'key-lowercase',
      format: 'raw-http',
      path: 'v2/capture',
      body: captureBody,
      terms: [A.login, 'inv-2026-0006', '9100006', '1000', 'USD'],
      key: A.controlKey.toLowerCase(),
    }),
    writer: rawChunked,
    title: 'The key lowercased by a config loader, raw HTTP with a chunked body',
    secrets: SECRET_A,
    expected: { verdict: 'mismatch', cause: 'key-text-slip', confidence: 'confirmed', evidence: 'lowercase' },
    withoutSecret: { noFindings: true },
  });
  add({
    ...oauthCase({
      id: 'key-trailing-space',
      format: 'curl',
      path: 'v2/payout',
      body: PAYOUT_BODY,
      method: 'HMAC-SHA1',
      nonce: 'spaceNonce0020',
      sign: ({ url: u, body, oauth }) =>
        hmac(`${enc(`${A.controlKey} `)}&`, baseString({ url: u, params: params(body, oauth) })),
    }),
    writer: curlUrlencode,
    title: 'A space after the key in the HMAC key, from curl with --data-urlencode pieces',
    secrets: SECRET_A,
    expected: {
      verdict: 'mismatch',
      cause: 'key-text-slip',
      confidence: 'confirmed',
      evidence: 'followed by a space',
    },
  });
  add({
    ...controlCase({
      id: 'other-order-id',
      format: 'har',
      path: 'v2/sale',
      body: SALE_BODY,
      terms: saleTerms(SALE_BODY.map(([k, v]) => [k, k === 'client_orderid' ? 'inv-2026-0000' : v])),
    }),
    writer: harParams,
    title: "The previous order's client_orderid signed, from a Chrome HAR with the body in postData.params",
    secrets: { ...SECRET_A, knownIds: { clientOrderIds: ['inv-2025-0999', 'inv-2026-0000'] } },
    expected: {
      verdict: 'mismatch',
      cause: 'other-order-id',
      confidence: 'confirmed',
      evidence: 'inv-2026-0000',
    },
  });
  add({
    ...oauthCase({
      id: 'rsa-sha1',
      format: 'curl',
      path: 'v4/payout-check',
      body: PAYOUT_BODY,
      method: 'RSA-SHA256',
      nonce: 'sha1Nonce0021',
      sign: ({ url: u, body, oauth }) =>
        createSign('RSA-SHA1')
          .update(baseString({ url: u, params: params(body, oauth) }), 'utf8')
          .sign(keys.aPrivate, 'base64'),
    }),
    writer: curlHeredoc,
    title:
      "RSA over SHA-1 (PHP openssl_sign's default) instead of SHA-256, from curl reading -d @- from a here-document",
    secrets: RSA_A,
    expected: { verdict: 'mismatch', cause: 'rsa-sha1', confidence: 'confirmed' },
  });
  const callbackQuery = (control) => [
    ['type', 'sale'],
    ['status', 'approved'],
    ['amount', '10.42'],
    ['orderid', '9100001'],
    ['merchant_order', 'inv-2026-0001'],
    ['client_orderid', 'inv-2026-0001'],
    ['control', control],
  ];
  add({
    id: 'ok-callback-access-log',
    format: 'access-log',
    path: 'callback',
    text: accessLogLine(callbackQuery(cb('approved', '9100001', 'inv-2026-0001'))),
    title: "A correct callback, from the merchant's nginx access log",
    secrets: SECRET_A,
    expected: { verdict: 'ok' },
  });
  add({
    id: 'callback-terms-reordered',
    format: 'access-log',
    path: 'callback',
    text: accessLogLine(callbackQuery(sha1('9100001' + 'approved' + 'inv-2026-0001' + A.controlKey))),
    title:
      'A callback checked by a handler that concatenates orderid before status (the merchant builds the same wrong control and refuses a good callback)',
    secrets: SECRET_A,
    expected: {
      verdict: 'mismatch',
      cause: 'formula-terms',
      confidence: 'confirmed',
      evidence: 'orderid + status',
    },
    withoutSecret: { noFindings: true },
  });

  // ---- write --------------------------------------------------------------------------------
  rmSync(CASES, { recursive: true, force: true });
  mkdirSync(CASES, { recursive: true });
  const EXT = {
    'raw-http': 'http',
    curl: 'curl',
    har: 'har',
    'log-line': 'line',
    'app-log': 'applog',
    'json-log': 'jsonl',
    'python-debug': 'pylog',
    'access-log': 'access',
  };
  for (const c of cases) {
    const text =
      c.text ??
      c.writer?.(c) ??
      (c.format === 'raw-http'
        ? rawHttp(c)
        : c.format === 'curl'
          ? curl(c)
          : c.format === 'har'
            ? har(c, { withPageEntry: c.harPageEntry })
            : logLine({ url: c.url, body: c.body, auth: c.auth, oauthAsPairs: c.oauthAsPairs }));
    const file = `${c.id}.${EXT[c.format]}`;
    writeFileSync(join(CASES, file), text);
    const sidecar = {
      id: c.id,
      title: c.title,
      capture: file,
      format: c.format,
      operation: c.path,
      secrets: c.secrets,
      ...(c.now !== undefined ? { now: c.now } : {}),
      ...(c.urlSchemeKnown === false ? { urlSchemeKnown: false } : {}),
      expected: c.expected,
      ...(c.withoutSecret ? { withoutSecret: c.withoutSecret } : {}),
    };
    writeFileSync(join(CASES, `${c.id}.json`), `${JSON.stringify(sidecar, null, 2)}\n`);
  }
  const written = readdirSync(CASES).length;
  process.stdout.write(`wrote ${cases.length} cases (${written} files) to ${CASES}\n`);
}

main();
