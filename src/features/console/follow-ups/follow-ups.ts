import { exampleValues, findOperation, type Operation } from '../../../catalog/index.ts';
import { followUpStates } from '../../../catalog/order-states.ts';
import { draftFromValues, type RequestDraft } from '../../../model/index.ts';
import {
  carriedIds,
  orderStateOf,
  threeDsUploads,
  type CarriedIds,
  type OrderState,
} from '../../../model/order.ts';

// The order's facts are the model's (src/model/order.ts); the console's modules read them here.
export { carriedIds, orderStateOf, threeDsUploads, type CarriedIds, type OrderState };
export { FOLLOW_UP_STATES } from '../../../catalog/order-states.ts';

/** A new transaction on a stored card (make-rebill) needs an order id of its own. */
function startsNewOrder(target: Operation): boolean {
  return target.fields.some((f) => f.name === 'cardrefid') && target.movesMoney;
}

/**
 * The form values to open `target` with: the carried ids where the target has those fields
 * (each spelled as the target spells it), the catalog's examples for its other required fields.
 */
export function followUpDraft(target: Operation, ids: CarriedIds, newOrderId: () => string): RequestDraft {
  const values: Record<string, string> = {};
  const examples = exampleValues(target);
  const fresh = startsNewOrder(target);
  for (const f of target.fields) {
    if (f.fromProfile) continue;
    if (f.place && !f.required) continue;
    let v: string | undefined;
    if (f.role === 'client-order-id') v = fresh ? newOrderId() : ids.clientOrderId;
    else if (f.name === 'orderid') v = fresh ? undefined : ids.orderId;
    else if (f.name === 'cardrefid') v = ids.cardRefId;
    else if (f.name === 'threeDSServerTransID') v = ids.threeDSServerTransId;
    else if (f.name === 'amount' && f.required) v = ids.amount;
    else if (f.name === 'currency' && f.required) v = ids.currency;
    if (v === undefined && f.required) v = examples[f.name];
    if (v !== undefined) values[f.name] = v;
  }
  return draftFromValues(target, { values });
}

export interface FollowUp {
  path: string;
  title: string;
  draft: RequestDraft;
}

/** Whether `path` may follow an order in `state` (the catalog's `FOLLOW_UP_STATES`). */
export function allowedIn(path: string, state: OrderState): boolean {
  return followUpStates(path).includes(state);
}

/** "Poll until final" makes sense only while the order is not final. */
export function canPollIn(state: OrderState): boolean {
  return state === 'pending';
}

/** Why follow-ups are missing under an answer, in one sentence (or null when none is held back). */
export function heldBackNote(titles: readonly string[], state: OrderState): string | null {
  if (titles.length === 0) return null;
  const list = titles.join(', ');
  if (state === 'pending') return `${list}: offered once the status is approved (poll the status).`;
  if (state === 'declined') return `No ${list}: the order was declined.`;
  if (state === 'error') return `No ${list}: the order ended in an error.`;
  if (state === 'approved') return `No ${list}: the order is already final.`;
  return null;
}

/**
 * The follow-ups offered under an answer: the catalog's `followUps` of the operation, and the
 * 3-D Secure uploads when a status answer shows a 3DS step.
 */
export function followUpsFor(
  op: Operation,
  sent: ReadonlyArray<{ name: string; value: string }>,
  answer: unknown,
  newOrderId: () => string,
  /** The order's latest known state (a later status answer); by default, this answer's. */
  state: OrderState = orderStateOf(answer),
): FollowUp[] {
  return followUpPlan(op, sent, answer, newOrderId, state).offered;
}

/** The follow-ups an answer offers in the order's state, and the titles of those the state holds back. */
export function followUpPlan(
  op: Operation,
  sent: ReadonlyArray<{ name: string; value: string }>,
  answer: unknown,
  newOrderId: () => string,
  state: OrderState = orderStateOf(answer),
): { offered: FollowUp[]; heldBack: string[] } {
  const ids = carriedIds(sent, answer);
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const paths: string[] = [...(op.followUps ?? [])];
  for (const p of threeDsUploads(body)) if (!paths.includes(p)) paths.push(p);
  const offered: FollowUp[] = [];
  const heldBack: string[] = [];
  for (const path of paths) {
    const target = findOperation(path);
    if (!target) continue;
    if (!allowedIn(path, state)) heldBack.push(target.title);
    else offered.push({ path, title: target.title, draft: followUpDraft(target, ids, newOrderId) });
  }
  return { offered, heldBack };
}
