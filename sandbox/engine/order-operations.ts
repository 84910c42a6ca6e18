import { randomUUID } from 'node:crypto';
import { expiryInPast } from '../../src/catalog/index.ts';
import { maskCardNumber, outcomeForCvv, type CvvOutcome } from '../outcomes.ts';
import { chargeDueAt, isPeriod, PERIODS } from '../recurring-calendar.ts';
import { refuse, type ApiReply } from '../replies.ts';
import type { CardRefRow, OrderKind, OrderRow } from '../store.ts';
import type { EngineContext, OperationCall } from './context.ts';
import { newPageToken } from './hosted-pages.ts';
import { ack, APPROVE, cardFields, createOrder, mainRequest, ownOrder } from './orders.ts';
import {
  callbackUrl,
  cardOf,
  destinationRequired,
  param,
  positiveAmount,
  redirectUrl,
  threeDsVersion,
} from './params.ts';

/** sale, preauth, account-verification: the card is in the request; the CVV picks the outcome. */
export function cardPayment(
  x: EngineContext,
  c: OperationCall,
  kind: Extract<OrderKind, 'sale' | 'preauth' | 'account-verification'>,
): ApiReply {
  const card = cardOf(c);
  return paymentWith(
    x,
    c,
    kind,
    cardFields(x, card),
    outcomeForCvv(card.cvv, kind !== 'account-verification'),
  );
}

/** A card payment with the card already read (from the request, or a v4 sale's hosted-fields token). */
export function paymentWith(
  x: EngineContext,
  c: OperationCall,
  kind: Extract<OrderKind, 'sale' | 'preauth' | 'account-verification'>,
  card: Partial<OrderRow>,
  outcome: CvvOutcome,
  extraAck?: (id: number) => Record<string, unknown>,
): ApiReply {
  const verification = kind === 'account-verification';
  const amount = verification ? 0 : positiveAmount(c);
  const currency = verification ? null : (param(c, 'currency') ?? null);
  const callback = callbackUrl(x, c);
  const fields: Partial<OrderRow> = {
    ...card,
    redirect_url: redirectUrl(c),
    callback_url: callback,
  };
  if (outcome.kind === 'three-d-secure') {
    const version = threeDsVersion(c);
    Object.assign(fields, {
      tds_version: version,
      tds_stage: version === '2' ? 'method' : 'acs',
      tds_trans_id: randomUUID(),
      tds_started_at: c.now,
      page_token: newPageToken(),
    });
  }
  return createOrder(x, c, {
    kind,
    fields,
    first: { amount, currency, outcome },
    ...(extraAck ? { extraAck } : {}),
  });
}

/** v2 payout, v4 payout-check (registers; payout-pay executes) and v4 payout. */
export function payout(
  x: EngineContext,
  c: OperationCall,
  kind: Extract<OrderKind, 'payout' | 'payout-check'>,
  v4PayoutId: boolean,
): ApiReply {
  if (!v4PayoutId) destinationRequired(c);
  const amount = positiveAmount(c);
  const callback = callbackUrl(x, c);
  // v4 payout to a card (the catalog's destinations checked it is one whole card or a bank account).
  const card = v4PayoutId && param(c, 'credit_card_number') !== undefined ? cardOf(c) : undefined;
  return createOrder(x, c, {
    kind,
    fields: { ...(card ? cardFields(x, card) : {}), callback_url: callback },
    first: { amount, currency: param(c, 'currency') ?? null, outcome: APPROVE },
    extraAck: (id) => (v4PayoutId ? { 'payout-id': String(id) } : {}),
  });
}

export function cardRefParam(x: EngineContext, c: OperationCall, name: string): CardRefRow {
  const raw = param(c, name);
  if (raw === undefined) refuse(`${name} is required.`, 'VALIDATION');
  const ref = /^\d{1,15}$/.test(raw) ? x.store.cardRefs.get(c.merchant.login, Number(raw)) : undefined;
  if (!ref)
    refuse(
      `${name} ${raw} is not a card reference of merchant ${c.merchant.login}: create one with create-card-ref.`,
      'CARD_REF_NOT_FOUND',
    );
  return ref;
}

export function panEligibility(x: EngineContext, c: OperationCall): ApiReply {
  const ref = cardRefParam(x, c, 'sending-card-ref-id');
  return createOrder(x, c, {
    kind: 'pan-eligibility',
    fields: { card_bin: ref.bin, card_last4: ref.last4, card_brand: ref.brand, card_ref_id: ref.id },
    first: { amount: 0, currency: null, outcome: APPROVE },
  });
}

export function transfer(x: EngineContext, c: OperationCall, byRef: boolean): ApiReply {
  const amount = positiveAmount(c);
  const card = byRef ? undefined : cardOf(c);
  const outcome = card ? outcomeForCvv(card.cvv, false) : APPROVE;
  return createOrder(x, c, {
    kind: 'transfer',
    fields: card ? cardFields(x, card) : {},
    first: { amount, currency: param(c, 'currency') ?? null, outcome },
    extraAck: (id) => ({ 'transaction-id': String(id) }),
  });
}

/**
 * create-recurring-payment: the subscription (approved at once) and its schedule, whose first charge
 * falls due `interval` periods after now, in the merchant's time (engine/recurring-charges.ts makes
 * the charges). The charges' callbacks go to `server_callback_url`, which the sandbox reads here too
 * (the description's field list does not name it).
 */
