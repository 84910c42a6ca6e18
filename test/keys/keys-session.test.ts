/**
 * The Keys page's headless model (src/features/keys/keys-session.ts): the real generator at 2048
 * bits timed on an injected clock and ticker, registration and the demo key's restore against a
 * real sandbox (in process, through `inject`), the save-first question, and a pasted key inspected
 * and converted, checked with Node's crypto.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
} from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webCryptoPort, type GeneratedKeyPair } from '../../src/core/index.ts';
import { generateKeyPair } from '../../src/core/keys/key-containers.ts';
import { KeysSession, type KeptPair, type KeysPorts } from '../../src/features/keys/keys-session.ts';
import type { SandboxFetch } from '../../src/features/keys/register-key.ts';
import { createSandboxApp } from '../../sandbox/app.ts';

const crypto = webCryptoPort();
let sandbox: FastifyInstance;
let demoLogin = '';
/** One pair from the real generator for the tests about what follows a generation. */
let made: GeneratedKeyPair;

/** The page's `fetch` to the local sandbox's own routes, answered by the sandbox in process from this machine. */
const fetcher: SandboxFetch = async (url, init) => {
  const headers: Record<string, string> = { host: '127.0.0.1' };
  for (const [k, v] of Object.entries((init.headers ?? {}) as Record<string, string>)) headers[k] = v;
  const res = await sandbox.inject({
    method: (init.method ?? 'GET') as 'GET',
    url,
    headers,
    ...(typeof init.body === 'string' ? { payload: init.body } : {}),
  });
  return new Response(res.body === '' ? null : res.body, { status: res.statusCode });
};

/** A clock and a ticker the test moves by hand. */
function manualTime() {
  const t = { now: 1_000, ticks: new Set<() => void>(), stops: 0 };
  const every: KeysPorts['every'] = (_ms, tick) => {
    t.ticks.add(tick);
    return () => {
      t.ticks.delete(tick);
      t.stops++;
    };
  };
  const advance = (ms: number) => {
    t.now += ms;
    for (const tick of t.ticks) tick();
  };
  return { t, every, advance };
}

function session(extra: Partial<KeysPorts> = {}) {
  const time = manualTime();
  const kept: { pair: KeptPair | null } = { pair: null };
  const s = new KeysSession({
    crypto,
    now: () => time.t.now,
    every: time.every,
    fetch: fetcher,
    memory: { read: () => kept.pair, write: (p) => (kept.pair = p) },
    ...extra,
  });
  return { s, time, kept };
}

beforeAll(async () => {
  sandbox = await createSandboxApp({
    dbPath: ':memory:',
    dataDir: mkdtempSync(join(tmpdir(), 'keys-session-test-')),
  });
  const demo = await sandbox.inject({ url: '/sandbox/demo-merchant', headers: { host: '127.0.0.1' } });
  demoLogin = (JSON.parse(demo.body) as { login: string }).login;
  made = await generateKeyPair(2048, crypto);
  expect(demoLogin).not.toBe('');
});

afterAll(async () => {
  await sandbox?.close();
});

const spkiDer = (pem: string) => createPublicKey(pem).export({ type: 'spki', format: 'der' });

