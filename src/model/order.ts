/**
 * The order's facts read from an answer: its state, the ids it carries forward to a follow-up, and
 * the 3-D Secure uploads it calls for. The console's follow-ups, the return page, history and the
 * flows read them here rather than each from the body.
 */
import { CLIENT_ORDER_ID_NAMES } from '../catalog/index.ts';
import type { OrderState } from '../catalog/order-states.ts';

export type { OrderState } from '../catalog/order-states.ts';

const METHOD = '3ds/v1/upload-method-url-result';
const CRES = '3ds/v1/upload-cres-result';
const PARES = '3ds/v1/upload-pares-result';

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** The identifiers an answer (and the request that produced it) carries forward. */
export interface CarriedIds {
  clientOrderId?: string;
  orderId?: string;
  cardRefId?: string;
  amount?: string;
  currency?: string;
  threeDSServerTransId?: string;
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

/** The 3-D Secure uploads a status answer calls for, by its 3DS version and stage when it gives them. */
export function threeDsUploads(body: Record<string, unknown>): string[] {
  const stage = str(body['threeds-stage']);
  const version = str(body['threeds-version']);
  if (!stage && !str(body['redirect-to']) && !str(body.html) && !str(body['threeds-method-url'])) return [];
  if (version === '1.0.2') return [PARES];
  if (version === '2') return stage === 'method' ? [METHOD, CRES] : [CRES];
  return [METHOD, CRES, PARES];
}
