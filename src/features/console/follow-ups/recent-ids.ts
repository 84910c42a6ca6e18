/**
 * The ids this session's answers carried (order ids, merchant order ids, card references), so
 * that "Fill with test data" on status, capture, void, return, payout-pay, rebill, card info and
 * the 3-D Secure uploads uses a real order instead of an example that always fails. Ids only:
 * never a card number, CVV or anything else of the card.
 */
import { z } from 'zod/mini';
import { findOperation, OPERATIONS, type Operation } from '../../../catalog/index.ts';
import { takesEarlierIds } from './takes-earlier-ids.ts';
import { allowedIn, carriedIds, orderStateOf, threeDsUploads, type OrderState } from './follow-ups.ts';

export const RecentOrderSchema = z.object({
  /** Every operation seen on this order, oldest first (a preauth, then its capture, …). */
  operations: z.array(z.string()),
  orderId: z.optional(z.string()),
  clientOrderId: z.optional(z.string()),
  cardRefId: z.optional(z.string()),
  amount: z.optional(z.string()),
  currency: z.optional(z.string()),
  status: z.optional(z.string()),
  threeDSServerTransId: z.optional(z.string()),
  /** The 3-D Secure uploads the latest status answer called for. */
  uploads: z.optional(z.array(z.string())),
  /** When the latest answer about it was sent (ISO 8601). */
  at: z.string(),
});
export type RecentOrder = z.infer<typeof RecentOrderSchema>;
export const RecentOrdersSchema = z.array(RecentOrderSchema);

/** How many orders a session keeps (newest first). */
export const RECENT_LIMIT = 20;

type Sent = ReadonlyArray<{ name: string; value: string }>;

function sameOrder(a: RecentOrder, b: Pick<RecentOrder, 'orderId' | 'clientOrderId'>): boolean {
  if (a.orderId && b.orderId) return a.orderId === b.orderId;
  return a.clientOrderId !== undefined && a.clientOrderId === b.clientOrderId;
}

function statusOf(answer: unknown): string | undefined {
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  if (typeof body.status === 'string' && body.status !== '') return body.status;
  return orderStateOf(answer) === 'pending' ? 'processing' : undefined;
}

/**
 * The list after an answer of `operation` to the request `sent` (HTTP 200, not a refusal): its
 * order is updated (or added) and moved to the front. Answers that carry no id are ignored.
 */
export function recordAnswer(
  list: readonly RecentOrder[],
  operation: string,
  sent: Sent,
  answer: unknown,
  at: string,
): RecentOrder[] {
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  if (body.type === 'validation-error' || body.type === 'error') return [...list];
  const ids = carriedIds(sent, answer);
  if (!ids.orderId && !ids.cardRefId) return [...list];
  const uploads = threeDsUploads(body);
  const found = list.find((o) => sameOrder(o, ids));
  const status = found && repeats(found, operation, body) ? found.status : statusOf(answer);
  const next: RecentOrder = {
    ...found,
    operations:
      found && operation !== 'v2/status'
        ? [...found.operations.filter((p) => p !== operation), operation]
        : (found?.operations ?? [operation]),
    ...(ids.orderId ? { orderId: ids.orderId } : {}),
    ...(ids.clientOrderId ? { clientOrderId: ids.clientOrderId } : {}),
    ...(ids.cardRefId ? { cardRefId: ids.cardRefId } : {}),
    ...(ids.amount && !found?.amount ? { amount: ids.amount } : {}),
    ...(ids.currency && !found?.currency ? { currency: ids.currency } : {}),
    ...(status ? { status } : {}),
    ...(ids.threeDSServerTransId ? { threeDSServerTransId: ids.threeDSServerTransId } : {}),
    ...(body.type === 'status-response' ? { uploads } : {}),
    at,
  };
  if (body.type === 'status-response' && uploads.length === 0) delete next.uploads;
  return [next, ...list.filter((o) => o !== found)].slice(0, RECENT_LIMIT);
}

/**
 * Whether an answer only repeats what is known of `order`: an acknowledgement (no status of its
 * own) of a request already sent on it, such as an identical resend, whose "processing" is older
 * news than the status the console read since.
 */
