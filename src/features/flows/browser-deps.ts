import type { SigningRuntime } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { browserTransport } from '../../browser/proxy-client.ts';
import type { FlowDeps } from './flow-run-types.ts';
import type { FlowEnv } from './flow-types.ts';

export function freshOrderId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let tail = '';
  for (const b of crypto.getRandomValues(new Uint8Array(6))) tail += alphabet[b % alphabet.length];
  return `flow-${Date.now().toString(36)}-${tail}`;
}

/** The 3-D Secure 2 browser fields, read from this browser. */
export function browserFields(): Record<string, string> {
  return {
    browserAcceptHeader: 'text/html,application/xhtml+xml',
    browserLanguage: (navigator.language || 'en-US').slice(0, 8),
    browserColorDepth: String(screen.colorDepth || 24),
    browserScreenHeight: String(screen.height || 800),
    browserScreenWidth: String(screen.width || 1280),
    browserTZ: String(new Date().getTimezoneOffset()),
    browserUserAgent: navigator.userAgent.slice(0, 2048),
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Loads the 3DS Method URL in a hidden frame, as the cardholder's browser would; gives up after 10 s. */
function loadMethodUrl(url: string, signal: AbortSignal): Promise<void> {
  if (!/^https?:\/\//i.test(url))
    return Promise.reject(new Error(`The 3DS Method URL ${url} is not a web address.`));
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.title = '3DS Method';
    frame.setAttribute('sandbox', '');
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      frame.remove();
      resolve();
    };
    const timer = setTimeout(finish, 10_000);
    frame.addEventListener('load', finish, { once: true });
    signal.addEventListener('abort', finish, { once: true });
    frame.src = url;
    document.body.append(frame);
  });
}

export function browserDeps(
  context: () => SigningContext | null,
  inboxUrl: string,
  onExchange: FlowDeps['onExchange'],
  runtime: SigningRuntime,
): FlowDeps {
  const env = (): FlowEnv => ({
    login: context()?.credentials.login ?? '',
    callbackUrl: inboxUrl,
    returnUrl: inboxUrl,
    expireYear: String(new Date().getUTCFullYear() + 3),
    browser: browserFields(),
  });
  return {
    context,
    crypto: runtime.crypto,
    clock: runtime.clock,
    nonce: runtime.nonce,
    env,
    transport: (ctx) => browserTransport(ctx.target),
    sleep,
    loadMethodUrl,
    freshOrderId,
    ...(onExchange ? { onExchange } : {}),
  };
}
