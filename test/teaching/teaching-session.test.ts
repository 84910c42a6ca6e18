/**
 * The teaching page's headless model (src/features/teaching/teaching-session.ts) on an injected
 * clock and nonce source, with the real signer: a mistake changes the signature (checked with
 * Node's crypto), a send goes through the model's exchange to a real sandbox (in process, through
 * `inject`: the transport is the test's, the sandbox and the signer are real) and its answer is
 * kept, and a request opened with "Teach this" keeps its values, a login typed over the profile's
 * and an edited formula.
 */
import { createHash, createVerify } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperation, type Operation } from '../../src/catalog/index.ts';
import { webCryptoPort, type ControlTerm } from '../../src/core/index.ts';
import { importSigningKey } from '../../src/core/keys/key-containers.ts';
import { TeachingSession, type TeachingPorts } from '../../src/features/teaching/teaching-session.ts';
import { draftFromValues, type RequestDraft } from '../../src/model/index.ts';
import type { Transport } from '../../src/model/exchange.ts';
import type { SigningContext } from '../../src/model/signing-context.ts';
import { createSandboxApp } from '../../sandbox/app.ts';

const crypto = webCryptoPort();
const KEYS = resolve(import.meta.dirname, '../corpus/keys');
const pem = (f: string) => readFileSync(join(KEYS, f), 'utf8');
const LOGIN = 'session-shop';
const CONTROL_KEY = 'TEACHING-SESSION-TEST-ONLY-1F2E-3D4C';
const BASE = 'http://teach-session.test/sandbox/paynet';
const PLACE = {
  origin: 'http://127.0.0.1:4452',
  inboxUrl: 'http://127.0.0.1:4452/callbacks/s-session',
  login: LOGIN,
};
/** The one clock of the test: the session signs and the sandbox checks OAuth timestamps with it. */
let now = Date.UTC(2026, 0, 1, 12, 0, 0);
const clock = () => now;
let nonces = 0;

let sandbox: FastifyInstance;
let context: SigningContext;
const sent: string[] = [];

/** The browser's transport, played by the sandbox itself: the built request's bytes, its Host. */
const transport: TeachingPorts['transport'] = () => {
  const send: Transport = async (built) => {
    const u = new URL(built.url);
    sent.push(built.bodyText);
    const headers: Record<string, string> = { host: u.host };
    for (const h of built.headers) headers[h.name] = h.value;
    const res = await sandbox.inject({ method: 'POST', url: u.pathname, headers, payload: built.bodyText });
    return { status: res.statusCode, headers: {}, body: res.body, elapsedMs: 0 };
  };
  return send;
};

const ports = (): TeachingPorts => ({
  runtime: { crypto, clock, nonce: () => `sessionNonce${++nonces}` },
  transport,
});

beforeAll(async () => {
  sandbox = await createSandboxApp({
    dbPath: ':memory:',
    dataDir: mkdtempSync(join(tmpdir(), 'teaching-session-test-')),
    finalizeDelayMs: 60_000,
    clock,
    merchants: [
      {
        login: LOGIN,
        controlKey: CONTROL_KEY,
        endpointIds: ['1111'],
        endpointGroupIds: ['2222'],
        publicKeyPem: pem('merchant-a-public.pem'),
      },
    ],
  });
  context = {
    profileId: 'p',
    profileName: 'teaching session',
    target: { name: 'local', baseUrl: BASE, kind: 'local' },
    endpoint: { kind: 'endpoint', id: '1111' },
    otherEndpoint: { kind: 'group', id: '2222' },
    credentials: {
      login: LOGIN,
      controlKey: CONTROL_KEY,
      privateKey: (await importSigningKey(pem('merchant-a-private-pkcs8.pem'), crypto)).key,
    },
  };
});

afterAll(async () => {
  await sandbox?.close();
});

function op(path: string): Operation {
  const o = findOperation(path);
  if (!o) throw new Error(path);
  return o;
}

/** A session as the page makes it: the profile and place handed over once it is mounted. */
async function open(
  path: string,
  given: RequestDraft | null = null,
  ctx = context,
): Promise<TeachingSession> {
  const session = new TeachingSession({ op: op(path), given, context: ctx, place: PLACE }, ports());
  session.update({ context: ctx, place: PLACE });
  await session.settled();
  return session;
}

const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');

