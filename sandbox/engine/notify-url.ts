import { isLaterTransaction, wireTransactionType } from '../../src/catalog/callback-routes.ts';
import type { OrderRow, RequestRow } from '../store.ts';
import type { EngineContext, OperationCall } from './context.ts';
import { callbackUrl } from './params.ts';

/**
 * An order's `notify_url` (gateway-notes.md, "What the vendor's live clients also rely on"): it
 * hears the order's later transactions (reversal, chargeback, capture, void), which
 * `server_callback_url` never does. Kept in the order's `extra_json`, beside the card's PAN length,
 * so that the orders table keeps its shape.
 */
interface OrderExtra {
  panLength?: number;
  notifyUrl?: string;
}

function extraOf(json: string | null | undefined): OrderExtra {
  return json ? (JSON.parse(json) as OrderExtra) : {};
}

/** The order's fields with the request's `notify_url` (checked as `server_callback_url` is) added. */
export function withNotifyUrl(
  x: EngineContext,
  c: OperationCall,
  fields: Partial<OrderRow>,
): Partial<OrderRow> {
  if (!c.params.has('notify_url')) return fields;
  const url = callbackUrl(x, c, 'notify_url');
  if (url === null) return fields;
  return { ...fields, extra_json: JSON.stringify({ ...extraOf(fields.extra_json), notifyUrl: url }) };
}

export function notifyUrlOf(order: Pick<OrderRow, 'extra_json'> | undefined): string | undefined {
  return extraOf(order?.extra_json).notifyUrl;
}

/**
 * The URLs that hear about a request that became final: an initial transaction's callback goes to
 * `server_callback_url` and to `notify_url` (once when they are the same); a later one's to
 * `notify_url` only. Both come with the due request (`DueRequest`).
 */
export function callbackUrlsOf(
  r: RequestRow,
  initialUrl: string | null,
  orderExtraJson: string | null,
): string[] {
  const notify = orderExtraJson === null ? undefined : extraOf(orderExtraJson).notifyUrl;
  if (isLaterTransaction(wireTransactionType(r.kind))) return notify ? [notify] : [];
  if (!notify || notify === initialUrl) return initialUrl ? [initialUrl] : [];
  return initialUrl ? [initialUrl, notify] : [notify];
}
