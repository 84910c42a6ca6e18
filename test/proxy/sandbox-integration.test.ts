/**
 * The proxy and the local sandbox together, over real HTTP: every operation of the catalog is
 * signed by the test's own signers (Node crypto, the oauth-1.0a package), sent once straight to
 * the sandbox and once through POST /proxy/local/..., and the two answers are compared.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_FIELDS, exampleValues, findOperation, OPERATION_PATHS } from '../../src/catalog/index.ts';
import { readPostedForm } from '../sandbox/support.ts';
import { json, send, startConsole, type Running } from './helpers.ts';
import {
  controlInput,
  sha1Hex,
  signControl,
  signOAuth,
  signWithOAuthPackage,
  type Params,
  type SignedRequest,
} from './signers.ts';

type Via = 'direct' | 'proxy';

interface Answer {
  status: number;
  contentType: string;
  body: Record<string, unknown>;
}

interface Merchant {
  login: string;
  controlKey: string;
  endpointId: string;
  privateKey: KeyObject;
}

let server: Running;
let merchant: Merchant;
let baseUrl: string;
const checks: Array<{ input: string; key: string; expected: string; kind: 'sha1' | 'hmac' }> = [];

beforeAll(async () => {
  server = await startConsole({
    SANDBOX_FINALIZE_DELAY_MS: '0',
    SANDBOX_CALLBACK_SCHEDULE: 'fast',
    SANDBOX_CALLBACK_BASE_DELAY_MS: '50',
  });
  baseUrl = `${server.origin}/sandbox/paynet`;
  const demo = json<{ login: string; controlKey: string; endpointIds: string[] }>(
    await send(server.port, 'GET', '/sandbox/demo-merchant'),
  );
  // Our own RSA key, registered with the sandbox: the v4 operations are signed with it.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const put = await send(
    server.port,
    'PUT',
    `/sandbox/merchants/${encodeURIComponent(demo.login)}/public-key`,
    { 'content-type': 'application/json' },
    JSON.stringify({ publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) }),
  );
  expect(put.status).toBe(200);
  merchant = { login: demo.login, controlKey: demo.controlKey, endpointId: demo.endpointIds[0]!, privateKey };
});

afterAll(async () => {
  await server.close();
});

async function call(via: Via, req: SignedRequest): Promise<Answer> {
  if (via === 'direct') {
    const a = await send(server.port, 'POST', `/sandbox/paynet/${req.path}`, req.headers, req.body);
    return {
      status: a.status,
      contentType: String(a.headers['content-type']),
      body: JSON.parse(a.body) as Record<string, unknown>,
    };
  }
  const a = await send(
    server.port,
    'POST',
    `/proxy/local/${req.path}`,
    { ...req.headers, origin: server.origin },
    req.body,
  );
  expect(a.status, a.body).toBe(200);
  const env = json<{ status: number; headers: Record<string, string>; body: string; url: string }>(a);
  expect(env.url).toBe(`${baseUrl}/${req.path}`);
  return {
    status: env.status,
    contentType: env.headers['content-type'] ?? '',
    body: JSON.parse(env.body) as Record<string, unknown>,
  };
}

/** The catalog's example values with the test's overrides; `undefined` drops a field. */
function params(opPath: string, overrides: Record<string, string | undefined>): Params {
  const op = findOperation(opPath);
  if (!op) throw new Error(`unknown operation ${opPath}`);
  // Return URLs belong to the place a request is made from; the catalog gives no example.
  const place = Object.fromEntries(
    op.fields.filter((f) => f.place === 'return-url').map((f) => [f.name, 'http://127.0.0.1/return']),
  );
  const values: Record<string, string | undefined> = { ...exampleValues(op), ...place, ...overrides };
  if ('login' in values || op.fields.some((f) => f.name === 'login'))
    values.login = overrides.login ?? merchant.login;
  delete values.server_callback_url;
  if (overrides.server_callback_url) values.server_callback_url = overrides.server_callback_url;
  return Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined);
}

function signed(opPath: string, p: Params, via: Via): SignedRequest {
  const scheme = findOperation(opPath)!.scheme;
  if (scheme === 'control') {
    const req = signControl(opPath, p, merchant);
    checks.push({
      input: req.signature.input,
      key: merchant.controlKey,
      expected: req.signature.value,
      kind: 'sha1',
    });
    return req;
  }
  if (scheme === 'oauth-hmac-sha1') {
    // The second client: the oauth-1.0a package signs what goes through the proxy.
    if (via === 'proxy') return signWithOAuthPackage(baseUrl, opPath, p, merchant);
    const req = signOAuth(baseUrl, opPath, p, merchant, 'HMAC-SHA1');
    checks.push({
      input: req.signature.input,
      key: `${merchant.controlKey}&`,
      expected: req.signature.value,
      kind: 'hmac',
    });
    return req;
  }
  return signOAuth(baseUrl, opPath, p, merchant, 'RSA-SHA256');
}