describe('TeachingSession', () => {
  it('signs the test request correctly, and a mistake changes only the mistaken signature', async () => {
    const session = await open('v2/sale');
    const s = session.getSnapshot();
    expect(s.error).toBeNull();
    const v = s.values;
    const minor = String(Math.round(Number(v.amount) * 100));
    const correct = sha1(`1111${v.client_orderid}${minor}${v.email}${CONTROL_KEY}`);
    expect(s.teach?.correct.signature).toBe(correct);
    expect(s.teach?.signatureChanged).toBe(false);

    session.pickMistake('amount-major-units');
    await session.settled();
    const t = session.getSnapshot().teach!;
    expect(t.applied.map((a) => a.mistakeId)).toEqual(['amount-major-units']);
    expect(t.signatureChanged).toBe(true);
    expect(t.correct.signature).toBe(correct);
    expect(t.mistaken.signature).toBe(sha1(`1111${v.client_orderid}${v.amount}${v.email}${CONTROL_KEY}`));

    session.pickMistake(null);
    await session.settled();
    expect(session.getSnapshot().teach?.mistaken.signature).toBe(correct);
  });

  it('a later change wins over a signing still running', async () => {
    const session = await open('v2/sale');
    session.setValue('amount', '1.00');
    session.setValue('amount', '2.50');
    await session.settled();
    const s = session.getSnapshot();
    expect(s.values.amount).toBe('2.50');
    expect(s.teach?.correct.signingInput).toContain('250');
    expect(s.teach?.correct.request.bodyText).toContain('amount=2.50');
  });

  it('sends the mistaken request through the exchange and keeps the sandbox’s refusal and signing input', async () => {
    const session = await open('v2/sale');
    session.pickMistake('amount-major-units');
    await session.settled();
    const t = session.getSnapshot().teach!;
    const before = sent.length;
    await session.send('mistaken');
    const s = session.getSnapshot();
    expect(s.sendError).toBeNull();
    expect(s.sending).toBe(false);
    expect(sent.length).toBe(before + 1);
    expect(sent.at(-1)).toContain(`control=${t.mistaken.signature}`);
    expect(s.sent).toMatchObject({ which: 'mistaken', mistakeId: 'amount-major-units', newOrderId: false });
    expect(s.sent?.mistakeTitle).toBe('Amount in major units');
    expect(s.sent?.answer.httpStatus).toBe(400);
    expect(s.sent?.answer.signatureRefused).toBe(true);
    expect(s.sent?.answer.errorCode).toMatch(/INVALID_CONTROL_CODE$/);
    // The sandbox built the correct signing input from what arrived.
    expect(s.sent?.answer.sandboxSigningInput?.text).toBe(t.correct.signingInput);
    expect(s.sent?.correctSigningInput).toBe(t.correct.signingInput);
  });

  it('sends the correct request, keeps the acceptance and draws a new order id', async () => {
    const session = await open('v2/sale');
    const orderId = session.getSnapshot().values.client_orderid;
    await session.send('correct');
    await session.settled();
    const s = session.getSnapshot();
    expect(s.sendError).toBeNull();
    expect(s.sent?.answer.accepted).toBe(true);
    expect(s.sent?.answer.httpStatus).toBe(200);
    expect(s.sent).toMatchObject({ which: 'correct', mistakeId: null, newOrderId: true });
    expect(s.values.client_orderid).not.toBe(orderId);
    expect(s.teach?.correct.request.bodyText).toContain(`client_orderid=${s.values.client_orderid}`);
  });

  it('signs an OAuth send with a fresh nonce and timestamp from the injected sources', async () => {
    const session = await open('v2/payout');
    const first = session.getSnapshot().pinned;
    now += 5_000;
    await session.send('correct');
    await session.settled();
    const s = session.getSnapshot();
    expect(s.sendError).toBeNull();
    expect(s.sent?.answer.accepted).toBe(true);
    expect(s.pinned).not.toEqual(first);
    expect(s.pinned.timestamp).toBe(String(Math.floor(now / 1000)));
    expect(s.sent?.request.headers.find((h) => h.name === 'Authorization')?.value).toContain(
      `oauth_nonce="${s.pinned.nonce}"`,
    );
  });

  it('refuses to send anywhere but the local sandbox, and says so', async () => {
    const remote = { ...context, target: { name: 'gw', baseUrl: BASE, kind: 'sandbox' as const } };
    const session = await open('v2/sale', null, remote);
    const before = sent.length;
    await session.send('correct');
    expect(session.getSnapshot().sendError?.message).toMatch(/only to the local sandbox/);
    expect(session.getSnapshot().sent).toBeNull();
    expect(sent.length).toBe(before);
  });

  it('signs "with the wrong key" with a throwaway RSA key it makes (the real generator)', async () => {
    const session = await open('v4/payout-check');
    session.pickMistake('wrong-key');
    expect(session.getSnapshot().wrongKey).toBe('making');
    await session.settled();
    const s = session.getSnapshot();
    expect(s.wrongKey).toBe('ready');
    const t = s.teach!;
    expect(t.applied.map((a) => a.mistakeId)).toEqual(['wrong-key']);
    const verify = (sig: string | null) =>
      createVerify('RSA-SHA256')
        .update(t.correct.signingInput)
        .verify(pem('merchant-a-public.pem'), sig ?? '', 'base64');
    expect(verify(t.correct.signature)).toBe(true);
    expect(verify(t.mistaken.signature)).toBe(false);
  });

  it('drops a switch the newly picked scheme does not offer', async () => {
    const session = await open('v2/payout-form');
    session.pickScheme('oauth-hmac-sha1');
    session.pickMistake('hmac-key-without-ampersand');
    session.pickScheme('control');
    await session.settled();
    const s = session.getSnapshot();
    expect(s.scheme).toBe('control');
    expect(s.mistake).toBeNull();
    expect(s.switches.map((m) => m.id)).not.toContain('hmac-key-without-ampersand');
  });

  it('keeps the walkthrough’s step within its steps', async () => {
    const session = await open('v2/sale');
    const count = session.getSnapshot().walk!.steps.length;
    expect(count).toBe(5);
    session.goStep(2);
    expect(session.getSnapshot().step).toBe(2);
    session.goStep(99);
    expect(session.getSnapshot().step).toBe(count - 1);
    session.goStep(-1);
    expect(session.getSnapshot().step).toBe(0);
  });
});

