import {
  exampleValues,
  findOperation,
  type Operation,
  CLIENT_ORDER_ID_NAMES,
} from '../../../catalog/index.ts';
import { draftFromValues, type RequestDraft } from '../../../model/index.ts';

const METHOD_PATH = '3ds/v1/upload-method-url-result';
const CRES_PATH = '3ds/v1/upload-cres-result';
const PARES_PATH = '3ds/v1/upload-pares-result';

/** The identifiers an answer (and the request that produced it) carries forward. */
export interface CarriedIds {
  clientOrderId?: string;
  orderId?: string;
  cardRefId?: string;
  amount?: string;
  currency?: string;
  threeDSServerTransId?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

export function carriedIds(
  sent: ReadonlyArray<{ name: string; value: string }>,
  answer: unknown,
): CarriedIds {
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const sentValue = (names: readonly string[]) =>
    sent.find((p) => names.includes(p.name) && p.value !== '')?.value;
  const ids: CarriedIds = {};
  const clientOrderId = sentValue(CLIENT_ORDER_ID_NAMES) ?? str(body['merchant-order-id']);
  const orderId = str(body['paynet-order-id']) ?? sentValue(['orderid']);
  const cardRefId = str(body['card-ref-id']) ?? sentValue(['cardrefid']);
  const amount = sentValue(['amount']);
  const currency = sentValue(['currency']);
  if (clientOrderId) ids.clientOrderId = clientOrderId;
  if (orderId) ids.orderId = orderId;
  if (cardRefId) ids.cardRefId = cardRefId;
  if (amount) ids.amount = amount;
  if (currency) ids.currency = currency;
  const transId = str(body['threeds-server-trans-id']);
  if (transId) ids.threeDSServerTransId = transId;
  return ids;
}

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

/**
 * What the latest answer says of the order: `pending` until a final status, `approved`, `declined`
 * (declined or filtered), `error`, or `none` for an answer that is not about an order's progress
 * (a card reference, card information).
 */
export type OrderState = 'pending' | 'approved' | 'declined' | 'error' | 'none';

/** The order's state from an answer body (a status answer, or an operation's own answer). */
export function orderStateOf(answer: unknown): OrderState {
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const status = str(body.status);
  if (status === 'approved') return 'approved';
  if (status === 'declined' || status === 'filtered') return 'declined';
  if (status === 'error') return 'error';
  if (status !== undefined) return 'pending'; // processing, unknown, chain_declined: not final yet
  if (body.type === 'async-response' || body.type === 'async-form-response') return 'pending';
  return 'none';
}

const ANY: readonly OrderState[] = ['pending', 'approved', 'declined', 'error', 'none'];

/**
 * The one table of which follow-up an order's state allows (api-description.md, States and
 * transitions): capture, void, return and a card reference need an approved order (return "only
 * when the original transaction is in a final successful status"), payout-pay an approved
 * payout-check, the 3-D Secure uploads an order still in progress; a status request is always
 * allowed. Operations not listed are allowed in every state.
 */
export const FOLLOW_UP_STATES: Readonly<Record<string, readonly OrderState[]>> = {
  'v2/status': ANY,
  'v4/status': ANY,
  'v2/capture': ['approved'],
  'v2/void': ['approved'],
  'v2/return': ['approved'],
  'v2/create-card-ref': ['approved'],
  'v4/payout-pay': ['approved'],
  'v2/get-card-info': ['approved', 'none'],
  'v2/make-rebill': ['approved', 'none'],
  [METHOD_PATH]: ['pending'],
  [CRES_PATH]: ['pending'],
  [PARES_PATH]: ['pending'],
};

/** Whether `path` may follow an order in `state` (the table above). */
export function allowedIn(path: string, state: OrderState): boolean {
  return (FOLLOW_UP_STATES[path] ?? ANY).includes(state);
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

const METHOD = METHOD_PATH;
const CRES = CRES_PATH;
const PARES = PARES_PATH;

/** The 3-D Secure uploads a status answer calls for, by its 3DS version and stage when it gives them. */
export function threeDsUploads(body: Record<string, unknown>): string[] {
  const stage = str(body['threeds-stage']);
  const version = str(body['threeds-version']);
  if (!stage && !str(body['redirect-to']) && !str(body.html) && !str(body['threeds-method-url'])) return [];
  if (version === '1.0.2') return [PARES];
  if (version === '2') return stage === 'method' ? [METHOD, CRES] : [CRES];
  return [METHOD, CRES, PARES];
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
