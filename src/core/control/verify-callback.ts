import type { CryptoPort } from '../crypto-port.ts';
import { constantTimeEqual } from '../bytes.ts';
import { callbackControl } from './callback-control.ts';

/** A callback's or customer return's `control`: matches, does not, is absent, or no key to check it. */
export type CallbackVerdict = 'valid' | 'invalid' | 'no-control' | 'no-key';

/**
 * Checks the `control` of a callback (the final outcome sent to `server_callback_url`) or of a
 * customer's return to `redirect_url`: SHA-1 hex of status + orderid + merchant_order + merchant
 * control key ({@link callbackControl}), where `merchant_order` falls back to `client_orderid`.
 * Compared in constant time, case-insensitively (the hex case is not specified).
 * @see api-description.md, "Events" (callbacks and the customer's return); gateway-notes.md,
 * "Callbacks" and the callback signature with its published vectors.
 */
export async function verifyCallback(
  query: Readonly<Record<string, string | undefined>>,
  controlKey: string | undefined,
  crypto: CryptoPort,
): Promise<CallbackVerdict> {
  const control = query.control;
  if (!control) return 'no-control';
  if (!controlKey) return 'no-key';
  const expected = await callbackControl(
    {
      status: query.status ?? '',
      orderid: query.orderid ?? '',
      merchantOrder: query.merchant_order ?? query.client_orderid ?? '',
    },
    controlKey,
    crypto,
  );
  return constantTimeEqual(control.toLowerCase(), expected) ? 'valid' : 'invalid';
}
