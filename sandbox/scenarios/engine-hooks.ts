import { delayOf, type ScenarioChoice } from '../../src/catalog/scenarios.ts';
import { errorReply, type ApiReply } from '../replies.ts';
import type { SandboxStore } from '../store.ts';
import type { EngineContext, OperationCall } from '../engine/context.ts';
import { chargebacksOf } from './chargebacks.ts';
import { methodTimeoutNote, SANDBOX_NOTE_HEADER } from '../engine/three-ds.ts';
import { pickOf, type ScenarioStore } from './scenario-store.ts';

/**
 * Makes an order's pending transactions end as its scenario says: `error` or `filtered` instead of
 * the card's outcome, or no final status at all (`stuck-processing`: no deadline, so the sweep never
 * picks them up). Runs in the request's transaction, or when a choice is set on an existing order.
 */
export function applyOutcome(store: SandboxStore, orderId: number, choice: ScenarioChoice): void {
  const stuck = pickOf(choice, 'stuck-processing');
  const error = pickOf(choice, 'final-error');
  const filtered = pickOf(choice, 'final-filtered');
  if (!stuck && !error && !filtered) return;
  for (const r of store.requestsOf(orderId)) {
    if (r.finalize_at === null) continue;
    if (stuck) store.updateRequest(r.id, { pending_status: null, finalize_at: null });
    else if (error)
      store.updateRequest(r.id, {
        pending_status: 'error',
        pending_error_message: 'Processing error at the acquirer (scenario final-error)',
        pending_error_code: 'PROCESSING_ERROR',
      });
    else
      store.updateRequest(r.id, {
        pending_status: 'filtered',
        pending_error_message: 'Stopped by a fraud filter (scenario final-filtered)',
        pending_error_code: 'FILTERED',
      });
  }
}

/**
 * The engine's hook after an operation's handler, in its transaction: records the choice an order
 * is made under (the header's or the merchant's; the first one recorded stays), applies the
 * outcome scenarios to its pending transactions and the 3-D Secure method timeout. Without any
 * choice in force it returns at once (one map lookup).
 */
export function afterOperation(
  lab: ScenarioStore,
  x: EngineContext,
  c: OperationCall,
  reply: ApiReply,
): ApiReply {
  if (reply.code !== 200) return reply;
  const given = c.scenario;
  if (given === undefined && !lab.ordersHaveChoices) return reply;
  const raw = reply.body['paynet-order-id'];
  const orderId = typeof raw === 'string' || typeof raw === 'number' ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(orderId) || orderId <= 0) return reply;
  // An empty header's "none" is recorded too: the order's callbacks must not follow the merchant's choice.
  if (given !== undefined) lab.setOrderChoice(orderId, given, false);
  const choice = lab.orderChoice(orderId) ?? [];
  applyOutcome(x.store, orderId, choice);
  if (pickOf(choice, 'chargeback')) {
    const order = x.store.getOrder(orderId);
    const latest = x.store.requestsOf(orderId).at(-1);
    if (order && latest) chargebacksOf(x.store.db).noteOperation(order, latest, choice);
  }
  if (
    c.op.id === 'TDS_UPLOAD_METHOD_URL_RESULT' &&
    (pickOf(given, 'three-ds-method-timeout') || pickOf(choice, 'three-ds-method-timeout'))
  ) {
    // The method step "never completed within its window" (api-description.md, Limits).
    x.store.updateOrder(orderId, { tds_comp_ind: 'N' });
    const body = { ...reply.body, 'threeds-comp-ind': 'N' };
    const sent = String(reply.body['threeds-comp-ind'] ?? 'U');
    // A late upload's note already says why; an N uploaded as N needs none.
    if (reply.headers?.[SANDBOX_NOTE_HEADER] !== undefined || sent === 'N') return { ...reply, body };
    return { ...reply, body, headers: { ...reply.headers, [SANDBOX_NOTE_HEADER]: methodTimeoutNote(sent) } };
  }
  return reply;
}

/** A timer on the event loop: a held answer costs no thread, only a pending promise. */
export type Sleep = (ms: number) => Promise<void>;
export const timerSleep: Sleep = (ms) =>
  ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));

const resets = new WeakSet<ApiReply>();

/** True for an answer that must not be sent: the server resets the connection instead. */
export function isReset(reply: ApiReply): boolean {
  return resets.has(reply);
}

/**
 * The answer-stage scenarios, after the operation committed: added latency, a 500 in place of the
 * acknowledgement, or the answer held past the client's timeout and the connection reset.
 */
export async function shapeAnswer(
  reply: ApiReply,
  choice: ScenarioChoice | undefined,
  sleep: Sleep,
): Promise<ApiReply> {
  if (choice === undefined || choice.length === 0) return reply;
  const latency = pickOf(choice, 'latency');
  if (latency) await sleep(delayOf(latency));
  if (reply.code !== 200) return reply;
  if (pickOf(choice, 'server-error-after-commit'))
    return errorReply(
      500,
      'The gateway failed after committing the order (scenario server-error-after-commit): query status by client_orderid before charging again.',
      'INTERNAL',
    );
  const timeout = pickOf(choice, 'processed-timeout');
  if (timeout) {
    await sleep(delayOf(timeout));
    const held = { ...reply };
    resets.add(held);
    return held;
  }
  return reply;
}