describe('generation', () => {
  it('starts at 4096 bits, times a 2048-bit generation on the injected clock and keeps the pair', async () => {
    const { s, time, kept } = session();
    expect(s.getSnapshot().bits).toBe(4096);
    s.pickBits(2048);
    const done = s.generate();
    expect(s.getSnapshot()).toMatchObject({ generating: true, elapsedMs: 0 });
    // Nothing else while it runs: the size is fixed and a second Generate is ignored.
    s.pickBits(3072);
    void s.generate();
    expect(s.getSnapshot().bits).toBe(2048);
    expect(time.t.ticks.size).toBe(1);
    time.advance(100);
    time.advance(250);
    expect(s.getSnapshot().elapsedMs).toBe(350);
    await done;
    const snap = s.getSnapshot();
    expect(snap.generating).toBe(false);
    expect(time.t.ticks.size).toBe(0);
    expect(time.t.stops).toBe(1);
    expect(snap.pair?.ms).toBe(350);
    expect(snap.pair?.saved).toBeNull();
    expect(kept.pair).toBe(snap.pair);
    const keys = snap.pair!.keys;
    expect(keys.bits).toBe(2048);
    // Independent of the core: Node reads all three PEMs, they are one pair, and the fingerprint is the SPKI's SHA-256.
    expect(createPublicKey(keys.spkiPem).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(createHash('sha256').update(spkiDer(keys.spkiPem)).digest('hex')).toBe(keys.fingerprint);
    const signature = sign('sha256', Buffer.from('x'), createPrivateKey(keys.pkcs1Pem));
    expect(verify('sha256', Buffer.from('x'), createPublicKey(keys.spkiPem), signature)).toBe(true);
    expect(spkiDer(keys.pkcs8Pem)).toEqual(spkiDer(keys.spkiPem));

    // Leaving the page and coming back: the pair and its size are still there.
    const again = new KeysSession({
      crypto,
      now: () => 0,
      every: time.every,
      memory: { read: () => kept.pair, write: () => undefined },
    });
    expect(again.getSnapshot().pair).toBe(snap.pair);
    expect(again.getSnapshot().bits).toBe(2048);
  });

  it('says why a generation failed, and stops the ticker', async () => {
    const { s, time } = session({ generate: () => Promise.reject(new Error('no entropy')) });
    await s.generate();
    expect(s.getSnapshot()).toMatchObject({ generating: false, generateError: 'no entropy', pair: null });
    expect(time.t.ticks.size).toBe(0);
  });
});

describe('registration with the local sandbox', () => {
  it('asks to save the private key first, then registers it; the sandbox answers with its fingerprint', async () => {
    const classroom: Array<[string, string]> = [];
    const { s } = session({
      generate: async () => made,
      keepClassroomKey: async (login, pem) => {
        classroom.push([login, pem]);
      },
    });
    s.pickBits(2048);
    await s.generate();
    const pair = s.getSnapshot().pair!;

    await s.startRegister(demoLogin);
    expect(s.getSnapshot()).toMatchObject({ askSave: true, registering: false, registered: null });
    s.closeSaveFirst();
    expect(s.getSnapshot().askSave).toBe(false);

    s.markSaved('copied');
    expect(s.getSnapshot().pair?.saved).toBe('copied');
    s.markSaved('downloaded');
    expect(s.getSnapshot().pair?.saved).toBe('copied');
    await s.startRegister(demoLogin);
    const snap = s.getSnapshot();
    expect(snap.askSave).toBe(false);
    expect(snap.registerError).toBeNull();
    expect(snap.registered?.ok).toBe(true);
    expect(snap.registered?.status).toBe(200);
    expect(snap.registered?.body).toMatchObject({
      login: demoLogin,
      keyBits: 2048,
      keyFingerprint: pair.keys.fingerprint,
    });
    expect(classroom).toEqual([[demoLogin, pair.keys.pkcs8Pem]]);

    // A new pair forgets the answer about the one before.
    await s.generate();
    expect(s.getSnapshot().registered).toBeNull();
  });

  it('remembers the key through the profile before registering; a cancel or a failure registers nothing', async () => {
    const { s } = session({ generate: async () => made });
    s.pickBits(2048);
    await s.generate();
    const pair = s.getSnapshot().pair!;

    await s.rememberThenRegister(demoLogin, async () => false);
    expect(s.getSnapshot()).toMatchObject({ registered: null, saveError: null, askSave: false });
    expect(s.getSnapshot().pair?.saved).toBeNull();

    await s.rememberThenRegister(demoLogin, () => Promise.reject(new Error('vault locked')));
    expect(s.getSnapshot()).toMatchObject({ registered: null, saveError: 'vault locked' });

    const remembered: string[] = [];
    await s.rememberThenRegister(demoLogin, async (pem) => {
      remembered.push(pem);
      return true;
    });
    const snap = s.getSnapshot();
    expect(remembered).toEqual([pair.keys.pkcs8Pem]);
    expect(snap.saveError).toBeNull();
    expect(snap.pair?.saved).toBe('remembered');
    expect(snap.useResult?.text).toContain(
      `fingerprint ${pair.keys.fingerprint}), remembered on this device`,
    );
    expect(snap.registered?.ok).toBe(true);
  });

  it('reports a refusal as the sandbox words it', async () => {
    const { s } = session({ generate: async () => made });
    s.pickBits(2048);
    await s.generate();
    await s.register('nobody-registered-this-login');
    const r = s.getSnapshot().registered;
    expect(r?.ok).toBe(false);
    expect(r?.status).toBeGreaterThanOrEqual(400);
  });

  it('restores the demo key and hands its private key to a profile that signs as the demo merchant', async () => {
    const { s } = session({ generate: async () => made });
    s.pickBits(2048);
    await s.generate();
    s.markSaved('copied');
    await s.register(demoLogin);
    const used: string[] = [];
    await s.restore(demoLogin, async (pem) => {
      used.push(pem);
    });
    const r = s.getSnapshot().restored;
    expect(s.getSnapshot().restoreError).toBeNull();
    expect(r?.restored).toMatchObject({ login: demoLogin, restored: true });
    expect(r?.restored.keyFingerprint).not.toBe(s.getSnapshot().pair?.keys.fingerprint);
    expect(r?.used).toBe(r?.privateKeyPkcs8Pem !== null);
    expect(used).toEqual(r?.privateKeyPkcs8Pem ? [r.privateKeyPkcs8Pem] : []);

    await s.restore('someone-else', async () => {
      throw new Error('not called for another merchant');
    });
    expect(s.getSnapshot().restored).toMatchObject({ used: false, restored: { restored: false } });
  });

  it('uses the key in the active profile, or says why not', async () => {
    const { s } = session({ generate: async () => made });
    s.pickBits(2048);
    await s.generate();
    const fp = s.getSnapshot().pair!.keys.fingerprint;
    await s.useInProfile(async () => undefined);
    expect(s.getSnapshot().useResult).toEqual({
      kind: 'ok',
      text: `The active profile now signs with this key (fingerprint ${fp}).`,
    });
    await s.useInProfile(() => Promise.reject(new Error('no profile')));
    expect(s.getSnapshot().useResult).toEqual({ kind: 'error', text: 'no profile' });
  });
});

describe('inspection and conversion', () => {
  const node = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pkcs1 = node.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const spki = node.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const fingerprint = createHash('sha256')
    .update(node.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');

  it('inspects the text it holds, the latest one only, and converts it', async () => {
    const { s } = session();
    s.setKeyText(spki);
    s.setKeyText(pkcs1);
    expect(s.getSnapshot().inspection).toBeNull();
    await s.settled();
    const inspection = s.getSnapshot().inspection!;
    expect(inspection.kind).toBe('pkcs1-private');
    expect(inspection.fingerprint).toBe(fingerprint);

    await s.convert('pkcs8');
    const converted = s.getSnapshot().converted!;
    expect(converted.id).toBe('pkcs8');
    expect(converted.pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(createPrivateKey(converted.pem).export({ type: 'pkcs1', format: 'pem' }).toString().trim()).toBe(
      pkcs1.trim(),
    );

    // Typing drops the conversion of the text that was there.
    s.setKeyText(`${pkcs1}\n`);
    expect(s.getSnapshot().converted).toBeNull();
    s.setKeyText('   ');
    await s.settled();
    expect(s.getSnapshot().inspection).toBeNull();
  });

  it('says why a conversion or a key file failed', async () => {
    const { s } = session();
    s.setKeyText('-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----');
    await s.convert('pkcs1-public');
    expect(s.getSnapshot().converted).toBeNull();
    expect(s.getSnapshot().inspectError).not.toBeNull();
    s.openedFile({ error: 'The file is larger than a key.' });
    expect(s.getSnapshot().inspectError).toBe('The file is larger than a key.');
    s.openedFile({ text: spki });
    await s.settled();
    expect(s.getSnapshot()).toMatchObject({ keyText: spki, inspectError: null });
    expect(s.getSnapshot().inspection?.kind).toBe('spki-public');
  });
});