function repeats(order: RecentOrder, operation: string, body: Record<string, unknown>): boolean {
  if (typeof body.status === 'string' && body.status !== '') return false;
  return order.operations.includes(operation) || order.operations.every((p) => p === 'v2/status');
}

/**
 * The status the console last read of the order an acknowledgement repeats (see {@link repeats}),
 * so that its follow-ups go by it; undefined for an answer that is news.
 */
export function knownStatus(
  list: readonly RecentOrder[],
  operation: string,
  sent: Sent,
  answer: unknown,
): string | undefined {
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const found = list.find((o) => sameOrder(o, carriedIds(sent, answer)));
  return found && repeats(found, operation, body) ? found.status : undefined;
}

/** The operations whose answers lead to `target` (the catalog's follow-ups, read backwards). */
export function sourcesOf(target: string): Set<string> {
  return new Set(
    OPERATIONS.filter((o) => (o.followUps as readonly string[] | undefined)?.includes(target)).map(
      (o) => o.path,
    ),
  );
}

export { takesEarlierIds };

function stateOf(o: RecentOrder): OrderState {
  return orderStateOf(o.status ? { status: o.status } : undefined);
}

/**
 * This session's orders that `target` can use, best first: orders made by an operation that
 * leads to it (a preauth for capture, a create-card-ref for rebill), those whose state allows it
 * ahead of the others, newest first within each. A 3-D Secure upload takes only the orders whose
 * latest status answer waits for that very upload, newest first: a final order, or one no status
 * has called for it, would only be refused.
 */
export function candidatesFor(target: Operation, list: readonly RecentOrder[]): RecentOrder[] {
  if (!takesEarlierIds(target)) return [];
  if (target.path.startsWith('3ds/'))
    return list
      .filter((o) => o.orderId !== undefined && o.uploads?.includes(target.path))
      .map((o, i) => ({ o, i }))
      .sort((a, b) => (a.o.at < b.o.at ? 1 : a.o.at > b.o.at ? -1 : a.i - b.i))
      .map((x) => x.o);
  const needsCardRef = target.fields.some((f) => f.name === 'cardrefid');
  const needsOrder = target.fields.some((f) => f.name === 'orderid');
  const sources = sourcesOf(target.path);
  const fits = list.filter((o) => {
    if (needsCardRef) return o.cardRefId !== undefined;
    if (needsOrder && !o.orderId) return false;
    return target.path === 'v2/status' || o.operations.some((p) => sources.has(p));
  });
  const rank = (o: RecentOrder) => (allowedIn(target.path, stateOf(o)) ? 0 : 1);
  return fits
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i)
    .map((x) => x.o);
}

/**
 * The form values `target` takes from an order: its id fields, each spelled as the target spells
 * it. A rebill starts an order of its own, so it takes only the card reference.
 */
export function idValuesFor(target: Operation, order: RecentOrder): Record<string, string> {
  const out: Record<string, string> = {};
  const newOrder = target.fields.some((f) => f.name === 'cardrefid') && target.movesMoney;
  for (const f of target.fields) {
    if (f.fromProfile) continue;
    let v: string | undefined;
    if (f.role === 'client-order-id') v = newOrder ? undefined : order.clientOrderId;
    else if (f.name === 'orderid') v = order.orderId;
    else if (f.name === 'cardrefid') v = order.cardRefId;
    else if (f.name === 'threeDSServerTransID') v = order.threeDSServerTransId;
    // The order's own amount: a capture or return of it in full is what the sandbox approves.
    else if (f.name === 'amount') v = order.amount;
    else if (f.name === 'currency') v = order.amount ? order.currency : undefined;
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

/** One line naming an order for the picker: operation(s), ids, amount, status, time. */
export function describeOrder(o: RecentOrder, time: (iso: string) => string): string {
  const ops = o.operations.map((p) => findOperation(p)?.title ?? p).join(' → ');
  return [
    ops,
    o.orderId ? `order ${o.orderId}` : null,
    o.clientOrderId ?? null,
    o.cardRefId ? `card ref ${o.cardRefId}` : null,
    o.amount ? `${o.amount}${o.currency ? ` ${o.currency}` : ''}` : null,
    o.status ?? null,
    time(o.at),
  ]
    .filter((x): x is string => x !== null)
    .join(' · ');
}
