import { z } from 'zod/mini';
import { checkField, expiryInPast, F, formatExpiry } from '../../src/catalog/index.ts';
import { outcomeForCvv } from '../outcomes.ts';
import { refuse, validationError, type ApiReply } from '../replies.ts';
import type { CardData, EngineContext, OperationCall } from './context.ts';
import { cardFields, createOrder } from './orders.ts';
import { clientOrderId, param } from './params.ts';
import { paymentWith } from './order-operations.ts';

/**
 * Hosted fields (gateway-notes.md, "The gateway's default dialect"): the merchant's server asks
 * v4/tokenize/create-ephemeral-ticket for a ticket, the payment page's tokenizer turns ticket + card
 * into a one-time `hosted_fields_token`, and v4/sale charges it. The vendor's tokenizer is a script
 * whose calls are unpublished; the sandbox's tokenizer endpoint (`POST <base>/paynet/hosted-fields/
 * tokenize`) is ours.
 */

/**
 * v4/tokenize/create-ephemeral-ticket: a ticket for the merchant's payment page. The vendor's
 * examples send no body and read `ephemeralTicket` (camelCase, gateway-notes.md); the rest of the
 * answer is ours.
 */
export function ephemeralTicket(x: EngineContext, c: OperationCall): ApiReply {
  const { ticket, expiresAt } = x.hostedFields.newTicket(c.merchant.login, c.now);
  return {
    code: 200,
    body: {
      type: 'ephemeral-ticket-response',
      ephemeralTicket: ticket,
      'expires-at': new Date(expiresAt).toISOString(),
      'end-point-id': c.endPointId,
    },
  };
}

/**
 * v4/sale: a sale whose card is a hosted-fields token. An identical retry gets the original answer
 * (createOrder) before the token is looked at; otherwise the token must be live, unused and the
 * merchant's. `paynet-order-id` is a number here (gateway-notes.md).
 */
export function hostedFieldsSale(x: EngineContext, c: OperationCall): ApiReply {
  const raw = param(c, 'hosted_fields_token');
  if (raw === undefined) refuse('hosted_fields_token is required.', 'VALIDATION');
  const client = clientOrderId(c);
  const existing = x.store.orders.findByKey(
    c.merchant.login,
    c.endpoint.kind,
    c.endpoint.id,
    c.op.path,
    client.value,
  );
  if (existing) return createOrder(x, c, { kind: 'sale', fields: {}, first: { amount: 0, currency: null } });
  const used = x.hostedFields.useToken(raw, c.merchant.login, c.now);
  if (!used)
    refuse(
      'hosted_fields_token is unknown, expired or already used: tokenize the card again (a token pays once).',
      'HOSTED_FIELDS_TOKEN',
    );
  return paymentWith(x, c, 'sale', used.card, used.outcome, (id) => ({ 'paynet-order-id': id }));
}

const TokenizeInput = z.object({
  ticket: z.string().check(z.minLength(1), z.maxLength(200)),
  credit_card_number: z.string(),
  card_printed_name: z.string(),
  expire_month: z.string(),
  expire_year: z.string(),
  cvv2: z.optional(z.string()),
});

/**
 * The sandbox's tokenizer (ours: the vendor's protocol is unpublished): ticket + card → a one-time
 * token. The card number is checked, hashed and dropped; nothing of it is logged.
 */
export function tokenize(x: EngineContext, input: unknown, now: number): ApiReply {
  const parsed = TokenizeInput.safeParse(input);
  if (!parsed.success)
    return validationError(
      'Send ticket, credit_card_number, card_printed_name, expire_month, expire_year and cvv2 (form-encoded).',
    );
  const v = parsed.data;
  const merchant = x.hostedFields.ticketMerchant(v.ticket, now);
  if (!merchant)
    return validationError(
      'ticket is unknown or expired: ask v4/tokenize/create-ephemeral-ticket for a new one.',
      'HOSTED_FIELDS_TOKEN',
    );
  for (const spec of [F.credit_card_number, F.card_printed_name, F.expire_month, F.expire_year, F.cvv2]) {
    const problem = checkField(spec, (v as Record<string, string | undefined>)[spec.name], new Date(now));
    if (problem) return validationError(problem);
  }
  if (expiryInPast(v.expire_month, v.expire_year, new Date(now)))
    return validationError(
      `The card expired in ${formatExpiry(v.expire_month, v.expire_year)}: use a future expiry.`,
    );
  const card: CardData = {
    pan: v.credit_card_number,
    name: v.card_printed_name,
    expMonth: v.expire_month,
    expYear: v.expire_year,
    cvv: v.cvv2,
  };
  const { token, expiresAt } = x.hostedFields.newToken(
    merchant,
    cardFields(x, card),
    outcomeForCvv(card.cvv, true),
    now,
  );
  return {
    code: 200,
    body: {
      type: 'hosted-fields-token',
      hosted_fields_token: token,
      'expires-at': new Date(expiresAt).toISOString(),
    },
  };
}
