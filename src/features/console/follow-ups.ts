import { exampleValues, findOperation, type Operation } from '../../catalog/index.ts';
import { DRAFT_VERSION, type DraftValue, type RequestDraft } from '../../model/index.ts';

const CLIENT_ORDER_ID_NAMES = ['client_orderid', 'client-order-id', 'client-orderid'];

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
  const sentValue = (names: string[]) => sent.find((p) => names.includes(p.name) && p.value !== '')?.value;
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
  const values: Record<string, DraftValue> = {};
  const examples = exampleValues(target);
  const fresh = startsNewOrder(target);
  for (const f of target.fields) {
    if (f.fromProfile) continue;
    if (f.place && !f.required) continue;
    let v: string | undefined;
    if (CLIENT_ORDER_ID_NAMES.includes(f.name)) v = fresh ? newOrderId() : ids.clientOrderId;
    else if (f.name === 'orderid') v = fresh ? undefined : ids.orderId;
    else if (f.name === 'cardrefid') v = ids.cardRefId;
    else if (f.name === 'threeDSServerTransID') v = ids.threeDSServerTransId;
    else if (f.name === 'amount' && f.required) v = ids.amount;
    else if (f.name === 'currency' && f.required) v = ids.currency;
    if (v === undefined && f.required) v = examples[f.name];
    if (v !== undefined) values[f.name] = v;
  }
  return { v: DRAFT_VERSION, operation: target.path, values, extras: [] };
}

export interface FollowUp {
  path: string;
  title: string;
  draft: RequestDraft;
}

const METHOD = '3ds/v1/upload-method-url-result';
const CRES = '3ds/v1/upload-cres-result';
const PARES = '3ds/v1/upload-pares-result';

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
): FollowUp[] {
  const ids = carriedIds(sent, answer);
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const paths: string[] = [...(op.followUps ?? [])];
  for (const p of threeDsUploads(body)) if (!paths.includes(p)) paths.push(p);
  return paths.flatMap((path) => {
    const target = findOperation(path);
    if (!target) return [];
    return [{ path, title: target.title, draft: followUpDraft(target, ids, newOrderId) }];
  });
}
