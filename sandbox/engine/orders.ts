import { createHash, createHmac, randomUUID } from 'node:crypto';
import { cardBrand, panDigits, type CvvOutcome } from '../outcomes.ts';
import { refuse, type ApiReply } from '../replies.ts';
import type { OrderKind, OrderRow, RequestKind, RequestRow, TransactionStatus } from '../store.ts';
import type { CardData, EngineContext, OperationCall } from './context.ts';
import { withNotifyUrl } from './notify-url.ts';
import { clientOrderId, param, type ClientOrderId } from './params.ts';

export const APPROVE: CvvOutcome = { kind: 'final', status: 'approved' };

/** What the sandbox keeps of a card: BIN, last four, expiry, name, brand and a keyed hash, never the number. */
export function cardFields(x: EngineContext, card: CardData): Partial<OrderRow> {
  const pan = panDigits(card.pan);
  return {
    card_bin: pan.slice(0, 6),
    card_last4: pan.slice(-4),
    card_exp_month: card.expMonth.padStart(2, '0'),
    card_exp_year: card.expYear,
    card_name: card.name,
    card_brand: cardBrand(pan),
    card_hash: createHmac('sha256', x.cardSecret).update(pan).digest('hex'),
    extra_json: JSON.stringify({ panLength: pan.length }),
  };
}

/** Identifies a retry: everything but `control` (OAuth parameters are in the header). */
export function paramsHash(c: Pick<OperationCall, 'op' | 'params'>): string {
  const pairs = [...c.params.entries()]
    .filter(([n]) => n !== 'control')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([c.op.path, pairs]))
    .digest('hex');
}

/** An order id as the sandbox issues them: digits, at most 15 (within a double's exact range). */
export const ORDER_ID = /^\d{1,15}$/;

/** The order named by `orderid`, which must be the merchant's and carry the request's own client order id. */
export function ownOrder(x: EngineContext, c: OperationCall, client = clientOrderId(c)): OrderRow {
  const raw = param(c, 'orderid');
  if (raw === undefined) refuse('orderid is required.', 'VALIDATION');
  if (!ORDER_ID.test(raw)) refuse(`orderid "${raw}" is not an order id of this sandbox.`, 'ORDER_NOT_FOUND');
  const order = x.store.orders.get(Number(raw));
  if (!order || order.merchant !== c.merchant.login) {
    refuse(
      `orderid ${raw} is not an order of merchant ${c.merchant.login}: use the paynet-order-id of one of your transactions.`,
      'ORDER_NOT_FOUND',
    );
  }
  if (order.client_orderid !== client.value) {
    refuse(
      `${client.name} "${client.value}" does not match order ${order.id}, whose client_orderid is "${order.client_orderid}": send the order's own client_orderid.`,
      'ORDER_MISMATCH',
    );
  }
  return order;
}

/** The request that created the order. */
export function mainRequest(x: EngineContext, order: OrderRow): RequestRow {
  return x.store.requests.of(order.id)[0]!;
}

export function ack(
  order: Pick<OrderRow, 'id' | 'client_orderid' | 'end_point_id'>,
  serial: string,
  type = 'async-response',
): Record<string, unknown> {
  return {
    type,
    'serial-number': serial,
    'merchant-order-id': order.client_orderid,
    'paynet-order-id': String(order.id),
    'end-point-id': order.end_point_id,
  };
}

let lastSerialMs = 0;
let serialSeq = 0;

/**
 * A request's serial number: a UUID in the time-ordered layout of version 7 (48 bits of
 * milliseconds, a 12-bit sequence within the millisecond, 62 random bits). New serials sort after
 * the old ones, so each insert extends the serial index at its end instead of dirtying a random
 * page of it (a random UUID cost every write a page of its own).
 */
export function newSerial(now: number): string {
  if (now > lastSerialMs) {
    lastSerialMs = now;
    serialSeq = 0;
  } else if (++serialSeq > 0xfff) {
    // More than 4,096 in one millisecond (or a clock that stands still): borrow the next one.
    lastSerialMs++;
    serialSeq = 0;
  }
  const time = lastSerialMs.toString(16).padStart(12, '0');
  // The random tail of a v4 UUID (variant bits included): randomUUID draws from a pooled buffer,
  // where randomBytes makes a system call per serial.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${serialSeq.toString(16).padStart(3, '0')}-${randomUUID().slice(19)}`;
}

export function newRequest(
  orderId: number,
  kind: RequestKind,
  amount: number,
  currency: string | null,
  now: number,
  status: TransactionStatus = 'processing',
): Omit<RequestRow, 'id'> {
  return {
    serial: newSerial(now),
    order_id: orderId,
    kind,
    amount_minor: amount,
    currency,
    status,
    pending_status: null,
    pending_error_message: null,
    pending_error_code: null,
    finalize_at: null,
    error_message: null,
    error_code: null,
    approval_code: null,
    rrn: null,
    refund_mode: null,
    created_at: now,
  };
}

