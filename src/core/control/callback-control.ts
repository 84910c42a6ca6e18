import type { CryptoPort } from '../crypto-port.ts';

/**
 * The `control` of a callback or customer return: SHA-1 hex of status + orderid + merchant_order
 * + merchant control key, where `merchant_order` is the `client_orderid`.
 * @see gateway-notes.md, `control` (callback and customer-return signature).
 */
export function callbackControl(
  fields: { status: string; orderid: string; merchantOrder: string },
  controlKey: string,
  crypto: CryptoPort,
): Promise<string> {
  return crypto.sha1Hex(fields.status + fields.orderid + fields.merchantOrder + controlKey);
}
