/**
 * RSA signing moved into a worker: the worker side (signerEndpoint) with real Web Crypto, and the
 * page side (offThreadRsa) over an in-process worker that runs that same endpoint, so every
 * signature here is a real one, checked against Node's own `crypto.sign`.
 */
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webCryptoPort, type CryptoPort } from '../../src/core/index.ts';
import {
  offThreadRsa,
  type AnswerChannel,
  type OffThreadDeps,
  type SignerWorker,
} from '../../src/browser/off-thread-rsa.ts';
import { KEPT_KEYS, signerEndpoint, type SignerRequest } from '../../src/browser/rsa-signer-protocol.ts';

const pair = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const der = (pem: string) =>
  new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64'));
const RSASSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const privateKey = await crypto.subtle.importKey('pkcs8', der(pair.privateKey), RSASSA, false, ['sign']);
const publicKey = await crypto.subtle.importKey('spki', der(pair.publicKey), RSASSA, true, ['verify']);
/** Node's own signature, the independent answer. */
const expected = (text: string) =>
  nodeSign('sha256', Buffer.from(text, 'utf8'), pair.privateKey).toString('base64');

/**
 * A worker in this process: each message is handled by the real endpoint on a later turn, and the
 * answer is delivered on the channel, as the browser's worker and BroadcastChannel do.
 */
function inProcessWorker(opts: { silent?: boolean } = {}) {
  const endpoint = signerEndpoint(webCryptoPort());
  const listeners = new Map<string, Array<(e: { data: unknown }) => void>>();
  const errorListeners: Array<() => void> = [];
  const sent: SignerRequest[] = [];
  let channelName = '';
  const worker: SignerWorker = {
    postMessage(m) {
      sent.push(m);
      if (opts.silent) return;
      setTimeout(() => {
        void endpoint.handle(m).then((answer) => {
          if (!answer) return;
          if (answer.type === 'init') {
            channelName = answer.channel;
            answer = { type: 'ready' };
          }
          for (const l of listeners.get(channelName) ?? []) l({ data: answer });
        });
      }, 0);
    },
    addEventListener(_type, listener) {
      errorListeners.push(listener);
    },
    terminate() {
      terminated.push(1);
    },
  };
  const terminated: number[] = [];
  const spawned: number[] = [];
  const deps: OffThreadDeps = {
    spawn: () => {
      spawned.push(1);
      return worker;
    },
    open: (name): AnswerChannel => ({
      addEventListener: (_type, l) => listeners.set(name, [...(listeners.get(name) ?? []), l]),
    }),
    channelName: () => 'test-channel',
    onKeysDropped: (l) => {
      dropListeners.push(l);
      return () => undefined;
    },
  };
  const dropListeners: Array<() => void> = [];
  return {
    deps,
    sent,
    spawned,
    terminated,
    crash: () => errorListeners.forEach((l) => l()),
    dropKeys: () => dropListeners.forEach((l) => l()),
  };
}