export function recurring(x: EngineContext, c: OperationCall): ApiReply {
  const amount = positiveAmount(c);
  const currency = param(c, 'currency') ?? '';
  const interval = Number(param(c, 'interval') ?? '0');
  if (!Number.isSafeInteger(interval) || interval < 1)
    refuse('interval must be a whole number of periods, at least 1.', 'VALIDATION');
  const period = param(c, 'period') ?? '';
  if (!isPeriod(period)) refuse(`period must be one of ${PERIODS.join(', ')}.`, 'VALIDATION');
  const card = cardOf(c, {
    pan: 'credit-card-number',
    name: 'card-printed-name',
    month: 'expire-month',
    year: 'expire-year',
  });
  const callback = callbackUrl(x, c);
  let rpId = 0;
  return createOrder(x, c, {
    kind: 'recurring',
    fields: { ...cardFields(x, card), callback_url: callback },
    first: { amount, currency, status: 'approved' },
    extraAck: () => ({ 'recurring-payment-id': String(rpId) }),
    onCreated: (order) => {
      // The schedule's calendar is the merchant's: the sandbox's clock plus its test clock's advance.
      const advanced = x.scenarios?.clockAdvance(c.merchant.login) ?? 0;
      const createdAt = c.now + advanced;
      rpId = x.store.recurringPayments.insert({
        merchant: c.merchant.login,
        order_id: order.id,
        card_type: param(c, 'rp_card_type') ?? 'SRC',
        amount_minor: amount,
        currency,
        period,
        interval,
        created_at: createdAt,
      });
      // Its deadline in the sandbox's time, as the test clock keeps every deadline of the merchant's.
      x.recurring.start(rpId, chargeDueAt(createdAt, period, interval, 1) - advanced);
    },
  });
}

/** v2 and v4 create-card-ref: the same order gives the same reference. */
export function createCardRef(x: EngineContext, c: OperationCall): ApiReply {
  const order = ownOrder(x, c);
  if (order.kind !== 'sale' && order.kind !== 'preauth' && order.kind !== 'account-verification') {
    refuse(`create-card-ref needs a completed sale or preauth; order ${order.id} is a ${order.kind}.`);
  }
  const main = mainRequest(x, order);
  if (main.status !== 'approved' || !order.card_bin) {
    refuse(
      `create-card-ref needs a completed (approved) sale or preauth; order ${order.id} is ${main.status}.`,
    );
  }
  const ref = cardRefOf(x, order, c.now);
  return {
    code: 200,
    body: { ...ack(order, main.serial, 'create-card-ref-response'), 'card-ref-id': String(ref.id) },
  };
}

/** The card reference of an approved order with a card: the same order gives the same reference. */
export function cardRefOf(x: EngineContext, order: OrderRow, now: number): CardRefRow {
  const existing = x.store.cardRefs.ofOrder(order.id);
  if (existing) return existing;
  const ref = x.store.cardRefs.insert({
    merchant: order.merchant,
    order_id: order.id,
    bin: order.card_bin ?? '',
    last4: order.card_last4 ?? '',
    exp_month: order.card_exp_month ?? '',
    exp_year: order.card_exp_year ?? '',
    name: order.card_name ?? '',
    brand: order.card_brand ?? 'Unknown',
    card_hash: order.card_hash ?? '',
    pan_length: (JSON.parse(order.extra_json ?? '{}') as { panLength?: number }).panLength ?? 16,
    created_at: now,
  });
  x.store.orders.update(order.id, { card_ref_id: ref.id });
  return ref;
}

export function cardInfo(x: EngineContext, c: OperationCall): ApiReply {
  const ref = cardRefParam(x, c, 'cardrefid');
  return {
    code: 200,
    body: {
      type: 'get-card-info-response',
      'card-ref-id': String(ref.id),
      'card-printed-name': ref.name,
      'expire-month': ref.exp_month,
      'expire-year': ref.exp_year,
      bin: ref.bin,
      'last-four-digits': ref.last4,
      'card-brand': ref.brand,
      'masked-card-number': maskCardNumber(ref.bin, ref.last4, ref.pan_length),
      'serial-number': randomUUID(),
    },
  };
}

/**
 * make-rebill charges a card reference; a stored card that has expired declines. make-rebill-sale
 * and make-rebill-preauth (the vendor's plugin) do the same and make a sale or a preauth, which
 * then follow their neighbours' state rules (return; capture, void).
 */
export function rebill(
  x: EngineContext,
  c: OperationCall,
  kind: Extract<OrderKind, 'rebill' | 'sale' | 'preauth'> = 'rebill',
): ApiReply {
  const ref = cardRefParam(x, c, 'cardrefid');
  const amount = positiveAmount(c);
  const currency = param(c, 'currency') ?? null;
  const callback = callbackUrl(x, c);
  const expired = expiryInPast(ref.exp_month, ref.exp_year, new Date(c.now));
  const outcome: CvvOutcome = expired
    ? {
        kind: 'final',
        status: 'declined',
        errorMessage: 'Declined: the stored card has expired',
        errorCode: 'EXPIRED_CARD',
      }
    : outcomeForCvv(param(c, 'cvv2'), false);
  return createOrder(x, c, {
    kind,
    fields: {
      card_bin: ref.bin,
      card_last4: ref.last4,
      card_exp_month: ref.exp_month,
      card_exp_year: ref.exp_year,
      card_name: ref.name,
      card_brand: ref.brand,
      card_hash: ref.card_hash,
      card_ref_id: ref.id,
      callback_url: callback,
      extra_json: JSON.stringify({ panLength: ref.pan_length }),
    },
    first: { amount, currency, outcome },
  });
}