/** Runs the whole catalog through one channel; returns each operation's first answer. */
async function runFlow(via: Via): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  const tag = `${via}-${Date.now().toString(36)}`;
  const inbox = `flow-${via}`;
  const callbackUrl = `${server.origin}/callbacks/${inbox}`;
  let n = 0;
  const id = () => `${tag}-${++n}`;
  const op = async (opPath: string, overrides: Record<string, string | undefined>) => {
    const answer = await call(via, signed(opPath, params(opPath, overrides), via));
    if (!answers.has(opPath)) answers.set(opPath, answer);
    expect(answer.status, `${opPath}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  };
  const str = (v: unknown) => String(v);

  // Sale, status, card reference, card info, rebill.
  const saleId = id();
  const sale = await op('v2/sale', { client_orderid: saleId, cvv2: '123', server_callback_url: callbackUrl });
  const saleOrder = str(sale['paynet-order-id']);
  const status = await op('v2/status', { client_orderid: saleId, orderid: saleOrder });
  expect(status.status).toBe('approved');
  // v4/status, from the gateway's public examples: the same order, signed RSA-SHA256.
  expect((await op('v4/status', { client_orderid: saleId, orderid: saleOrder })).status).toBe('approved');
  // v4/sale, from the same examples: a ticket, the sandbox's tokenizer (through the same channel:
  // the console's "Fill with test data" goes through /proxy/local), then the sale with the token.
  const ticket = await op('v4/tokenize/create-ephemeral-ticket', {});
  const cardNames = ['credit_card_number', 'card_printed_name', 'expire_month', 'expire_year', 'cvv2'];
  const card = params('v2/sale', { cvv2: '123' }).filter(([k]) => cardNames.includes(k));
  const tokenized = await call(via, {
    path: 'hosted-fields/tokenize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([['ticket', str(ticket.ephemeralTicket)], ...card]).toString(),
  } as unknown as SignedRequest);
  expect(tokenized.status, JSON.stringify(tokenized.body)).toBe(200);
  const token = str(tokenized.body.hosted_fields_token);
  const v4Sale = await op('v4/sale', { client_orderid: id(), hosted_fields_token: token });
  expect(typeof v4Sale['paynet-order-id']).toBe('number');
  const ref = await op('v2/create-card-ref', { client_orderid: saleId, orderid: saleOrder });
  const cardRef = str(ref['card-ref-id']);
  const info = await op('v2/get-card-info', { cardrefid: cardRef });
  expect(info.bin).toBe('444444');
  expect(info['last-four-digits']).toBe('4448');
  await op('v2/make-rebill', { client_orderid: id(), cardrefid: cardRef, amount: '3.10' });
  // The vendor's own clients' operations (gateway-notes.md, "What the vendor's live clients also rely on").
  await op('v2/make-rebill-sale', { client_orderid: id(), cardrefid: cardRef, amount: '3.20' });
  await op('v2/make-rebill-preauth', { client_orderid: id(), cardrefid: cardRef, amount: '3.30' });
  await op('v2/transfer-by-ref', {
    client_orderid: id(),
    'destination-card-ref-id': cardRef,
    'source-card-ref-id': cardRef,
  });
  expect((await op('v2/sync/account-verification', { client_orderid: id() })).status).toBe('approved');
  await op('v2/bank-wire-transfer', { client_orderid: id() });

  // Preauth → partial capture → partial return; preauth → void.
  const preId = id();
  const pre = await op('v2/preauth', { client_orderid: preId, amount: '10.00' });
  const preOrder = str(pre['paynet-order-id']);
  await op('v2/capture', { client_orderid: preId, orderid: preOrder, amount: '6.00', currency: 'USD' });
  await op('v2/return', { client_orderid: preId, orderid: preOrder, amount: '2.50', currency: 'USD' });
  const pre2Id = id();
  const pre2 = await op('v2/preauth', { client_orderid: pre2Id });
  await op('v2/void', { client_orderid: pre2Id, orderid: str(pre2['paynet-order-id']) });
  await op('v2/account-verification', { client_orderid: id() });
  await op('v4/create-card-ref', { client_orderid: preId, orderid: preOrder, login: undefined });

  // Hosted forms.
  for (const form of [
    'v2/sale-form',
    'v2/preauth-form',
    'v2/payment-form',
    'v2/account-verification-form',
    'v2/payout-form',
  ]) {
    const answer = await op(form, { client_orderid: id() });
    expect(String(answer['redirect-url'])).toMatch(new RegExp(`^${baseUrl}/form/`));
  }

  // Payouts, transfers, PAN eligibility, recurring.
  await op('v2/payout', { client_orderid: id() });
  await op('v2/pan-eligibility/send', { 'client-order-id': id(), 'sending-card-ref-id': cardRef });
  const checkId = id();
  const check = await op('v4/payout-check', { client_orderid: checkId });
  await op('v4/payout-pay', {
    client_orderid: checkId,
    orderid: str(check['paynet-order-id']),
    login: undefined,
  });
  const transfer = await op('v4/transfer', {
    client_orderid: id(),
    'destination-card-no': '5555555555554444',
  });
  expect(transfer['transaction-id']).toBeDefined();
  await op('v4/transfer-by-ref', { 'client-order-id': id() });
  const payout = await op('v4/payout', { 'client-order-id': id() });
  expect(payout['payout-id']).toBeDefined();
  const rp = await op('v4/create-recurring-payment', { 'client-orderid': id() });
  expect(rp['recurring-payment-id']).toBeDefined();

  // 3-D Secure 2: method result, issuer page, CRes upload.
  const tds2Id = id();
  const tds2 = await op('v2/sale', {
    client_orderid: tds2Id,
    cvv2: '321',
    browserLanguage: 'en-US',
    redirect_url: `${server.origin}/return`,
  });
  const tds2Order = str(tds2['paynet-order-id']);
  const s2 = await op('v2/status', { client_orderid: tds2Id, orderid: tds2Order });
  expect(s2.status).toBe('processing');
  await op('3ds/v1/upload-method-url-result', {
    'client-order-id': tds2Id,
    orderid: tds2Order,
    threeDSCompInd: 'Y',
    threeDSServerTransID: str(s2['threeds-server-trans-id']),
  });
  const cres = await issuerPage(
    await op('v2/status', { client_orderid: tds2Id, orderid: tds2Order }),
    'cres',
  );
  await op('3ds/v1/upload-cres-result', { 'client-order-id': tds2Id, orderid: tds2Order, cRes: cres });
  const s2final = await op('v2/status', { client_orderid: tds2Id, orderid: tds2Order });
  expect(s2final.status).toBe('approved');

  // 3-D Secure 1.0.2: issuer page, PaRes upload.
  const tds1Id = id();
  // Without 3DS 2 browser fields, the sandbox runs 3-D Secure 1.0.2.
  const noBrowser = Object.fromEntries(BROWSER_FIELDS.map((b) => [b.name, undefined]));
  const tds1 = await op('v2/sale', {
    ...noBrowser,
    client_orderid: tds1Id,
    cvv2: '321',
    redirect_url: `${server.origin}/return`,
  });
  const tds1Order = str(tds1['paynet-order-id']);
  const pares = await issuerPage(
    await op('v2/status', { client_orderid: tds1Id, orderid: tds1Order }),
    'PaRes',
  );
  await op('3ds/v1/upload-pares-result', { 'client-order-id': tds1Id, orderid: tds1Order, paRes: pares });
  const s1final = await op('v2/status', { client_orderid: tds1Id, orderid: tds1Order });
  expect(s1final.status).toBe('approved');

  answers.set('callback-inbox', { status: 0, contentType: '', body: { inbox, saleOrder, saleId } });
  return answers;
}

/** The customer on the sandbox's issuer page: opens it, types the password, reads the POSTed way back. */
async function issuerPage(status: Record<string, unknown>, param: 'cres' | 'PaRes'): Promise<string> {
  const page = new URL(String(status['redirect-to']));
  expect(page.origin).toBe(server.origin);
  const get = await send(server.port, 'GET', page.pathname);
  expect(get.status).toBe(200);
  expect(get.body).toContain('name="password"');
  const post = await send(
    server.port,
    'POST',
    page.pathname,
    { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin },
    'password=hint',
  );
  expect(post.status).toBe(200);
  const value = readPostedForm(post.body, page.toString())!.fields.get(param);
  expect(value).toBeTruthy();
  return value!;
}

const EXPECTED_TYPE: Record<string, string> = {
  'v2/status': 'status-response',
  'v4/status': 'status-response',
  'v2/sync/account-verification': 'status-response',
  'v4/tokenize/create-ephemeral-ticket': 'ephemeral-ticket-response',
  'v2/create-card-ref': 'create-card-ref-response',
  'v4/create-card-ref': 'create-card-ref-response',
  'v2/get-card-info': 'get-card-info-response',
  'v2/sale-form': 'async-form-response',
  'v2/preauth-form': 'async-form-response',
  'v2/payment-form': 'async-form-response',
  'v2/account-verification-form': 'async-form-response',
  'v2/payout-form': 'async-form-response',
};

describe('every catalog operation, straight to the sandbox and through the proxy', () => {
  let direct: Map<string, Answer>;
  let proxied: Map<string, Answer>;

  beforeAll(async () => {
    direct = await runFlow('direct');
    proxied = await runFlow('proxy');
  }, 120_000);

  it('covers all 35 operations', () => {
    expect(OPERATION_PATHS).toHaveLength(35);
    for (const path of OPERATION_PATHS) {
      expect(direct.has(path), path).toBe(true);
      expect(proxied.has(path), path).toBe(true);
    }
  });

  it.each([...OPERATION_PATHS])('%s: 200 with the right type, the same through the proxy', (path) => {
    const d = direct.get(path)!;
    const p = proxied.get(path)!;
    expect(d.status).toBe(200);
    expect(p.status).toBe(200);
    expect(d.contentType).toMatch(/^application\/vnd\.pay\+json/);
    expect(p.contentType).toBe(d.contentType);
    expect(d.body.type).toBe(EXPECTED_TYPE[path] ?? 'async-response');
    expect(p.body.type).toBe(d.body.type);
    expect(Object.keys(p.body).sort()).toEqual(Object.keys(d.body).sort());
  });

  it('delivers the sale callback to the inbox with a control the test can check', async () => {
    for (const via of ['direct', 'proxy'] as const) {
      const { inbox, saleOrder, saleId } = (via === 'direct' ? direct : proxied).get('callback-inbox')!
        .body as Record<string, string>;
      let events: Array<{ query: Record<string, string> }> = [];
      for (let i = 0; i < 100 && events.length === 0; i++) {
        events = json<typeof events>(await send(server.port, 'GET', `/callbacks/${inbox}/list`));
        if (events.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      const q = events.find((e) => e.query.orderid === saleOrder)?.query;
      expect(q, `callback for ${saleOrder} in ${inbox}`).toBeDefined();
      expect(q!.status).toBe('approved');
      expect(q!.client_orderid).toBe(saleId);
      expect(q!.control).toBe(sha1Hex(`${q!.status}${q!.orderid}${q!.merchant_order}${merchant.controlKey}`));
    }
  });

  it('a tampered signature is refused the same way directly and through the proxy', async () => {
    for (const via of ['direct', 'proxy'] as const) {
      const good = signed('v2/status', params('v2/status', { client_orderid: 'x-1', orderid: '1' }), via);
      const bad = { ...good, body: good.body.replace(/control=[0-9a-f]{40}/, `control=${'0'.repeat(40)}`) };
      const answer = await call(via, bad);
      expect(answer.status).toBe(400);
      expect(answer.body.type).toBe('validation-error');
      expect(String(answer.body['error-message'])).toContain('INVALID_CONTROL_CODE');
      const oauth = signed(
        'v4/payout-check',
        params('v4/payout-check', { client_orderid: `tamper-${via}` }),
        via,
      );
      const forged = { ...oauth, body: oauth.body.replace('amount=10.42', 'amount=99.99') };
      expect(forged.body).not.toBe(oauth.body);
      expect((await call(via, forged)).status).toBe(403);
    }
  });

  it("the test's control and HMAC values agree with python3's hashlib and hmac", () => {
    expect(checks.length).toBeGreaterThan(20);
    const script = [
      'import hashlib, hmac, base64, json, sys',
      'out = []',
      'for c in json.load(sys.stdin):',
      "    if c['kind'] == 'sha1': out.append(hashlib.sha1((c['input'] + c['key']).encode()).hexdigest())",
      "    else: out.append(base64.b64encode(hmac.new(c['key'].encode(), c['input'].encode(), hashlib.sha1).digest()).decode())",
      'print(json.dumps(out))',
    ].join('\n');
    const out = JSON.parse(
      execFileSync('python3', ['-c', script], { input: JSON.stringify(checks), encoding: 'utf8' }),
    ) as string[];
    expect(out).toEqual(checks.map((c) => c.expected));
    // And one control input spelled out against the published example (gateway-notes.md).
    expect(
      controlInput(
        'v2/sale',
        [
          ['client_orderid', '902B4FF5'],
          ['amount', '10.42'],
          ['email', 'john.smith@gmail.com'],
        ],
        'x',
        '1111',
      ),
    ).toBe('1111902B4FF51042john.smith@gmail.com');
    expect(sha1Hex('1111902B4FF51042john.smith@gmail.comB17F59B4-A7DC-41B4-8FF9-37D986B43D20')).toBe(
      'c6bdd88a78834ef4b863b088827a459f039e8257',
    );
  });
});
