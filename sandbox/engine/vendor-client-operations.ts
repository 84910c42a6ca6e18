import { expiryInPast } from '../../src/catalog/index.ts';
import { outcomeForCvv, type CvvOutcome } from '../outcomes.ts';
import { refuse, type ApiReply } from '../replies.ts';
import type { EngineContext, OperationCall } from './context.ts';
import { finalizeOrderDue } from './finalize.ts';
import { cardRefOf, cardRefParam } from './order-operations.ts';
import { APPROVE, cardFields, createOrder } from './orders.ts';
import { callbackUrl, cardOf, minorAmount, param, positiveAmount } from './params.ts';

/**
 * Operations the vendor's own clients call that the description lacks (gateway-notes.md, "What the
 * vendor's live clients also rely on"), each made an order of its neighbour's kind so that the
 * settlement table's state rules apply to it unchanged. make-rebill-sale and make-rebill-preauth are
 * `rebill` in order-operations.ts (a sale or a preauth on a card reference).
 */

const STORED_CARD_EXPIRED: CvvOutcome = {
  kind: 'final',
  status: 'declined',
  errorMessage: 'Declined: the stored card has expired',
  errorCode: 'EXPIRED_CARD',
};

/**
 * v2/transfer-by-ref (the v2 PHP SDK's TransferByRefQuery): money from a stored card (optional:
 * the merchant's account otherwise) to another stored card, both the merchant's references. A
 * `transfer` order, as v4/transfer's.
 */
export function transferByRef(x: EngineContext, c: OperationCall): ApiReply {
  const destination = cardRefParam(x, c, 'destination-card-ref-id');
  const source =
    param(c, 'source-card-ref-id') === undefined ? undefined : cardRefParam(x, c, 'source-card-ref-id');
  const amount = positiveAmount(c);
  const callback = callbackUrl(x, c);
  const expired = [source, destination].some(
    (ref) => ref !== undefined && expiryInPast(ref.exp_month, ref.exp_year, new Date(c.now)),
  );
  const outcome = expired ? STORED_CARD_EXPIRED : outcomeForCvv(param(c, 'cvv2'), false);
  const card = source ?? destination;
  return createOrder(x, c, {
    kind: 'transfer',
    fields: {
      card_bin: card.bin,
      card_last4: card.last4,
      card_exp_month: card.exp_month,
      card_exp_year: card.exp_year,
      card_name: card.name,
      card_brand: card.brand,
      card_hash: card.card_hash,
      card_ref_id: card.id,
      callback_url: callback,
    },
    first: { amount, currency: param(c, 'currency') ?? null, outcome },
  });
}

/**
 * v2/sync/account-verification (the v2 PHP SDK's SyncAccountVerificationQuery): an
 * account-verification whose answer is already final, a `status-response` with the card and, when
 * approved, its card reference. Final in the transaction that made it; its callback is queued as
 * any final transaction's. A CVV that asks for 3-D Secure is approved without it (no page to send
 * the customer to in a synchronous call).
 */
export function syncAccountVerification(x: EngineContext, c: OperationCall): ApiReply {
  const card = cardOf(c);
  const callback = callbackUrl(x, c);
  let answer: Record<string, unknown> = {};
  return createOrder(x, c, {
    kind: 'account-verification',
    fields: { ...cardFields(x, card), callback_url: callback },
    first: { amount: 0, currency: null, outcome: outcomeForCvv(card.cvv, false) },
    ackType: 'status-response',
    onCreated: (order, request) => {
      x.store.requests.update(request.id, { finalize_at: c.now });
      finalizeOrderDue(x, order.id, c.now);
      const final = x.store.requests.get(request.id)!;
      const row = x.store.orders.get(order.id)!;
      const ref = final.status === 'approved' ? cardRefOf(x, row, c.now) : undefined;
      answer = {
        status: final.status,
        ...(param(c, 'email') ? { email: param(c, 'email') } : {}),
        ...(param(c, 'phone') ? { phone: param(c, 'phone') } : {}),
        bin: row.card_bin,
        'last-four-digits': row.card_last4,
        'cardholder-name': row.card_name,
        'card-exp-month': row.card_exp_month,
        'card-exp-year': row.card_exp_year,
        'card-type': row.card_brand,
        ...(ref ? { 'card-ref-id': String(ref.id), 'card-hash-id': ref.card_hash.slice(0, 16) } : {}),
        ...(final.error_message ? { 'error-message': final.error_message } : {}),
        ...(final.error_code ? { 'error-code': final.error_code } : {}),
      };
    },
    extraAck: () => answer,
  });
}

/**
 * v2/bank-wire-transfer (an older node client of the vendor): a payout to a bank account by wire, a
 * `payout` order as v2 payout's, approved after the delay. `vat-amount`, when sent, is part of
 * `amount` (at most all of it).
 */
export function bankWireTransfer(x: EngineContext, c: OperationCall): ApiReply {
  const amount = positiveAmount(c);
  const vat = minorAmount(c, 'vat-amount');
  if (vat !== undefined && vat > amount)
    refuse(`vat-amount ${param(c, 'vat-amount')} is more than amount ${param(c, 'amount')}.`, 'VALIDATION');
  const callback = callbackUrl(x, c);
  return createOrder(x, c, {
    kind: 'payout',
    fields: { callback_url: callback },
    first: { amount, currency: param(c, 'currency') ?? null, outcome: APPROVE },
  });
}
