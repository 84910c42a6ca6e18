import { z } from 'zod/mini';
import { ErrorCodeValue } from './error-code-label.ts';

/**
 * Response bodies, with the gateway's hyphenated keys (gateway-notes.md, Responses). Each is a
 * loose object: the real gateway adds fields, which are kept, not rejected.
 */
const common = {
  'serial-number': z.optional(z.string()),
  'merchant-order-id': z.optional(z.string()),
  // A number in the v4 sale's JSON answer (gateway-notes.md), a string elsewhere.
  'paynet-order-id': z.optional(z.union([z.string(), z.number()])),
  'end-point-id': z.optional(z.string()),
  'error-message': z.optional(z.string()),
  // A number at the gateway and in this sandbox (the name beside it); a name in older answers.
  'error-code': z.optional(ErrorCodeValue),
  'error-reason': z.optional(z.string()),
};

export const TRANSACTION_STATUSES = [
  'approved',
  'declined',
  'error',
  'filtered',
  'processing',
  'unknown',
  'chain_declined',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** The statuses after which an order's status no longer changes (polling stops, callbacks go out). */
export const FINAL_STATUSES: readonly TransactionStatus[] = ['approved', 'declined', 'error', 'filtered'];

export const RESPONSE_SCHEMAS = {
  AsyncResponse: z.looseObject({ type: z.literal('async-response'), ...common }),
  AsyncCheckoutFormRedirect: z.looseObject({
    type: z.literal('async-form-response'),
    'redirect-url': z.string(),
    ...common,
  }),
  CardRefAsyncResponse: z.looseObject({
    type: z.literal('create-card-ref-response'),
    'card-ref-id': z.string(),
    ...common,
  }),
  CardRefV4AsyncResponse: z.looseObject({
    type: z.literal('create-card-ref-response'),
    'card-ref-id': z.string(),
    ...common,
  }),
  CardInfoAsyncResponse: z.looseObject({
    type: z.literal('get-card-info-response'),
    'card-printed-name': z.optional(z.string()),
    'expire-month': z.optional(z.string()),
    'expire-year': z.optional(z.string()),
    bin: z.optional(z.string()),
    'last-four-digits': z.optional(z.string()),
    'card-brand': z.optional(z.string()),
    'masked-card-number': z.optional(z.string()),
    ...common,
  }),
  CreateRecurringPaymentResponse: z.looseObject({
    type: z.string(),
    'recurring-payment-id': z.string(),
    ...common,
  }),
  TransferResponse: z.looseObject({ type: z.string(), 'transaction-id': z.string(), ...common }),
  EphemeralTicketResponse: z.looseObject({ type: z.string(), ephemeralTicket: z.string(), ...common }),
  PayoutV4Response: z.looseObject({ type: z.string(), 'payout-id': z.string(), ...common }),
  StatusResponse: z.looseObject({
    type: z.literal('status-response'),
    status: z.string(),
    amount: z.optional(z.string()),
    currency: z.optional(z.string()),
    html: z.optional(z.string()),
    'redirect-to': z.optional(z.string()),
    'card-ref-id': z.optional(z.string()),
    bin: z.optional(z.string()),
    'last-four-digits': z.optional(z.string()),
    'approval-code': z.optional(z.string()),
    'processor-rrn': z.optional(z.string()),
    ...common,
  }),
  ValidationErrorResponse: z.looseObject({
    ...common,
    type: z.literal('validation-error'),
    'error-message': z.string(),
  }),
  ServerErrorResponse: z.looseObject({ ...common, type: z.literal('error'), 'error-message': z.string() }),
} as const;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;

/** Parses a reply body with the schema its HTTP status and operation call for. */
export function parseResponse(
  operationSchema: ResponseSchemaName,
  httpStatus: number,
  body: unknown,
): {
  schema: ResponseSchemaName;
  result: ReturnType<(typeof RESPONSE_SCHEMAS)[ResponseSchemaName]['safeParse']>;
} {
  // 400 is a `validation-error`; every other refusal (403 signature, 404, 405, 413, 5xx) an `error`.
  const schema: ResponseSchemaName =
    httpStatus === 400
      ? 'ValidationErrorResponse'
      : httpStatus >= 400
        ? 'ServerErrorResponse'
        : operationSchema;
  return { schema, result: RESPONSE_SCHEMAS[schema].safeParse(body) };
}
