import { Agent, request, type Dispatcher } from 'undici';
import { callbackControl, type CryptoPort } from '../../src/core/index.ts';
import { numericErrorCode } from '../../src/catalog/error-codes.ts';
import { fromMinorUnits } from '../outcomes.ts';
import type { OrderRow, RequestRow } from '../store.ts';

/**
 * A callback's URL: the merchant's `server_callback_url` with the final status in its query
 * (gateway-notes.md, Callbacks), signed `control = sha1(status + orderid + merchant_order + key)`.
 */
export async function callbackUrlFor(
  base: string,
  request: RequestRow,
  order: OrderRow,
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
  q.append('type', request.kind);
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

/** Reads at most `max` characters of an answer's body, then lets the rest go. */
async function excerpt(body: Dispatcher.ResponseData['body'], max: number): Promise<string | null> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of body) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (text.length >= max) break;
    }
  } catch {
    // A body cut short is still an answer; keep what arrived.
  } finally {
    body.destroy();
  }
  if (text === '') return null;
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One GET to the handler, as the gateway sends callbacks: no redirects followed, a timeout. */
export async function sendCallback(
  url: URL,
  timeoutMs: number,
  stop: AbortSignal,
  monotonic: () => number = () => performance.now(),
): Promise<HandlerAnswer> {
  const started = monotonic();
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
  const onStop = () => timer.abort(stop.reason);
  stop.addEventListener('abort', onStop, { once: true });
  try {
    const res = await request(url, { method: 'GET', dispatcher: relayAgent, signal: timer.signal });
    const bodyExcerpt = await excerpt(res.body, EXCERPT_CHARS);
    return {
      httpStatus: res.statusCode,
      result: `HTTP ${res.statusCode}`,
      durationMs: Math.round(monotonic() - started),
      bodyExcerpt,
    };
  } catch (e) {
    const timedOut = timer.signal.aborted && !stop.aborted;
    return {
      httpStatus: null,
      result: timedOut ? 'timeout' : `network error: ${(e as Error).message}`,
      durationMs: Math.round(monotonic() - started),
      bodyExcerpt: null,
    };
  } finally {
    clearTimeout(timeout);
    stop.removeEventListener('abort', onStop);
  }
}
