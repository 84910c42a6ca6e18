import type { OrderRow } from './orders.ts';
import type { RequestRow } from './requests.ts';
import type { Statements } from './statements.ts';

/** What a status answer shows of an order (see engine/status-body.ts), with what checks its owner. */
export type StatusOrder = Pick<
  OrderRow,
  | 'id'
  | 'merchant'
  | 'client_orderid'
  | 'end_point_id'
  | 'card_bin'
  | 'card_last4'
  | 'card_brand'
  | 'card_ref_id'
  | 'tds_version'
  | 'tds_comp_ind'
  | 'tds_stage'
  | 'tds_trans_id'
  | 'form_state'
  | 'page_token'
>;

/** What a status answer shows of one request. */
export type StatusRequest = Pick<
  RequestRow,
  | 'serial'
  | 'kind'
  | 'amount_minor'
  | 'currency'
  | 'status'
  | 'approval_code'
  | 'rrn'
  | 'error_message'
  | 'error_code'
>;

const STATUS_COLUMNS = [
  'o.id, o.merchant, o.client_orderid, o.end_point_id, o.card_bin, o.card_last4, o.card_brand, o.card_ref_id',
  'o.tds_version, o.tds_comp_ind, o.tds_stage, o.tds_trans_id, o.form_state, o.page_token',
  'r.serial, r.kind, r.amount_minor, r.currency, r.status, r.approval_code, r.rrn, r.error_message, r.error_code',
].join(', ');
// Whole texts made once: the statement cache looks them up by text on every call.
const STATUS_LATEST = `SELECT ${STATUS_COLUMNS} FROM orders o JOIN requests r ON r.order_id = o.id WHERE o.id = ? ORDER BY r.id DESC LIMIT 1`;
const STATUS_BY_SERIAL = `SELECT ${STATUS_COLUMNS} FROM orders o JOIN requests r ON r.order_id = o.id WHERE o.id = ? AND r.serial = ?`;

/**
 * A status row read as an array (STATUS_COLUMNS' order) into two objects of fixed shape: the
 * driver's own row objects intern every column name on every row, 23 of them here (~4 µs a read).
 */
function statusRow(v: unknown[]): { order: StatusOrder; request: StatusRequest } {
  const order = {
    id: v[0],
    merchant: v[1],
    client_orderid: v[2],
    end_point_id: v[3],
    card_bin: v[4],
    card_last4: v[5],
    card_brand: v[6],
    card_ref_id: v[7],
    tds_version: v[8],
    tds_comp_ind: v[9],
    tds_stage: v[10],
    tds_trans_id: v[11],
    form_state: v[12],
    page_token: v[13],
  } as StatusOrder;
  const request = {
    serial: v[14],
    kind: v[15],
    amount_minor: v[16],
    currency: v[17],
    status: v[18],
    approval_code: v[19],
    rrn: v[20],
    error_message: v[21],
    error_code: v[22],
  } as StatusRequest;
  return { order, request };
}

/** The status read: the sandbox's most frequent request. */
export class Statuses {
  constructor(private readonly s: Statements) {}

  /**
   * An order and its latest request (or the one with serial `serial`) in one statement, with only
   * the columns a status answer shows: one short query instead of a transaction of two full-row
   * reads. Undefined when either is missing.
   */
  of(orderId: number, serial?: string): { order: StatusOrder; request: StatusRequest } | undefined {
    const row = (
      serial === undefined
        ? this.s.stmt(STATUS_LATEST).raw(true).get(orderId)
        : this.s.stmt(STATUS_BY_SERIAL).raw(true).get(orderId, serial)
    ) as unknown[] | undefined;
    return row && statusRow(row);
  }
}
