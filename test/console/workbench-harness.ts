/**
 * A WorkbenchSession with every port real but the page's: Web Crypto (counted, never replaced),
 * the model's exchange, the send lifecycle, a fixed clock; a transport that answers from the test.
 */
import { webCryptoPort, type CryptoPort } from '../../src/core/index.ts';
import { Cell } from '../../src/core/store.ts';
import { findOperation, type Operation } from '../../src/catalog/index.ts';
import type { Place } from '../../src/model/index.ts';
import {
  prepareExchange,
  type ExchangeRecord,
  type Transport,
  type WireAnswer,
} from '../../src/model/exchange.ts';
import type { SigningContext } from '../../src/model/signing-context.ts';
import type { TargetKind } from '../../src/contracts/proxy.ts';
import type { StoredVariables } from '../../src/browser/variables-store.ts';
import type { BuiltRequest } from '../../src/core/index.ts';
import { SendLifecycle } from '../../src/features/console/send/send-lifecycle.ts';
import {
  WorkbenchSession,
  type WorkbenchOpened,
  type WorkbenchPorts,
  type WorkbenchSnapshot,
} from '../../src/features/console/workbench/workbench-session.ts';
import { BASE_URL, CONTROL_KEY, PRIVATE_KEY } from '../model/signing-env.ts';

export const NOW = Date.UTC(2026, 10, 27, 3, 0, 0);
export const PLACE: Place = {
  origin: 'http://console.test',
  inboxUrl: 'http://console.test/inbox/s1',
  login: 'merchant',
};

export function op(path: string): Operation {
  const found = findOperation(path);
  if (!found) throw new Error(`no ${path}`);
  return found;
}

export function profile(kind: TargetKind = 'local'): SigningContext {
  return {
    profileId: 'p1',
    profileName: 'demo',
    target: { name: kind === 'production' ? 'live' : 'local', baseUrl: BASE_URL, kind },
    endpoint: { kind: 'endpoint', id: '1111' },
    credentials: { login: PLACE.login, controlKey: CONTROL_KEY, privateKey: PRIVATE_KEY },
  };
}

/** The real Web Crypto port, counting the signatures it makes (SHA-1 for `control`, HMAC, RSA). */
function countedCrypto(): { crypto: CryptoPort; signatures: () => number } {
  const real = webCryptoPort();
  let n = 0;
  return {
    signatures: () => n,
    crypto: {
      ...real,
      sha1Hex: (text) => (n++, real.sha1Hex(text)),
      hmacSha1Base64: (key, text) => (n++, real.hmacSha1Base64(key, text)),
      rsaSha256SignBase64: (key, text) => (n++, real.rsaSha256SignBase64(key, text)),
    },
  };
}

const ANSWER: WireAnswer = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: '{"type":"async-response","paynet-order-id":"9001","merchant-order-id":"inv-1","serial-number":"s-1"}',
  elapsedMs: 3,
};

export interface HarnessOptions {
  context?: SigningContext | null;
  stored?: number;
  invalid?: string[];
  /** Holds every send until the test releases it. */
  hold?: boolean;
  over?: Partial<WorkbenchPorts>;
}

export function harness(path = 'v2/sale', options: HarnessOptions = {}, opened: WorkbenchOpened = {}) {
  const calls = {
    /** The timeout each send's lifecycle got, one per send that went past prepare. */
    sent: [] as number[],
    saved: [] as number[],
    focused: [] as string[],
    checks: 0,
    received: [] as BuiltRequest[],
    records: [] as ExchangeRecord[],
  };
  let stored = options.stored ?? 30;
  const { crypto, signatures } = countedCrypto();
  const variables = new Cell<StoredVariables>({});
  const held: Array<() => void> = [];
  const waiting: Array<(built: BuiltRequest) => void> = [];
  const transport: Transport = (built) => {
    calls.received.push(built);
    waiting.splice(0).forEach((arrived) => arrived(built));
    if (!options.hold) return Promise.resolve(ANSWER);
    return new Promise((resolve) => held.push(() => resolve(ANSWER)));
  };
  let nonces = 0;
  const ports: WorkbenchPorts = {
    runtime: { crypto, nonce: () => `nonce${(nonces += 1)}`, clock: () => NOW },
    variables,
    prepare: prepareExchange,
    lifecycle: (seconds) => {
      calls.sent.push(seconds);
      return Promise.resolve(new SendLifecycle(seconds));
    },
    transport: () => transport,
    recorded: (r) => calls.records.push(r),
    timeouts: {
      load: () => stored,
      save: (s) => {
        stored = s;
        calls.saved.push(s);
      },
    },
    check: () => {
      calls.checks++;
      return Promise.resolve(options.invalid ?? []);
    },
    focusField: (name) => calls.focused.push(name),
    focusTimeout: () => calls.focused.push('timeout'),
    orderId: (now) => `inv-${now}`,
    ...options.over,
  };
  const context = options.context === undefined ? profile() : options.context;
  const session = new WorkbenchSession(op(path), ports, { context, place: PLACE }, opened);
  let notified = 0;
  session.subscribe(() => notified++);
  return {
    session,
    calls,
    variables,
    signatures,
    notified: () => notified,
    release: () => held.splice(0).forEach((go) => go()),
    /** The next request to reach the transport. */
    nextRequest: () => new Promise<BuiltRequest>((resolve) => waiting.push(resolve)),
  };
}

/** Resolves at the first snapshot (this one or a later) that `holds`: no timer, only the session's own news. */
export function until(
  session: WorkbenchSession,
  holds: (s: WorkbenchSnapshot) => boolean,
): Promise<WorkbenchSnapshot> {
  return new Promise((resolve) => {
    if (holds(session.getSnapshot())) return resolve(session.getSnapshot());
    const stop = session.subscribe(() => {
      if (!holds(session.getSnapshot())) return;
      stop();
      resolve(session.getSnapshot());
    });
  });
}

/** The next live build to land after now. */
export function nextBuild(session: WorkbenchSession): Promise<WorkbenchSnapshot> {
  const before = session.getSnapshot().live.result;
  return until(session, (s) => s.live.result !== before);
}
