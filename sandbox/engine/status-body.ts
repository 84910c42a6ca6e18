import { wireTransactionType } from '../../src/catalog/callback-routes.ts';
import { fromMinorUnits } from '../outcomes.ts';
import { refuse, type ApiReply } from '../replies.ts';
import type { OrderRow, StatusOrder, StatusRequest } from '../store.ts';
import type { EngineContext, OperationCall } from './context.ts';
import { ORDER_ID, ownOrder } from './orders.ts';
import { clientOrderId, param, type ClientOrderId } from './params.ts';

/** `status`: by `orderid` (preferred) or the latest order with the `client_orderid`; the latest request or `by-request-sn`. */
export function status(x: EngineContext, c: OperationCall): ApiReply {
  const client = clientOrderId(c);
  const raw = param(c, 'orderid');
  const sn = param(c, 'by-request-sn');
  // The common case in one statement (its own snapshot); anything it does not find takes the path
  // below, which says why, in one read transaction.
  if (raw !== undefined && ORDER_ID.test(raw)) {
    const found = x.store.status.of(Number(raw), sn);
    if (found && found.order.merchant === c.merchant.login && found.order.client_orderid === client.value)
      return { code: 200, body: statusBody(found.order, found.request, c.pageBase) };
  }
  return x.store.read(() => statusByLookup(x, c, client, raw, sn));
}

/** `status` the long way: the order by `orderid` or the latest by client id, refused with the reason. */
function statusByLookup(
  x: EngineContext,
  c: OperationCall,
  client: ClientOrderId,
  raw: string | undefined,
  sn: string | undefined,
): ApiReply {
  let order: OrderRow | undefined;
  if (raw !== undefined) order = ownOrder(x, c, client);
  else {
    order = x.store.orders.latestByClientId(c.merchant.login, client.value);
    if (!order)
      refuse(
        `No order of merchant ${c.merchant.login} has client_orderid "${client.value}".`,
        'ORDER_NOT_FOUND',
      );
  }
  const requests = x.store.requests.of(order.id);
  const request = sn === undefined ? requests[requests.length - 1]! : x.store.requests.bySerial(order.id, sn);
  if (!request) refuse(`by-request-sn ${sn} is not a request of order ${order.id}.`, 'ORDER_NOT_FOUND');
  return { code: 200, body: statusBody(order, request, c.pageBase) };
}

/** The `status-response` of one request, with the sandbox's additions (transaction type, 3-D Secure stage). */
export function statusBody(
  order: StatusOrder,
  request: StatusRequest,
  pageBase: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: 'status-response',
    status: request.status,
    amount: fromMinorUnits(request.amount_minor),
    ...(request.currency ? { currency: request.currency } : {}),
    'paynet-order-id': String(order.id),
    'merchant-order-id': order.client_orderid,
    'serial-number': request.serial,
    'end-point-id': order.end_point_id,
    'transaction-type': wireTransactionType(request.kind),
  };
  if (order.card_bin) {
    body.bin = order.card_bin;
    body['last-four-digits'] = order.card_last4;
    body['card-brand'] = order.card_brand;
  }
  if (order.card_ref_id !== null) body['card-ref-id'] = String(order.card_ref_id);
  if (request.approval_code) body['approval-code'] = request.approval_code;
  if (request.rrn) body['processor-rrn'] = request.rrn;
  if (request.error_message) body['error-message'] = request.error_message;
  if (request.error_code) body['error-code'] = request.error_code;
  if (order.tds_version) {
    body['threeds-version'] = order.tds_version;
    if (order.tds_comp_ind) body['threeds-comp-ind'] = order.tds_comp_ind;
    if (request.status === 'processing' && order.form_state === null && order.page_token) {
      body['threeds-stage'] = order.tds_stage;
      if (order.tds_stage === 'method') {
        body['threeds-method-url'] = `${pageBase}/3ds/method/${order.page_token}`;
        body['threeds-server-trans-id'] = order.tds_trans_id;
      }
      if (order.tds_stage === 'acs' || order.tds_stage === 'challenge')
        body['redirect-to'] = `${pageBase}/3ds/acs/${order.page_token}`;
    }
  }
  return body;
}
