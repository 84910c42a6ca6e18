import { decodeFormBody, percentEncode } from '../../core/percent-encode.ts';
import type { CapturedRequest } from '../../capture/parse-raw-http.ts';
import { matchOperationPath } from '../../capture/parse-raw-http.ts';
import { OPERATION_PATHS } from '../../catalog/lookup.ts';
import type { DiagnoseOperation } from '../structural-checks.ts';

/**
 * A callback (GET to `server_callback_url`) or a customer's return (POSTed to `redirect_url`) as
 * the debugger checks it: `control` = SHA-1 of status + orderid + merchant_order + key, where
 * merchant_order is the client_orderid (gateway-notes.md, the callback signature).
 */
export const CALLBACK_OPERATION: DiagnoseOperation = {
  path: 'callback',
  title: 'Callback or customer return',
  scheme: 'control',
  formula: [
    { kind: 'field', name: 'status' },
    { kind: 'field', name: 'orderid' },
    { kind: 'field', name: 'merchant_order' },
  ],
};

/**
 * The capture as a callback or return, its fields as the body the formula reads (merchant_order
 * taken from client_orderid when absent), or undefined when it is an API request or neither.
 */
export function asCallbackCapture(capture: CapturedRequest): CapturedRequest | undefined {
  let url: URL;
  try {
    url = new URL(capture.url);
  } catch {
    return undefined;
  }
  if (matchOperationPath(url.pathname, OPERATION_PATHS)) return undefined;
  const pairs =
    capture.method.toUpperCase() === 'GET'
      ? [...url.searchParams].map(([name, value]) => ({ name, value }))
      : decodeFormBody(capture.body);
  const has = (n: string) => pairs.some((p) => p.name === n);
  if (!has('control') || !has('status') || !has('orderid')) return undefined;
  if (!has('merchant_order')) {
    const c = pairs.find((p) => p.name === 'client_orderid');
    pairs.push({ name: 'merchant_order', value: c?.value ?? '' });
  }
  return {
    method: 'POST',
    url: `${url.origin}${url.pathname}`,
    headers: { ...capture.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: pairs.map((p) => `${percentEncode(p.name)}=${percentEncode(p.value)}`).join('&'),
  };
}
