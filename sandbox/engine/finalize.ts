import { randomInt } from 'node:crypto';
import type { CvvOutcome } from '../outcomes.ts';
import { FINAL, type DueRequest, type RequestRow } from '../store.ts';
import type { EngineContext, OperationCall } from './context.ts';
import { callbackUrlsOf } from './notify-url.ts';
import { ORDER_ID, schedule } from './orders.ts';
import { applyLedger, movesLedger } from './settlement.ts';

/** Makes a request final now (hosted pages decide while the customer waits). */
export function finalizeNow(x: EngineContext, request: RequestRow, outcome: CvvOutcome, now: number): void {
  schedule(x, request, outcome, now);
  x.store.requests.update(request.id, { finalize_at: now });
  const order = x.store.orders.get(request.order_id);
  applyFinal(
    x,
    {
      request: x.store.requests.get(request.id)!,
      callbackUrl: order?.callback_url ?? null,
      orderExtraJson: order?.extra_json ?? null,
    },
    now,
  );
}

/** Requests finalised per write transaction, and per turn of the event loop. */
export const DUE_BATCH = 50;

/**
 * Applies requests whose delay has passed, `maxBatches` batches of {@link DUE_BATCH} at the most;
 * returns how many (a full last batch: more may be due). Each batch is read and finalised under the
 * write lock, so two processes on one database finalise a row once. `everyProcess`: also look for
 * rows another process scheduled (the timer); a request only sweeps when one of this process's own
 * rows may be due, which spares it a query.
 */
export function finalizeDue(
  x: EngineContext,
  now: number,
  everyProcess = true,
  maxBatches = Number.POSITIVE_INFINITY,
): number {
  const store = x.store;
  if (store.isClosed || (!everyProcess && !store.requests.mayBeDue(now))) return 0;
  let n = 0;
  for (let b = 0; b < maxBatches; b++) {
    // Read under the write lock: no other process can finalise these rows in between.
    const batch = store.tx(() => {
      const due = store.requests.due(now, DUE_BATCH);
      for (const d of due) applyFinal(x, d, now);
      return due.length;
    });
    n += batch;
    if (batch < DUE_BATCH) break;
  }
  store.requests.refreshDueHint();
  return n;
}

/**
 * While a backlog larger than a batch waits for the timer, the order a request names is finalised
 * first, so it still reads as final once its delay has passed. Runs in the request's transaction.
 * `byClientId`: an operation that may name its order by `client_orderid` alone (status).
 */
export function finalizeNamedOrder(x: EngineContext, c: OperationCall, byClientId: boolean): void {
  const store = x.store;
  let orderId: number | undefined;
  const raw = c.params.get('orderid');
  if (raw !== undefined && ORDER_ID.test(raw)) orderId = Number(raw);
  else if (raw === undefined && byClientId) {
    const client = c.params.get('client_orderid');
    if (client !== undefined) orderId = store.orders.latestByClientId(c.merchant.login, client)?.id;
  }
  if (orderId === undefined) return;
  for (const d of store.requests.dueOf(orderId, c.now)) applyFinal(x, d, c.now);
}

/** Finalises what is due on one order now (a recurring charge, in the transaction that made it). */
export function finalizeOrderDue(x: EngineContext, orderId: number, now: number): void {
  for (const d of x.store.requests.dueOf(orderId, now)) applyFinal(x, d, now);
}

/** Applies a due request's outcome; its order's callback URL came with it (`DueRequest`). */
function applyFinal(
  x: EngineContext,
  { request: r, callbackUrl, orderExtraJson }: DueRequest,
  now: number,
): void {
  const status = r.pending_status ?? 'approved';
  const approved = status === 'approved';
  x.store.requests.update(r.id, {
    status,
    pending_status: null,
    finalize_at: null,
    error_message: r.pending_error_message,
    error_code: r.pending_error_code,
    pending_error_message: null,
    pending_error_code: null,
    approval_code: approved ? String(randomInt(0, 1_000_000)).padStart(6, '0') : null,
    rrn: approved
      ? String(randomInt(100_000, 1_000_000)) + String(randomInt(0, 1_000_000)).padStart(6, '0')
      : null,
  });
  // The whole order only when the settlement table moves its ledger.
  if (approved && movesLedger(r.kind)) applyLedger(x.store, x.store.orders.get(r.order_id)!, r);
  if ((FINAL as readonly string[]).includes(status))
    for (const url of callbackUrlsOf(r, callbackUrl, orderExtraJson))
      x.store.callbacks.insert(r.id, url, now);
}
