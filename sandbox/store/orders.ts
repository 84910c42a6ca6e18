import type { Patch, Statements, TableSchema } from './statements.ts';

/** What an order is: the operation that created it. Hosted-form orders have the kind of their operation. */
export type OrderKind =
  | 'sale'
  | 'preauth'
  | 'account-verification'
  | 'rebill'
  | 'payout'
  | 'payout-check'
  | 'transfer'
  | 'recurring'
  | 'recurring-charge'
  | 'pan-eligibility';

export interface OrderRow {
  id: number;
  merchant: string;
  endpoint_kind: 'endpoint' | 'group';
  endpoint_ref: string;
  end_point_id: string;
  op_path: string;
  kind: OrderKind;
  client_orderid: string;
  params_hash: string;
  ack_json: string;
  amount_minor: number;
  currency: string | null;
  captured_minor: number;
  refunded_minor: number;
  cancelled_minor: number;
  /** payout-pay: what was paid out of the checked amount. */
  paid_minor: number;
  voided: number;
  card_bin: string | null;
  card_last4: string | null;
  card_exp_month: string | null;
  card_exp_year: string | null;
  card_name: string | null;
  card_brand: string | null;
  card_hash: string | null;
  card_ref_id: number | null;
  redirect_url: string | null;
  callback_url: string | null;
  /** `1.0.2` or `2` for a 3-D Secure order. */
  tds_version: string | null;
  /** `method` → `challenge` → `cres` (3DS 2); `acs` → `pares` (3DS 1.0.2); `done`. */
  tds_stage: string | null;
  tds_trans_id: string | null;
  tds_started_at: number | null;
  tds_comp_ind: string | null;
  tds_method_loaded_at: number | null;
  /** Hosted forms: `awaiting-card` → `awaiting-3ds` → `done`. Null for API orders. */
  form_state: string | null;
  page_token: string | null;
  extra_json: string | null;
  created_at: number;
}

/**
 * The orders table. `page_token` (hosted pages and 3-D Secure orders only) is unique through the
 * partial index `orders_page_token`, not a column constraint: the constraint's index took an entry,
 * NULL, for every other order too. Ids are the largest plus one (see NEXT_ORDER_ID), not
 * AUTOINCREMENT, whose `sqlite_sequence` row every insert read and rewrote: nothing deletes an
 * order, so an id is never handed out twice.
 */
const ORDERS_COLUMNS = `(
  id INTEGER PRIMARY KEY,
  merchant TEXT NOT NULL, endpoint_kind TEXT NOT NULL, endpoint_ref TEXT NOT NULL, end_point_id TEXT NOT NULL,
  op_path TEXT NOT NULL, kind TEXT NOT NULL, client_orderid TEXT NOT NULL, params_hash TEXT NOT NULL, ack_json TEXT NOT NULL,
  amount_minor INTEGER NOT NULL DEFAULT 0, currency TEXT,
  captured_minor INTEGER NOT NULL DEFAULT 0, refunded_minor INTEGER NOT NULL DEFAULT 0,
  cancelled_minor INTEGER NOT NULL DEFAULT 0, paid_minor INTEGER NOT NULL DEFAULT 0, voided INTEGER NOT NULL DEFAULT 0,
  card_bin TEXT, card_last4 TEXT, card_exp_month TEXT, card_exp_year TEXT, card_name TEXT, card_brand TEXT, card_hash TEXT,
  card_ref_id INTEGER,
  redirect_url TEXT, callback_url TEXT,
  tds_version TEXT, tds_stage TEXT, tds_trans_id TEXT, tds_started_at INTEGER, tds_comp_ind TEXT, tds_method_loaded_at INTEGER,
  form_state TEXT, page_token TEXT, extra_json TEXT,
  created_at INTEGER NOT NULL
)`;

export const ORDERS_TABLE: TableSchema = {
  name: 'orders',
  ddl: `CREATE TABLE IF NOT EXISTS orders ${ORDERS_COLUMNS};
CREATE UNIQUE INDEX IF NOT EXISTS orders_page_token ON orders (page_token) WHERE page_token IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS orders_key ON orders (merchant, client_orderid, endpoint_kind, endpoint_ref, op_path);`,
  // Schema version 2.
  addedColumns: [['paid_minor', 'INTEGER NOT NULL DEFAULT 0']],
  rebuild: { columns: ORDERS_COLUMNS, old: /page_token TEXT UNIQUE|AUTOINCREMENT/i },
};

/**
 * Indexes of earlier versions that `orders_key` now serves: the idempotency key led by the
 * merchant order id answers the look-ups by merchant and by merchant order id too, and each index
 * fewer is a page fewer for every order-creating commit to write.
 */
export const DROPPED_ORDER_INDEXES = ['orders_idempotency', 'orders_client', 'orders_merchant'];

/** The schema's defaults for an order's columns (what an INSERT that leaves them out stores). */
const ORDER_DEFAULTS: Omit<
  OrderRow,
  | 'id'
  | 'merchant'
  | 'endpoint_kind'
  | 'endpoint_ref'
  | 'end_point_id'
  | 'op_path'
  | 'kind'
  | 'client_orderid'
  | 'params_hash'
  | 'ack_json'
  | 'created_at'
