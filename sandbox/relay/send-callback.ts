import { EventEmitter } from 'node:events';
import { Agent, request, type Dispatcher } from 'undici';
import { callbackControl, type CryptoPort } from '../../src/core/index.ts';
import { wireTransactionType } from '../../src/catalog/callback-routes.ts';
import { numericErrorCode } from '../../src/catalog/error-codes.ts';
import { fromMinorUnits } from '../outcomes.ts';
import type { DeliveryTarget } from '../store.ts';

/**
 * A callback's URL: the merchant's `server_callback_url` with the final status in its query
 * (gateway-notes.md, Callbacks), signed `control = sha1(status + orderid + merchant_order + key)`.
 */
export async function callbackUrlFor(
  base: string,
  request: Omit<DeliveryTarget['request'], 'id'>,
  order: Pick<DeliveryTarget['order'], 'id' | 'client_orderid'>,
  controlKey: string,
  crypto: CryptoPort,
): Promise<URL | undefined> {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  const control = await callbackControl(
    { status: request.status, orderid: String(order.id), merchantOrder: order.client_orderid },
    controlKey,
    crypto,
  );
  const q = url.searchParams;
  q.append('status', request.status);
  q.append('orderid', String(order.id));
  q.append('merchant_order', order.client_orderid);
  q.append('client_orderid', order.client_orderid);
  q.append('amount', fromMinorUnits(request.amount_minor));
  if (request.currency) q.append('currency', request.currency);
  q.append('type', wireTransactionType(request.kind));
  q.append('serial_number', request.serial);
  if (request.error_message) q.append('error_message', request.error_message);
  // The gateway's callbacks carry a number (its SDK makes it an integer exception code); the
  // symbolic reason travels beside it (src/catalog/error-codes.ts).
  if (request.error_code) {
    q.append('error_code', String(numericErrorCode(request.error_code)));
    q.append('error_reason', request.error_code);
  }
  q.append('control', control);
  return url;
}

/** What came back from the merchant's handler. */
export interface HandlerAnswer {
  httpStatus: number | null;
  result: string;
  durationMs: number;
  bodyExcerpt: string | null;
}

export const EXCERPT_CHARS = 200;

/**
 * The relay's own connection pool: undici's `request` over kept-alive connections costs a fraction
 * of `fetch` per call, which is what lets a fan-out reach thousands of deliveries a second.
 */
const relayAgent = new Agent({ keepAliveTimeout: 10_000, connections: 256 });

/**
 * Reads at most `max` characters of an answer's body, then lets the rest go. Listeners, not an
 * async iterator: the iterator's machinery cost ~17 µs a callback in a fan-out (a CPU profile).
 */
function excerpt(body: Dispatcher.ResponseData['body'], max: number): Promise<string | null> {
  return new Promise((resolve) => {
    const decoder = new TextDecoder();
    let text = '';
    let settled = false;
    // At the end, on an error or a body cut short: a body cut short is still an answer; keep what arrived.
    const done = () => {
      if (settled) return;
      settled = true;
      body.destroy();
      resolve(text === '' ? null : text.length > max ? `${text.slice(0, max)}…` : text);
    };
    body.on('data', (chunk: Uint8Array) => {
      if (settled) return;
      text += decoder.decode(chunk, { stream: true });
      if (text.length >= max) done();
    });
    body.on('end', done);
    body.on('error', done);
    body.on('close', done);
  });
}

/**
 * One send's abort signal, as undici takes it (an EventEmitter with `aborted` and `reason`): an
 * AbortController and its EventTarget listener cost ~4 µs a send, this ~0.2 µs.
 */
class SendAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/**
 * The sends in flight under each stop signal, aborted together by one listener: a listener each
 * on the shared signal cost O(sends in flight) to add and to remove (~9 µs a send with a
 * thousand in flight, against ~1 µs).
 */
const sendsUnder = new WeakMap<AbortSignal, Set<SendAbort>>();

function abortOnStop(stop: AbortSignal, send: SendAbort): () => void {
  let sends = sendsUnder.get(stop);
  if (!sends) {
    const all = new Set<SendAbort>();
    stop.addEventListener(
      'abort',
      () => {
        for (const s of all) s.abort(stop.reason);
      },
      { once: true },
    );
    sendsUnder.set(stop, all);
    sends = all;
  }
  const own = sends;
  own.add(send);
  return () => own.delete(send);
}

/** One GET to the handler, as the gateway sends callbacks: no redirects followed, a timeout. */
export async function sendCallback(
  url: URL,
  timeoutMs: number,
  stop: AbortSignal,
  monotonic: () => number = () => performance.now(),
): Promise<HandlerAnswer> {
  const started = monotonic();
  const timer = new SendAbort();
  const timeout = setTimeout(() => timer.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
  const forget = abortOnStop(stop, timer);
  try {
    const res = await request(url, { method: 'GET', dispatcher: relayAgent, signal: timer });
    const bodyExcerpt = await excerpt(res.body, EXCERPT_CHARS);
    return {
      httpStatus: res.statusCode,
      result: `HTTP ${res.statusCode}`,
      durationMs: Math.round(monotonic() - started),
      bodyExcerpt,
    };
  } catch (e) {
    const timedOut = timer.aborted && !stop.aborted;
    return {
      httpStatus: null,
      result: timedOut ? 'timeout' : `network error: ${(e as Error).message}`,
      durationMs: Math.round(monotonic() - started),
      bodyExcerpt: null,
    };
  } finally {
    clearTimeout(timeout);
    forget();
  }
}