/** The pending fields that make a request reach `outcome` after the configured delay. */
export function scheduled(x: EngineContext, outcome: CvvOutcome, now: number): Partial<RequestRow> {
  if (outcome.kind === 'three-d-secure') return {};
  return {
    pending_status: outcome.kind === 'unknown' ? 'unknown' : outcome.status,
    pending_error_message: outcome.kind === 'final' ? (outcome.errorMessage ?? null) : null,
    pending_error_code: outcome.kind === 'final' ? (outcome.errorCode ?? null) : null,
    finalize_at: now + x.options.finalizeDelayMs,
  };
}

/** Sets the status an existing request reaches after the configured delay. */
export function schedule(x: EngineContext, request: RequestRow, outcome: CvvOutcome, now: number): void {
  const fields = scheduled(x, outcome, now);
  if (fields.finalize_at !== undefined) x.store.requests.update(request.id, fields);
}

export interface NewOrder {
  kind: OrderKind;
  fields: Partial<OrderRow>;
  first: { amount: number; currency: string | null; status?: TransactionStatus; outcome?: CvvOutcome };
  /** Fields added to the acknowledgement (`payout-id`, `redirect-url`…). */
  extraAck?: (orderId: number) => Record<string, unknown>;
  ackType?: string;
  onCreated?: (order: OrderRow, request: RequestRow) => void;
}

/**
 * Creates an order (the operations that start one), handling a repeated merchant order id:
 * the identical request again gets the original acknowledgement; a different one is refused.
 */
export function createOrder(x: EngineContext, c: OperationCall, o: NewOrder): ApiReply {
  const client = clientOrderId(c);
  const hash = paramsHash(c);
  const existing = x.store.orders.findByKey(
    c.merchant.login,
    c.endpoint.kind,
    c.endpoint.id,
    c.op.path,
    client.value,
  );
  if (existing) {
    if (existing.params_hash === hash)
      return { code: 200, body: JSON.parse(existing.ack_json) as Record<string, unknown> };
    refuse(
      `${client.name} "${client.value}" already used: order ${existing.id} was created by a ${c.op.path} request with this ${client.name} on this endpoint and different parameters. Use a new ${client.name}, or resend the identical request to get the original answer.`,
      'CLIENT_ORDERID_USED',
    );
  }
  const fields = {
    merchant: c.merchant.login,
    endpoint_kind: c.endpoint.kind,
    endpoint_ref: c.endpoint.id,
    end_point_id: c.endPointId,
    op_path: c.op.path,
    kind: o.kind,
    client_orderid: client.value,
    params_hash: hash,
    ack_json: '{}',
    amount_minor: o.first.amount,
    currency: o.first.currency,
    created_at: c.now,
    ...withNotifyUrl(x, c, o.fields),
  };
  // The pending outcome goes in with the row: one write, not an insert and an update.
  const firstRequest = (orderId: number) => ({
    ...newRequest(orderId, o.kind, o.first.amount, o.first.currency, c.now, o.first.status ?? 'processing'),
    ...(o.first.outcome ? scheduled(x, o.first.outcome, c.now) : {}),
  });
  const answer = (orderId: number, serial: string) => ({
    ...ack(
      { id: orderId, client_orderid: fields.client_orderid, end_point_id: fields.end_point_id },
      serial,
      o.ackType,
    ),
    ...(o.extraAck?.(orderId) ?? {}),
  });
  if (!o.onCreated) {
    // The id first, so the acknowledgement goes in with the order: no UPDATE of the row after it.
    const id = x.store.orders.nextId();
    const request = firstRequest(id);
    const body = answer(id, request.serial);
    x.store.orders.insert({ ...fields, ack_json: JSON.stringify(body) }, id);
    x.store.requests.insert(request);
    return { code: 200, body };
  }
  // What onCreated writes refers to the order (and may be named in the acknowledgement).
  const order = x.store.orders.insert(fields);
  const request = x.store.requests.insert(firstRequest(order.id));
  o.onCreated(order, request);
  const body = answer(order.id, request.serial);
  x.store.orders.update(order.id, { ack_json: JSON.stringify(body) });
  return { code: 200, body };
}

/** A request on an existing order (capture, void, return, payout-pay); the sandbox approves it after the delay. */
export function childRequest(
  x: EngineContext,
  c: OperationCall,
  order: OrderRow,
  kind: RequestKind,
  amount: number,
  extra: Partial<RequestRow> = {},
): ApiReply {
  const request = x.store.requests.insert({
    ...newRequest(order.id, kind, amount, order.currency, c.now),
    ...scheduled(x, APPROVE, c.now),
    ...extra,
  });
  return { code: 200, body: ack(order, request.serial) };
}

export type { ClientOrderId };