/** Web Crypto with a count of the RSA signatures made on "the page". */
function countingBase(): { port: CryptoPort; onPage: () => number } {
  const base = webCryptoPort();
  let n = 0;
  return {
    port: {
      ...base,
      rsaSha256SignBase64(key, text) {
        n += 1;
        return base.rsaSha256SignBase64(key, text);
      },
    },
    onPage: () => n,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('signerEndpoint (the worker side)', () => {
  it('signs with a key it was sent, byte for byte what Node signs', async () => {
    const endpoint = signerEndpoint(webCryptoPort());
    expect(await endpoint.handle({ type: 'key', keyId: 1, key: privateKey })).toBeNull();
    const answer = await endpoint.handle({ type: 'sign', id: 7, keyId: 1, text: 'POST&x&a%3D1 ü' });
    expect(answer).toEqual({ type: 'signed', id: 7, signature: expected('POST&x&a%3D1 ü') });
  });

  it('answers failed for a key it does not hold or cannot sign with, and ignores garbage', async () => {
    const endpoint = signerEndpoint(webCryptoPort());
    expect(await endpoint.handle({ type: 'sign', id: 1, keyId: 9, text: 'x' })).toMatchObject({
      type: 'failed',
      id: 1,
      message: expect.stringContaining('no key 9'),
    });
    await endpoint.handle({ type: 'key', keyId: 2, key: publicKey });
    expect(await endpoint.handle({ type: 'sign', id: 2, keyId: 2, text: 'x' })).toMatchObject({
      type: 'failed',
      id: 2,
    });
    expect(await endpoint.handle({ type: 'sign', id: 'x' })).toBeNull();
    expect(await endpoint.handle('hello')).toBeNull();
  });
});

describe('the worker keeps only the last few private keys', () => {
  it(`forgets all but the last ${KEPT_KEYS} keys it was sent`, async () => {
    const endpoint = signerEndpoint(webCryptoPort());
    for (let id = 1; id <= KEPT_KEYS + 1; id++)
      await endpoint.handle({ type: 'key', keyId: id, key: privateKey });
    expect(await endpoint.handle({ type: 'sign', id: 1, keyId: 1, text: 'x' })).toMatchObject({
      type: 'failed',
      message: expect.stringContaining('no key 1'),
    });
    expect(await endpoint.handle({ type: 'sign', id: 2, keyId: 2, text: 'x' })).toEqual({
      type: 'signed',
      id: 2,
      signature: expected('x'),
    });
  });

  it('the page sends a key again once the worker has let it go', async () => {
    const w = inProcessWorker();
    const base = countingBase();
    const port = offThreadRsa(base.port, w.deps);
    // The same key imported several times: distinct CryptoKey objects, as several profiles give.
    const keys = await Promise.all(
      Array.from({ length: KEPT_KEYS + 1 }, () =>
        crypto.subtle.importKey('pkcs8', der(pair.privateKey), RSASSA, false, ['sign']),
      ),
    );
    await port.rsaSha256SignBase64(keys[0]!, 'start');
    for (const [i, k] of keys.entries())
      expect(await port.rsaSha256SignBase64(k, `k${i}`)).toBe(expected(`k${i}`));
    expect(base.onPage()).toBe(1);
    // keys[0] was the oldest: the worker no longer holds it, so this one is made on the page…
    expect(await port.rsaSha256SignBase64(keys[0]!, 'again')).toBe(expected('again'));
    expect(base.onPage()).toBe(2);
    // …and the next one sends the key again and is the worker's.
    expect(await port.rsaSha256SignBase64(keys[0]!, 'once more')).toBe(expected('once more'));
    expect(base.onPage()).toBe(2);
    expect(w.sent.slice(-2).map((m) => m.type)).toEqual(['key', 'sign']);
  });
});

describe('the worker drops its keys with the page', () => {
  it('forgets every key on forget', async () => {
    const endpoint = signerEndpoint(webCryptoPort());
    await endpoint.handle({ type: 'key', keyId: 1, key: privateKey });
    expect(await endpoint.handle({ type: 'forget' })).toBeNull();
    expect(await endpoint.handle({ type: 'sign', id: 1, keyId: 1, text: 'x' })).toMatchObject({
      type: 'failed',
      message: expect.stringContaining('no key 1'),
    });
  });

  it('tells the worker when the page drops its keys, and sends a key again after', async () => {
    const w = inProcessWorker();
    const base = countingBase();
    const port = offThreadRsa(base.port, w.deps);
    await port.rsaSha256SignBase64(privateKey, 'start');
    expect(await port.rsaSha256SignBase64(privateKey, 'a')).toBe(expected('a'));
    w.dropKeys();
    expect(await port.rsaSha256SignBase64(privateKey, 'b')).toBe(expected('b'));
    expect(base.onPage()).toBe(1);
    expect(w.sent.map((m) => m.type)).toEqual(['init', 'key', 'sign', 'forget', 'key', 'sign']);
  });
});

describe('offThreadRsa (the page side)', () => {
  it('signs the first RSA request on the page, starts the worker, and sends the next ones there', async () => {
    const w = inProcessWorker();
    const base = countingBase();
    const port = offThreadRsa(base.port, w.deps);
    expect(await port.rsaSha256SignBase64(privateKey, 'first')).toBe(expected('first'));
    expect(base.onPage()).toBe(1);
    expect(w.spawned).toHaveLength(1);
    // Several at once, before the worker said it is ready: queued, then all answered by it.
    const texts = ['a', 'b', 'c&d=%20', 'ü'];
    const sigs = await Promise.all(texts.map((t) => port.rsaSha256SignBase64(privateKey, t)));
    expect(sigs).toEqual(texts.map(expected));
    expect(base.onPage()).toBe(1);
    expect(w.sent.map((m) => m.type)).toEqual(['init', 'key', 'sign', 'sign', 'sign', 'sign']);
    expect(w.spawned).toHaveLength(1);
  });

  it('leaves the other operations to the base port', async () => {
    const port = offThreadRsa(webCryptoPort(), inProcessWorker().deps);
    expect(await port.sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(await port.rsaSha256Verify(publicKey, expected('v'), 'v')).toBe(true);
  });

  it('makes the signature on the page when the worker fails, for the pending ones and after', async () => {
    const w = inProcessWorker({ silent: true });
    const base = countingBase();
    const port = offThreadRsa(base.port, w.deps);
    await port.rsaSha256SignBase64(privateKey, 'start');
    const pending = port.rsaSha256SignBase64(privateKey, 'waiting');
    w.crash();
    expect(await pending).toBe(expected('waiting'));
    expect(await port.rsaSha256SignBase64(privateKey, 'later')).toBe(expected('later'));
    expect(base.onPage()).toBe(3);
    expect(w.terminated).toHaveLength(1);
  });

  it("gives the page's own error when the worker cannot sign", async () => {
    const port = offThreadRsa(webCryptoPort(), inProcessWorker().deps);
    const own = await webCryptoPort()
      .rsaSha256SignBase64(publicKey, 'x')
      .then(
        () => 'signed',
        (e: unknown) => (e as Error).message,
      );
    expect(own).not.toBe('signed');
    await port.rsaSha256SignBase64(privateKey, 'start');
    await expect(port.rsaSha256SignBase64(publicKey, 'x')).rejects.toThrow(own);
  });

  it('signs on the page a request the worker never answers', async () => {
    vi.useFakeTimers();
    const w = inProcessWorker({ silent: true });
    const port = offThreadRsa(webCryptoPort(), w.deps);
    const first = port.rsaSha256SignBase64(privateKey, 'start');
    await vi.runAllTimersAsync();
    await first;
    const stuck = port.rsaSha256SignBase64(privateKey, 'stuck');
    await vi.runAllTimersAsync();
    vi.useRealTimers();
    expect(await stuck).toBe(expected('stuck'));
  });

  it('signs on the page where the answer channel cannot be opened', async () => {
    const base = countingBase();
    const port = offThreadRsa(base.port, {
      ...inProcessWorker().deps,
      open: () => {
        throw new Error('no BroadcastChannel');
      },
    });
    for (const t of ['1', '2']) expect(await port.rsaSha256SignBase64(privateKey, t)).toBe(expected(t));
    expect(base.onPage()).toBe(2);
  });

  it('signs on the page where there are no workers', async () => {
    const base = countingBase();
    const port = offThreadRsa(base.port, { ...inProcessWorker().deps, spawn: () => null });
    for (const t of ['1', '2', '3']) expect(await port.rsaSha256SignBase64(privateKey, t)).toBe(expected(t));
    expect(base.onPage()).toBe(3);
  });
});
