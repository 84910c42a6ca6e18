import { randomInt } from 'node:crypto';
import type { CvvOutcome } from '../outcomes.ts';
import { FINAL, type RequestRow } from '../store.ts';
import type { EngineContext } from './context.ts';
import { schedule } from './orders.ts';
import { applyLedger } from './settlement.ts';

/** Makes a request final now (hosted pages decide while the customer waits). */
export function finalizeNow(x: EngineContext, request: RequestRow, outcome: CvvOutcome, now: number): void {
  schedule(x, request, outcome, now);
  x.store.updateRequest(request.id, { finalize_at: now });
  applyFinal(x, x.store.getRequest(request.id)!, now);
}

/**
 * Applies every request whose delay has passed; returns how many. Each one in its own write
 * transaction that re-reads the row, so two processes on one database finalise it once.
 */
export function finalizeDue(x: EngineContext, now: number): number {
  if (x.store.isClosed) return 0;
  let n = 0;
  for (;;) {
    const due = x.store.dueRequests(now);
    if (due.length === 0) return n;
    for (const r of due) {
      x.store.tx(() => {
        const fresh = x.store.getRequest(r.id);
        if (fresh && fresh.finalize_at !== null && fresh.finalize_at <= now) applyFinal(x, fresh, now);
      });
      n++;
    }
  }
}

function applyFinal(x: EngineContext, r: RequestRow, now: number): void {
  const status = r.pending_status ?? 'approved';
  const approved = status === 'approved';
  x.store.updateRequest(r.id, {
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
  const order = x.store.getOrder(r.order_id)!;
  if (approved) applyLedger(x.store, order, r);
  if ((FINAL as readonly string[]).includes(status) && order.callback_url)
    x.store.insertCallback(r.id, order.callback_url, now);
}
