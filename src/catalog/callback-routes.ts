/**
 * Names and routes of an order's transactions on the wire (gateway-notes.md, "What the vendor's
 * live clients also rely on"). Read by the sandbox (status, callbacks, the relay's record) and by
 * the console (the deliveries table). Imported by path, not from the catalog's index: only lazy
 * pages and the Node side read it.
 */

/**
 * The transaction type a client reads (`status`'s `transaction-type`, the callback's `type`) for a
 * transaction the sandbox keeps under another name: a return is a `reversal` on the wire, on a
 * sale, a capture or a preauth alike. The vendor's v2 PHP SDK accepts only `sale`, `reversal` and
 * `chargeback` callbacks, and its WooCommerce plugin maps `reversal/approved` to "refunded".
 */
const WIRE_NAMES: Readonly<Record<string, string>> = { return: 'reversal' };

export function wireTransactionType(kind: string): string {
  return WIRE_NAMES[kind] ?? kind;
}

/**
 * Transactions made on an existing order after its initial one, as the wire names them: their
 * callbacks go to `notify_url` only, never to `server_callback_url`.
 */
export const LATER_TRANSACTION_TYPES = ['reversal', 'chargeback', 'capture', 'void', 'payout-pay'] as const;

/** The request field whose URL hears about a transaction. */
export type CallbackUrlField = 'server_callback_url' | 'notify_url';

export interface CallbackRoute {
  field: CallbackUrlField;
  /** Why that URL, in a sentence the console shows beside the delivery. */
  why: string;
}

/** Whether a transaction of this wire type is a later one on its order (its callbacks go to `notify_url` only). */
export function isLaterTransaction(type: string): boolean {
  return (LATER_TRANSACTION_TYPES as readonly string[]).includes(type);
}

/**
 * Why a callback about a transaction of this wire type went to the URL of `field`. The vendor's
 * callback pages: "`server_callback_url` gives a callback only for the initial transaction.
 * `notify_url` also covers later transaction types on the same order (reversal, chargeback)"
 * (gateway-notes.md). The sandbox sends an initial transaction's callback to both URLs when they
 * differ, a later one's to `notify_url` only.
 */
export function callbackRouteOf(type: string, field: CallbackUrlField): CallbackRoute {
  const why = isLaterTransaction(type)
    ? `a later transaction (${type}) on the order: only notify_url hears it, server_callback_url hears the initial one only`
    : field === 'notify_url'
      ? `the order's initial transaction (${type}): notify_url hears every transaction of the order`
      : `the order's initial transaction (${type}): server_callback_url hears the initial one only`;
  return { field, why };
}
