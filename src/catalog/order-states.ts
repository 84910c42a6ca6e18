/**
 * What an operation asks of the order it follows, keyed by operation path (a misspelt path fails
 * `tsc`): the order states a follow-up is allowed in, and the operations whose amount and currency
 * may be left out for the full amount (api-description.md, States and transitions; gateway-notes.md).
 */
import type { OperationPath } from './operations.ts';

/**
 * What the latest answer says of the order: `pending` until a final status, `approved`, `declined`
 * (declined or filtered), `error`, or `none` for an answer that is not about an order's progress
 * (a card reference, card information).
 */
export type OrderState = 'pending' | 'approved' | 'declined' | 'error' | 'none';

export const ANY_ORDER_STATE: readonly OrderState[] = ['pending', 'approved', 'declined', 'error', 'none'];

/**
 * The one table of which follow-up an order's state allows: capture, void, return and a card
 * reference need an approved order (return "only when the original transaction is in a final
 * successful status"), payout-pay an approved payout-check, the 3-D Secure uploads an order still
 * in progress; a status request is always allowed. Operations not listed are allowed in every state.
 */
export const FOLLOW_UP_STATES = {
  'v2/status': ANY_ORDER_STATE,
  'v4/status': ANY_ORDER_STATE,
  'v2/capture': ['approved'],
  'v2/void': ['approved'],
  'v2/return': ['approved'],
  'v2/create-card-ref': ['approved'],
  'v4/payout-pay': ['approved'],
  'v2/get-card-info': ['approved', 'none'],
  'v2/make-rebill': ['approved', 'none'],
  '3ds/v1/upload-method-url-result': ['pending'],
  '3ds/v1/upload-cres-result': ['pending'],
  '3ds/v1/upload-pares-result': ['pending'],
} as const satisfies Partial<Record<OperationPath, readonly OrderState[]>>;

/** The order states `path` may follow (every state when the table does not list it). */
export function followUpStates(path: string): readonly OrderState[] {
  return (FOLLOW_UP_STATES as Partial<Record<string, readonly OrderState[]>>)[path] ?? ANY_ORDER_STATE;
}

/**
 * Operations that take the order's full amount when `amount` and `currency` are left out (a full
 * capture or return as the vendor's SDK sends it), by path.
 */
export const FULL_AMOUNT_OPTIONAL = {
  'v2/capture': true,
  'v2/return': true,
} as const satisfies Partial<Record<OperationPath, true>>;

export function fullAmountOptional(path: string): boolean {
  return Object.hasOwn(FULL_AMOUNT_OPTIONAL, path);
}
