import type { CryptoPort } from '../core/index.ts';
import { onKeysDropped } from './key-drop.ts';
import { signerAnswerSchema, type SignerRequest } from './rsa-signer-protocol.ts';

/** What the port needs of a worker and of a channel: the DOM's own types satisfy these. */
export interface SignerWorker {
  postMessage(message: SignerRequest): void;
  addEventListener(type: 'error', listener: () => void): void;
  terminate?(): void;
}
export interface AnswerChannel {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export interface OffThreadDeps {
  /** Starts the worker; null where there are no workers. */
  spawn: () => SignerWorker | null;
  /** Opens the channel of this name the worker answers on. */
  open: (name: string) => AnswerChannel;
  /** A random channel name. */
  channelName: () => string;
  /** Calls back when the page drops its private keys; returns an unsubscribe. */
  onKeysDropped: (listener: () => void) => () => void;
}

/** After this long without an answer, a signature is made on the page instead. */
const STUCK_MS = 5000;

interface Pending {
  key: CryptoKey;
  text: string;
  resolve: (signature: string) => void;
  reject: (e: unknown) => void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * `base`, with RSA-SHA256 signing moved into a worker so a keystroke on an RSA form costs the page
 * no signing time. The first RSA signature is made here (it starts the worker); the ones after it go
 * to the worker, queued until it is ready. The worker signs with the same Web Crypto call, so the
 * bytes are the same. A key the worker cannot take, an error there, or a worker that fails, and the
 * signature is made here instead: the worker only ever moves work, never changes an answer.
 */
export function offThreadRsa(base: CryptoPort, deps: OffThreadDeps): CryptoPort {
  let worker: SignerWorker | null = null;
  let broken = false;
  let ready = false;
  const queue: SignerRequest[] = [];
  const pending = new Map<number, Pending>();
  let keyIds = new WeakMap<CryptoKey, number>();
  let nextId = 1;

  const onMain = (p: Pending) => {
    clearTimeout(p.timer);
    return base.rsaSha256SignBase64(p.key, p.text).then(p.resolve, p.reject);
  };

  const fail = () => {
    broken = true;
    worker?.terminate?.();
    worker = null;
    queue.length = 0;
    const left = [...pending.values()];
    pending.clear();
    for (const p of left) void onMain(p);
  };

  const post = (m: SignerRequest) => {
    if (!worker) return;
    if (ready || m.type === 'init') worker.postMessage(m);
    else queue.push(m);
  };

  const start = () => {
    try {
      worker = deps.spawn();
    } catch {
      worker = null;
    }
    if (!worker) {
      broken = true;
      return;
    }
    try {
      listen(worker);
    } catch {
      fail(); // no channel to answer on: signatures stay here
    }
  };

  const listen = (w: SignerWorker) => {
    const name = deps.channelName();
    deps.open(name).addEventListener('message', (event) => {
      const parsed = signerAnswerSchema.safeParse(event.data);
      if (!parsed.success) return;
      const a = parsed.data;
      if (a.type === 'ready') {
        ready = true;
        try {
          for (const m of queue.splice(0)) worker?.postMessage(m);
        } catch {
          fail();
        }
        return;
      }
      const p = pending.get(a.id);
      if (!p) return;
      pending.delete(a.id);
      clearTimeout(p.timer);
      if (a.type === 'signed') p.resolve(a.signature);
      else {
        // The worker may have let the key go (it keeps the last few): it is sent again next time.
        keyIds.delete(p.key);
        // Made again here, so the error a person reads is the page's own, whatever the worker said.
        void onMain(p);
      }
    });
    w.addEventListener('error', fail);
    post({ type: 'init', channel: name });
    deps.onKeysDropped(() => {
      keyIds = new WeakMap();
      post({ type: 'forget' });
    });
  };

  const keyId = (key: CryptoKey): number | null => {
    const known = keyIds.get(key);
    if (known !== undefined) return known;
    const id = nextId++;
    try {
      post({ type: 'key', keyId: id, key });
    } catch {
      return null; // a key that cannot be sent (DataCloneError) is used here
    }
    keyIds.set(key, id);
    return id;
  };

  return {
    ...base,
    rsaSha256SignBase64(key, text) {
      if (broken) return base.rsaSha256SignBase64(key, text);
      if (!worker) {
        start();
        return base.rsaSha256SignBase64(key, text);
      }
      const kid = keyId(key);
      if (kid === null) return base.rsaSha256SignBase64(key, text);
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const p: Pending = { key, text, resolve, reject };
        pending.set(id, p);
        post({ type: 'sign', id, keyId: kid, text });
        // A worker that neither answers nor fails must not leave the panes waiting.
        p.timer = setTimeout(() => {
          if (pending.delete(id)) void onMain(p);
        }, STUCK_MS);
      });
    },
  };
}

/** The browser's worker and channel, for {@link offThreadRsa}; null deps where there are no workers. */
export function browserSignerDeps(): OffThreadDeps {
  return {
    spawn: () =>
      typeof Worker === 'undefined' || typeof BroadcastChannel === 'undefined'
        ? null
        : new Worker(new URL('./rsa-signer-worker.ts', import.meta.url), { type: 'module' }),
    open: (name) => new BroadcastChannel(name),
    channelName: () => `pay-console-rsa-${crypto.randomUUID()}`,
    onKeysDropped,
  };
}