> = {
  amount_minor: 0,
  currency: null,
  captured_minor: 0,
  refunded_minor: 0,
  cancelled_minor: 0,
  paid_minor: 0,
  voided: 0,
  card_bin: null,
  card_last4: null,
  card_exp_month: null,
  card_exp_year: null,
  card_name: null,
  card_brand: null,
  card_hash: null,
  card_ref_id: null,
  redirect_url: null,
  callback_url: null,
  tds_version: null,
  tds_stage: null,
  tds_trans_id: null,
  tds_started_at: null,
  tds_comp_ind: null,
  tds_method_loaded_at: null,
  form_state: null,
  page_token: null,
  extra_json: null,
};

const ORDER_COLUMNS = [
  'merchant',
  'endpoint_kind',
  'endpoint_ref',
  'end_point_id',
  'op_path',
  'kind',
  'client_orderid',
  'params_hash',
  'ack_json',
  'created_at',
  ...Object.keys(ORDER_DEFAULTS),
];
// Positional parameters throughout: better-sqlite3 binds a named one by looking the name up on the
// object, which cost a 36-column order insert ~28 µs against ~1 µs for the values in order.
const INSERT_ORDER = `INSERT INTO orders (id, ${ORDER_COLUMNS.join(', ')}) VALUES (?, ${ORDER_COLUMNS.map(() => '?').join(', ')})`;
// An order's id: one past the largest, and past the floor (5000000, or what AUTOINCREMENT had handed
// out in a file rebuilt from that shape), which counts while the table is empty. One seek to the
// last row; read in the write transaction that inserts the order.
const NEXT_ORDER_ID = 'SELECT max(coalesce(max(id), 0), ?) + 1 FROM orders';

/** The first order id less one (meta `orders_id_floor` may raise it). */
export const ORDER_ID_FLOOR = 5_000_000;

/** What an insert needs at least: the rest has the schema's defaults. */
export type NewOrder = Omit<Patch<OrderRow>, 'id'> &
  Pick<OrderRow, 'merchant' | 'client_orderid' | 'kind' | 'op_path'>;

/** The orders table. */
export class Orders {
  /** No order gets an id at or under this (see NEXT_ORDER_ID). */
  idFloor = ORDER_ID_FLOOR;

  constructor(private readonly s: Statements) {}

  /**
   * The id the next order gets (see NEXT_ORDER_ID): read it and insert in the same write transaction,
   * so an order's acknowledgement, which names the id, goes in with the row.
   */
  nextId(): number {
    return (this.s.stmt(NEXT_ORDER_ID).raw(true).get(this.idFloor) as [number])[0];
  }

  /** Inserts an order; `id` from {@link nextId} in the same transaction, or the next one when omitted. */
  insert(o: NewOrder, id: number = this.nextId()): OrderRow {
    // Every column, the schema's defaults under what was given: one statement for every order, and
    // the stored row without reading it back. Built column by column: spreading the defaults and
    // adding the rest cost ~15 µs an order (V8 fell off its fast path), this ~2 µs.
    const given = o as Record<string, unknown>;
    const defaults = ORDER_DEFAULTS as Record<string, unknown>;
    const values = ORDER_COLUMNS.map((c) => (given[c] === undefined ? defaults[c] : given[c]));
    // The row as given rather than RETURNING, which SQLite serves through a temporary table.
    this.s.stmt(INSERT_ORDER).run(id, values);
    const row: Record<string, unknown> = { id };
    for (let i = 0; i < ORDER_COLUMNS.length; i++) row[ORDER_COLUMNS[i]!] = values[i];
    return row as unknown as OrderRow;
  }

  update(id: number, patch: Patch<OrderRow>): void {
    this.s.update('orders', id, patch);
  }

  /** An order's `server_callback_url` (undefined: no such order). */
  callbackUrlOf(id: number): string | null | undefined {
    const row = this.s.stmt('SELECT callback_url FROM orders WHERE id = ?').raw(true).get(id) as
      [string | null] | undefined;
    return row?.[0];
  }

  get(id: number): OrderRow | undefined {
    return this.s.stmt('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow | undefined;
  }

  findByKey(
    merchant: string,
    endpointKind: string,
    endpointRef: string,
    opPath: string,
    clientOrderId: string,
  ): OrderRow | undefined {
    return this.s
      .stmt(
        'SELECT * FROM orders WHERE merchant = ? AND endpoint_kind = ? AND endpoint_ref = ? AND op_path = ? AND client_orderid = ?',
      )
      .get(merchant, endpointKind, endpointRef, opPath, clientOrderId) as OrderRow | undefined;
  }

  latestByClientId(merchant: string, clientOrderId: string): OrderRow | undefined {
    return this.s
      .stmt('SELECT * FROM orders WHERE merchant = ? AND client_orderid = ? ORDER BY id DESC LIMIT 1')
      .get(merchant, clientOrderId) as OrderRow | undefined;
  }

  byToken(token: string): OrderRow | undefined {
    return this.s.stmt('SELECT * FROM orders WHERE page_token = ?').get(token) as OrderRow | undefined;
  }

  /** How many orders a merchant holds (bounds a classroom trainee's data). */
  count(merchant: string): number {
    return (this.s.stmt('SELECT COUNT(*) AS n FROM orders WHERE merchant = ?').get(merchant) as { n: number })
      .n;
  }
}
