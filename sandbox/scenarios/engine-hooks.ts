import type { ScenarioChoice, ScenarioPick } from '../../src/catalog/scenarios.ts';
import type { ApiReply } from '../replies.ts';
import type { SandboxStore } from '../store.ts';
import type { EngineContext, OperationCall } from '../engine/context.ts';
import type { Sleep } from './behaviour.ts';
import { BEHAVIOURS, chosen } from './registry.ts';
import type { ScenarioStore } from './scenario-store.ts';

export type { Sleep } from './behaviour.ts';
export { isReset } from './processed-timeout.ts';

/**
 * Makes an order's pending transactions end as its outcome scenario says (the registry's first
 * chosen one with an `outcome`). Runs in the request's transaction, or when a choice is set on an
 * existing order.
 */
export function applyOutcome(store: SandboxStore, orderId: number, choice: ScenarioChoice): void {
  const patch = chosen(choice).find(([b]) => b.outcome)?.[0].outcome;
  if (!patch) return;
  for (const r of store.requests.of(orderId)) {
    if (r.finalize_at === null) continue;
    store.requests.update(r.id, patch);
  }
}

/**
 * The engine's hook after an operation's handler, in its transaction: records the choice an order
 * is made under (the header's or the merchant's; the first one recorded stays), applies the
 * outcome scenarios to its pending transactions, then each `afterOperation` of a scenario the
 * order was made under or the call names. Without any choice in force it returns at once (one map
 * lookup).
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
  let out = reply;
  for (const [name, behaviour] of Object.entries(BEHAVIOURS)) {
    if (!behaviour.afterOperation) continue;
    const pick: ScenarioPick | undefined =
      choice.find((p) => p.name === name) ?? given?.find((p) => p.name === name);
    if (pick) out = behaviour.afterOperation({ x, call: c, orderId, reply: out }, pick);
  }
  return out;
}

/** A timer on the event loop: a held answer costs no thread, only a pending promise. */
export const timerSleep: Sleep = (ms) =>
  ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The answer-stage scenarios, after the operation committed, in the registry's order: added
 * latency, a 500 in place of the acknowledgement, or the answer held past the client's timeout and
 * the connection reset.
 */
export async function shapeAnswer(
  reply: ApiReply,
  choice: ScenarioChoice | undefined,
  sleep: Sleep,
): Promise<ApiReply> {
  let out = reply;
  for (const [b, pick] of chosen(choice)) if (b.answer) out = await b.answer(out, pick, sleep);
  return out;
}

/**
 * How long the scenarios of a call hold its answer (each one's `heldMs`: added latency, a
 * processed-timeout's hold), in ms; 0 for a call answered at once. A held answer keeps its
 * client's connection open meanwhile, so it takes a slot of the budget first (held-budget.ts).
 */
export function heldMsOf(choice: ScenarioChoice | undefined): number {
  let ms = 0;
  for (const [b, pick] of chosen(choice)) ms += b.heldMs?.(pick) ?? 0;
  return ms;
}