describe('"Teach this": the workbench’s request is the one taught', () => {
  it('keeps the typed values and signs them', async () => {
    const given = draftFromValues(
      op('v2/sale'),
      { values: { amount: '7.35', client_orderid: 'wb-1' } },
      PLACE,
    );
    const session = await open('v2/sale', given);
    const s = session.getSnapshot();
    expect(s.values.amount).toBe('7.35');
    expect(s.values.client_orderid).toBe('wb-1');
    expect(s.teach?.correct.signingInput).toContain('1111wb-1735');
  });

  it('keeps a login typed over the profile’s (an operation whose only field is the login)', async () => {
    const path = 'v4/tokenize/create-ephemeral-ticket';
    expect(op(path).fields.map((f) => f.name)).toEqual(['login']);
    const given = draftFromValues(op(path), { values: { login: 'typed-login' } }, PLACE);
    const session = await open(path, given);
    const s = session.getSnapshot();
    expect(s.values.login).toBe('typed-login');
    expect(s.teach?.correct.request.bodyText).toContain('login=typed-login');
  });

  it('keeps an edited payout-form formula: the walkthrough and the signature follow it', async () => {
    const formula: ControlTerm[] = [
      { kind: 'field', name: 'client_orderid' },
      { kind: 'endpointId' },
      { kind: 'field', name: 'amount', minorUnits: true },
      { kind: 'field', name: 'email' },
    ];
    const given = draftFromValues(op('v2/payout-form'), { values: {}, scheme: 'control', formula }, PLACE);
    const session = await open('v2/payout-form', given);
    const s = session.getSnapshot();
    expect(s.scheme).toBe('control');
    expect(s.draft.formula).toEqual(formula);
    const formulaStep = s.walk!.steps.find((x) => x.call === 'describeFormula');
    const shown = formulaStep?.output.find((o) => 'text' in o && o.label === 'Formula');
    expect(shown && 'text' in shown ? shown.text : '').toBe(
      'client_orderid + endpointId + amount + email + merchant_control_key',
    );
    const v = s.values;
    const minor = String(Math.round(Number(v.amount) * 100));
    expect(s.teach?.correct.signature).toBe(sha1(`${v.client_orderid}1111${minor}${v.email}${CONTROL_KEY}`));
    // Typing a value keeps the formula.
    session.setValue('amount', '4.20');
    await session.settled();
    expect(session.getSnapshot().draft.formula).toEqual(formula);
    expect(session.getSnapshot().teach?.correct.signature).toBe(
      sha1(`${v.client_orderid}1111420${v.email}${CONTROL_KEY}`),
    );
  });
});
