import { randomBytes, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { FINAL_STATUSES, type TransactionStatus as CatalogStatus } from '../src/catalog/responses.ts';
import { limitClause, openDatabase, statementCache } from './sqlite.ts';

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

/** One request on an order: the creating one, then captures, returns, voids, payout-pay. */
export type RequestKind = OrderKind | 'capture' | 'return' | 'void' | 'payout-pay';

/** The statuses the sandbox gives (the catalog's, but `chain_declined`, which it never produces). */
export type TransactionStatus = Exclude<CatalogStatus, 'chain_declined'>;
export const FINAL: readonly TransactionStatus[] = FINAL_STATUSES.filter(
  (s): s is TransactionStatus => s !== 'chain_declined',
);

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

export interface RequestRow {
  id: number;
  serial: string;
  order_id: number;
  kind: RequestKind;
  amount_minor: number;
  currency: string | null;
  status: TransactionStatus;
  pending_status: TransactionStatus | null;
  pending_error_message: string | null;
  pending_error_code: string | null;
  finalize_at: number | null;
  error_message: string | null;
  error_code: string | null;
  approval_code: string | null;
  rrn: string | null;
  /** Returns: `cancel` (releases a preauth hold) or `refund`. */
  refund_mode: string | null;
  created_at: number;
}

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

/** A request's columns, in the order {@link requestRow} reads them. */
const REQUEST_COLUMNS =
  'id, serial, order_id, kind, amount_minor, currency, status, pending_status, pending_error_message, pending_error_code, finalize_at, error_message, error_code, approval_code, rrn, refund_mode, created_at';

/** A request whose delay has passed, with its order's `server_callback_url` (read in the same query). */
export interface DueRequest {
  request: RequestRow;
  callbackUrl: string | null;
}

/** The due reads: a request's columns, then its order's callback URL (joined, not a query per row). */
const REQUEST_COLUMN_LIST = REQUEST_COLUMNS.split(', ');
const DUE_COLUMNS = `${REQUEST_COLUMN_LIST.map((c) => `r.${c}`).join(', ')}, o.callback_url`;

function dueRow(v: unknown[]): DueRequest {
  return { request: requestRow(v), callbackUrl: v[REQUEST_COLUMN_LIST.length] as string | null };
}

/** A request read as an array (REQUEST_COLUMNS' order), as statusRow does and for the same reason. */
function requestRow(v: unknown[]): RequestRow {
  return {
    id: v[0],
    serial: v[1],
    order_id: v[2],
    kind: v[3],
    amount_minor: v[4],
    currency: v[5],
    status: v[6],
    pending_status: v[7],
    pending_error_message: v[8],
    pending_error_code: v[9],
    finalize_at: v[10],
    error_message: v[11],
    error_code: v[12],
    approval_code: v[13],
    rrn: v[14],
    refund_mode: v[15],
    created_at: v[16],
  } as RequestRow;
}

export interface CardRefRow {
  id: number;
  merchant: string;
  order_id: number;
  bin: string;
  last4: string;
  exp_month: string;
  exp_year: string;
  name: string;
  brand: string;
  card_hash: string;
  pan_length: number;
  created_at: number;
}

export interface CallbackRow {
  id: number;
  request_id: number;
  url: string;
  attempts: number;
  next_at: number;
  state: 'pending' | 'delivered' | 'failed';
  last_result: string | null;
  /** The process delivering the current attempt, and until when its claim holds. */
  lease_owner: string | null;
  lease_until: number | null;
}

/** A merchant created at run time (a classroom trainee's), kept in the database. */
export interface AddedMerchantRow {
  login: string;
  control_key: string;
  endpoint_id: string;
  endpoint_group_id: string;
  public_key_pem: string;
  created_at: number;
}

const SCHEMA_VERSION = 2;

/** How long a statement waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

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
/** Requests have the plain rowid too (the largest id plus one): nothing deletes a request either. */
const REQUESTS_COLUMNS = `(
  id INTEGER PRIMARY KEY,
  serial TEXT NOT NULL UNIQUE, order_id INTEGER NOT NULL REFERENCES orders(id), kind TEXT NOT NULL,
  amount_minor INTEGER NOT NULL DEFAULT 0, currency TEXT,
  status TEXT NOT NULL, pending_status TEXT, pending_error_message TEXT, pending_error_code TEXT, finalize_at INTEGER,
  error_message TEXT, error_code TEXT, approval_code TEXT, rrn TEXT, refund_mode TEXT,
  created_at INTEGER NOT NULL
)`;
const ORDERS_TABLE = `CREATE TABLE IF NOT EXISTS orders ${ORDERS_COLUMNS};`;
const REQUESTS_TABLE = `CREATE TABLE IF NOT EXISTS requests ${REQUESTS_COLUMNS};`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
${ORDERS_TABLE}
CREATE UNIQUE INDEX IF NOT EXISTS orders_page_token ON orders (page_token) WHERE page_token IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS orders_key ON orders (merchant, client_orderid, endpoint_kind, endpoint_ref, op_path);
${REQUESTS_TABLE}
CREATE INDEX IF NOT EXISTS requests_order ON requests (order_id);
CREATE INDEX IF NOT EXISTS requests_due ON requests (finalize_at) WHERE finalize_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS card_refs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merchant TEXT NOT NULL, order_id INTEGER NOT NULL UNIQUE REFERENCES orders(id),
  bin TEXT NOT NULL, last4 TEXT NOT NULL, exp_month TEXT NOT NULL, exp_year TEXT NOT NULL, name TEXT NOT NULL,
  brand TEXT NOT NULL, card_hash TEXT NOT NULL, pan_length INTEGER NOT NULL, created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS recurring_payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merchant TEXT NOT NULL, order_id INTEGER NOT NULL REFERENCES orders(id),
  card_type TEXT NOT NULL, amount_minor INTEGER NOT NULL, currency TEXT NOT NULL, period TEXT NOT NULL, interval INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS nonces (
  consumer TEXT NOT NULL, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (consumer, nonce)
);
CREATE INDEX IF NOT EXISTS nonces_expiry ON nonces (expires_at);
CREATE TABLE IF NOT EXISTS callbacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id INTEGER NOT NULL REFERENCES requests(id), url TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, state TEXT NOT NULL, last_result TEXT,
  lease_owner TEXT, lease_until INTEGER
);
CREATE INDEX IF NOT EXISTS callbacks_due ON callbacks (next_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS callbacks_claimable ON callbacks (next_at) WHERE state = 'pending' AND lease_until IS NULL;
CREATE INDEX IF NOT EXISTS callbacks_leased ON callbacks (lease_until) WHERE state = 'pending' AND lease_until IS NOT NULL;
CREATE TABLE IF NOT EXISTS merchant_keys (login TEXT PRIMARY KEY, public_key_pem TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS added_merchants (
  login TEXT PRIMARY KEY, control_key TEXT NOT NULL, endpoint_id TEXT NOT NULL UNIQUE, endpoint_group_id TEXT NOT NULL UNIQUE,
  public_key_pem TEXT NOT NULL, created_at INTEGER NOT NULL
);
`;

/**
 * Indexes of earlier versions that `orders_key` now serves: the idempotency key led by the
 * merchant order id answers the look-ups by merchant and by merchant order id too, and each index
 * fewer is a page fewer for every order-creating commit to write.
 */
const DROPPED_INDEXES = ['orders_idempotency', 'orders_client', 'orders_merchant'];

/**
 * Tables an older file has in an older shape, rebuilt when it is opened (SQLite cannot drop a
 * column constraint's index or AUTOINCREMENT in place): copied row for row, ids included, into the
 * new shape. `old` recognises the older shape from the table's stored SQL.
 */
const REBUILT_TABLES: ReadonlyArray<{ table: string; columns: string; old: RegExp }> = [
  { table: 'orders', columns: ORDERS_COLUMNS, old: /page_token TEXT UNIQUE|AUTOINCREMENT/i },
  { table: 'requests', columns: REQUESTS_COLUMNS, old: /AUTOINCREMENT/i },
];

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
const ORDER_ID_FLOOR = 5_000_000;

/** Columns added after schema version 1 (a v1 file is upgraded in place). */
const ADDED_COLUMNS: ReadonlyArray<readonly [table: string, column: string, definition: string]> = [
  ['orders', 'paid_minor', 'INTEGER NOT NULL DEFAULT 0'],
  ['callbacks', 'lease_owner', 'TEXT'],
  ['callbacks', 'lease_until', 'INTEGER'],
];

/** How long a callback claim holds beyond the delivery timeout: a process that dies loses it after this. */
const LEASE_MARGIN_MS = 5_000;

/** Expired nonces deleted per statement: each batch is short, so the event loop never stalls for long. */
export const NONCE_PURGE_BATCH = 200;

type Patch<T> = Partial<Omit<T, 'id'>>;

/** The sandbox's persistent state: orders, their requests, card references, nonces and callbacks. */
export class SandboxStore {
  readonly db: Database.Database;
  /** This process's name in callback claims. */
  readonly owner = `${process.pid}-${randomUUID()}`;
  private closed = false;
  /** Prepared once per SQL text: preparing is the costliest step of a small query. */
  private readonly stmt: (sql: string) => Database.Statement;
  /** Inserts and updates by table and column list, so their SQL text is not rebuilt per call. */
  private readonly built = new Map<string, Database.Statement>();
  /** One transaction wrapper for every call: better-sqlite3 builds a new one per `transaction()`. */
  private readonly wrap: Database.Transaction<(fn: () => unknown) => unknown>;
  /**
   * The earliest `finalize_at` this process knows of (Infinity: none). Lets a request skip the
   * sweep query when nothing can be due; the scheduler's timer sweeps regardless, for rows another
   * process on the same file scheduled.
   */
  private dueHint = Number.POSITIVE_INFINITY;
  /** The open group commit: its waiters hear the outcome of the one COMMIT. */
  private batch: Array<{ resolve: () => void; reject: (e: unknown) => void }> | undefined;
  /** True while a batched call runs (its own `tx` calls are savepoints of the batch). */
  private inBatchedCall = false;
  /** No order gets an id at or under this (see NEXT_ORDER_ID). */
  private orderIdFloor = ORDER_ID_FLOOR;

  constructor(dbPath: string) {
    this.db = openDatabase(dbPath);
    this.stmt = statementCache(this.db);
    this.wrap = this.db.transaction((fn: () => unknown) => fn());
    try {
      // Off while the schema is brought up to date: a rebuilt table is dropped while others refer to it.
      this.db.pragma('foreign_keys = OFF');
      // Another process (npm start beside npm run sandbox) may hold the write lock for a moment.
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      this.tx(() => {
        this.db.exec(SCHEMA);
        if (this.rebuildOlderTables()) this.db.exec(SCHEMA); // the rebuilt tables' indexes
        const version = this.getMeta('schema_version');
        if (version !== undefined && Number(version) > SCHEMA_VERSION) {
          throw new Error(
            `The sandbox database ${dbPath} has schema version ${version}, newer than this sandbox (${SCHEMA_VERSION}): update the project or point SANDBOX_DB at another file.`,
          );
        }
        for (const [table, column, definition] of ADDED_COLUMNS) {
          const columns = this.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
          if (!columns.some((c) => c.name === column))
            this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
        }
        for (const index of DROPPED_INDEXES) this.db.exec(`DROP INDEX IF EXISTS ${index}`);
        if (version === undefined || Number(version) < SCHEMA_VERSION)
          this.setMeta('schema_version', String(SCHEMA_VERSION));
      });
      this.db.pragma('foreign_keys = ON');
      this.orderIdFloor = Number(this.getMeta('orders_id_floor') ?? ORDER_ID_FLOOR);
      // Readable, gateway-like ids: orders from 5000001 (NEXT_ORDER_ID), card references from 1000001, subscriptions from 700001.
      const seed = this.db.prepare(
        `INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)`,
      );
      this.tx(() => {
        for (const [table, start] of [
          ['card_refs', 1_000_000],
          ['recurring_payments', 700_000],
        ] as const) {
          seed.run(table, start, table);
        }
        if (this.getMeta('card_hash_secret') === undefined)
          this.setMeta('card_hash_secret', randomBytes(32).toString('hex'));
      });
      // Rows left pending by an earlier run are due as if this process had scheduled them.
      this.refreshDueHint();
    } catch (e) {
      this.db.close();
      throw e;
    }
  }

  /**
   * Rebuilds the tables of {@link REBUILT_TABLES} that have their older shape (SQLite's own
   * procedure: a new table, the rows copied, the old one dropped, the new one renamed); returns
   * whether any was. What AUTOINCREMENT had handed out in orders becomes their id floor, so no id is
   * handed out twice. Runs in the opening transaction, with foreign keys off.
   */
  private rebuildOlderTables(): boolean {
    let rebuilt = false;
    for (const { table, columns, old } of REBUILT_TABLES) {
      const row = this.db
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
        .get(table) as { sql: string } | undefined;
      if (!row || !old.test(row.sql)) continue;
      const seq = this.db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as
        { seq: number } | undefined;
      const names = (this.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>)
        .map((c) => c.name)
        .join(', ');
      this.db.exec(`CREATE TABLE ${table}_rebuilt ${columns};
        INSERT INTO ${table}_rebuilt (${names}) SELECT ${names} FROM ${table};
        DROP TABLE ${table};
        ALTER TABLE ${table}_rebuilt RENAME TO ${table};`);
      if (table === 'orders' && seq && seq.seq > ORDER_ID_FLOOR)
        this.setMeta('orders_id_floor', String(seq.seq));
      rebuilt = true;
    }
    return rebuilt;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.commitBatch();
    this.closed = true;
    this.db.close();
  }

  /**
   * A write transaction that takes the lock up front (`BEGIN IMMEDIATE`): a deferred one that
   * upgrades to write while another process writes fails with SQLITE_BUSY at once, whatever the
   * busy timeout. Nested calls become savepoints.
   */
  tx<T>(fn: () => T): T {
    // Outside the batch's own calls, the batch is committed first: what follows is on disk when it returns.
    if (this.batch && !this.inBatchedCall) this.commitBatch();
    return this.wrap.immediate(fn) as T;
  }

  /** A read transaction: one consistent snapshot, and no write lock held against another process. */
  read<T>(fn: () => T): T {
    if (this.batch && !this.inBatchedCall) this.commitBatch();
    return this.wrap.deferred(fn) as T;
  }

  /** Whether a group commit is open (a call joining it reads what the batch wrote so far). */
  get batchOpen(): boolean {
    return this.batch !== undefined;
  }

  /**
   * Group commit: runs `fn` in a savepoint of a write transaction shared by every call made in the
   * same turn of the event loop, and resolves once that transaction is committed (rejects if the
   * COMMIT fails, after a rollback). Under load one COMMIT, the costliest step of a small write,
   * serves several requests; none is answered before its writes are durable. `onOpen` runs first
   * when this call opens the batch. A throw from `fn` undoes only its own savepoint.
   */
  batched<T>(fn: () => T, onOpen?: () => void): Promise<T> {
    const wasInCall = this.inBatchedCall;
    this.inBatchedCall = true;
    try {
      if (!this.batch) {
        this.stmt('BEGIN IMMEDIATE').run();
        this.batch = [];
        setImmediate(() => this.commitBatch());
        onOpen?.();
      }
      const value = this.wrap(fn) as T;
      return new Promise<T>((resolve, reject) => this.batch!.push({ resolve: () => resolve(value), reject }));
    } catch (e) {
      return Promise.reject(e);
    } finally {
      this.inBatchedCall = wasInCall;
    }
  }

  private commitBatch(): void {
    const waiters = this.batch;
    if (!waiters) return;
    this.batch = undefined;
    try {
      this.stmt('COMMIT').run();
    } catch (e) {
      if (this.db.inTransaction) this.stmt('ROLLBACK').run();
      for (const w of waiters) w.reject(e);
      return;
    }
    for (const w of waiters) w.resolve();
  }

  getMeta(key: string): string | undefined {
    const row = this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  // Orders

  /**
   * The id the next order gets (see NEXT_ORDER_ID): read it and insert in the same write transaction,
   * so an order's acknowledgement, which names the id, goes in with the row.
   */
  nextOrderId(): number {
    return (this.stmt(NEXT_ORDER_ID).raw(true).get(this.orderIdFloor) as [number])[0];
  }

  /** Inserts an order; `id` from {@link nextOrderId} in the same transaction, or the next one when omitted. */
  insertOrder(
    o: Omit<Patch<OrderRow>, 'id'> & Pick<OrderRow, 'merchant' | 'client_orderid' | 'kind' | 'op_path'>,
    id = this.nextOrderId(),
  ): OrderRow {
    // Every column, the schema's defaults under what was given: one statement for every order, and
    // the stored row without reading it back. Built column by column: spreading the defaults and
    // adding the rest cost ~15 µs an order (V8 fell off its fast path), this ~2 µs.
    const given = o as Record<string, unknown>;
    const defaults = ORDER_DEFAULTS as Record<string, unknown>;
    const values = ORDER_COLUMNS.map((c) => (given[c] === undefined ? defaults[c] : given[c]));
    // The row as given rather than RETURNING, which SQLite serves through a temporary table.
    this.stmt(INSERT_ORDER).run(id, values);
    const row: Record<string, unknown> = { id };
    for (let i = 0; i < ORDER_COLUMNS.length; i++) row[ORDER_COLUMNS[i]!] = values[i];
    return row as unknown as OrderRow;
  }

  updateOrder(id: number, patch: Patch<OrderRow>): void {
    this.update('orders', id, patch);
  }

  /** An order's `server_callback_url` (undefined: no such order). */
  callbackUrlOf(id: number): string | null | undefined {
    const row = this.stmt('SELECT callback_url FROM orders WHERE id = ?').raw(true).get(id) as
      [string | null] | undefined;
    return row?.[0];
  }

  getOrder(id: number): OrderRow | undefined {
    return this.stmt('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow | undefined;
  }

  findOrderByKey(
    merchant: string,
    endpointKind: string,
    endpointRef: string,
    opPath: string,
    clientOrderId: string,
  ): OrderRow | undefined {
    return this.stmt(
      'SELECT * FROM orders WHERE merchant = ? AND endpoint_kind = ? AND endpoint_ref = ? AND op_path = ? AND client_orderid = ?',
    ).get(merchant, endpointKind, endpointRef, opPath, clientOrderId) as OrderRow | undefined;
  }

  latestOrderByClientId(merchant: string, clientOrderId: string): OrderRow | undefined {
    return this.stmt(
      'SELECT * FROM orders WHERE merchant = ? AND client_orderid = ? ORDER BY id DESC LIMIT 1',
    ).get(merchant, clientOrderId) as OrderRow | undefined;
  }

  orderByToken(token: string): OrderRow | undefined {
    return this.stmt('SELECT * FROM orders WHERE page_token = ?').get(token) as OrderRow | undefined;
  }

  // Requests

  insertRequest(r: Omit<RequestRow, 'id'>): RequestRow {
    const id = Number(this.insertRow('requests', r).lastInsertRowid);
    this.noteDue(r.finalize_at);
    return { id, ...r };
  }

  updateRequest(id: number, patch: Patch<RequestRow>): void {
    this.update('requests', id, patch);
    this.noteDue(patch.finalize_at);
  }

  private noteDue(at: number | null | undefined): void {
    if (typeof at === 'number' && at < this.dueHint) this.dueHint = at;
  }

  /** Whether a request of this process may be due at `now` (false: the sweep can be skipped). */
  mayBeDue(now: number): boolean {
    return now >= this.dueHint;
  }

  /** Re-reads the earliest pending `finalize_at` after a sweep (rows of any process). */
  refreshDueHint(): void {
    const row = this.stmt(
      'SELECT min(finalize_at) AS at FROM requests WHERE finalize_at IS NOT NULL',
    ).get() as {
      at: number | null;
    };
    this.dueHint = row.at ?? Number.POSITIVE_INFINITY;
  }

  getRequest(id: number): RequestRow | undefined {
    return this.stmt('SELECT * FROM requests WHERE id = ?').get(id) as RequestRow | undefined;
  }

  /**
   * An order and its latest request (or the one with serial `serial`) in one statement, with only
   * the columns a status answer shows: the status read, the sandbox's most frequent request, is one
   * short query instead of a transaction of two full-row reads. Undefined when either is missing.
   */
  statusOf(orderId: number, serial?: string): { order: StatusOrder; request: StatusRequest } | undefined {
    const row = (
      serial === undefined
        ? this.stmt(STATUS_LATEST).raw(true).get(orderId)
        : this.stmt(STATUS_BY_SERIAL).raw(true).get(orderId, serial)
    ) as unknown[] | undefined;
    return row && statusRow(row);
  }

  requestsOf(orderId: number): RequestRow[] {
    return this.stmt('SELECT * FROM requests WHERE order_id = ? ORDER BY id').all(orderId) as RequestRow[];
  }

  requestBySerial(orderId: number, serial: string): RequestRow | undefined {
    return this.stmt('SELECT * FROM requests WHERE order_id = ? AND serial = ?').get(orderId, serial) as
      RequestRow | undefined;
  }

  /** One order's requests whose delay has passed. */
  dueRequestsOf(orderId: number, now: number): DueRequest[] {
    return (
      this.stmt(
        `SELECT ${DUE_COLUMNS} FROM requests r JOIN orders o ON o.id = r.order_id WHERE r.order_id = ? AND r.finalize_at IS NOT NULL AND r.finalize_at <= ? ORDER BY r.finalize_at, r.id`,
      )
        .raw(true)
        .all(orderId, now) as unknown[][]
    ).map(dueRow);
  }

  dueRequests(now: number, limit = 200): DueRequest[] {
    // Read as arrays: the timer and each group commit read up to a batch of these.
    return (
      this.stmt(
        `SELECT ${DUE_COLUMNS} FROM requests r JOIN orders o ON o.id = r.order_id WHERE r.finalize_at IS NOT NULL AND r.finalize_at <= ? ORDER BY r.finalize_at, r.id ${limitClause(limit)}`,
      )
        .raw(true)
        .all(now) as unknown[][]
    ).map(dueRow);
  }

  // Card references and subscriptions

  insertCardRef(c: Omit<CardRefRow, 'id'>): CardRefRow {
    const id = Number(this.insertRow('card_refs', c).lastInsertRowid);
    return { id, ...c };
  }

  cardRef(merchant: string, id: number): CardRefRow | undefined {
    return this.stmt('SELECT * FROM card_refs WHERE merchant = ? AND id = ?').get(merchant, id) as
      CardRefRow | undefined;
  }

  cardRefOfOrder(orderId: number): CardRefRow | undefined {
    return this.stmt('SELECT * FROM card_refs WHERE order_id = ?').get(orderId) as CardRefRow | undefined;
  }

  insertRecurring(r: {
    merchant: string;
    order_id: number;
    card_type: string;
    amount_minor: number;
    currency: string;
    period: string;
    interval: number;
    created_at: number;
  }): number {
    return Number(
      this.stmt(
        `INSERT INTO recurring_payments (merchant, order_id, card_type, amount_minor, currency, period, interval, created_at)
           VALUES (@merchant, @order_id, @card_type, @amount_minor, @currency, @period, @interval, @created_at)`,
      ).run(r).lastInsertRowid,
    );
  }

  // OAuth nonces

  /** Records a nonce; false when the same consumer already used it and it has not expired. */
  useNonce(consumer: string, nonce: string, now: number, expiresAt: number): boolean {
    // One statement: a new nonce is inserted, an expired one taken over, a live one left alone.
    const r = this.stmt(
      `INSERT INTO nonces (consumer, nonce, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (consumer, nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE nonces.expires_at <= ?`,
    ).run(consumer, nonce, expiresAt, now);
    return r.changes === 1;
  }

  /**
   * Deletes at most `limit` expired nonces (through the expiry index) and returns how many: the
   * caller spreads a large purge over several turns of the event loop.
   */
  purgeNonces(now: number, limit = NONCE_PURGE_BATCH): number {
    return this.stmt(
      `DELETE FROM nonces WHERE rowid IN (SELECT rowid FROM nonces WHERE expires_at <= ? ORDER BY expires_at ${limitClause(limit)})`,
    ).run(now).changes;
  }

  // Callbacks

  insertCallback(requestId: number, url: string, nextAt: number): void {
    this.stmt(
      `INSERT INTO callbacks (request_id, url, attempts, next_at, state) VALUES (?, ?, 0, ?, 'pending')`,
    ).run(requestId, url, nextAt);
  }

  /** Pending callbacks due now, claimed or not (for tests and diagnostics). */
  dueCallbacks(now: number, limit = 20): CallbackRow[] {
    return this.stmt(
      `SELECT * FROM callbacks WHERE state = 'pending' AND next_at <= ? ORDER BY next_at, id ${limitClause(limit)}`,
    ).all(now) as CallbackRow[];
  }

  /**
   * Claims due callbacks for this process until `now + holdMs` (a lease row in the database), so
   * that of several processes on one file exactly one delivers each attempt. A claim whose holder
   * died expires and is taken over.
   */
  claimCallbacks(now: number, holdMs: number, limit = 20): CallbackRow[] {
    return this.tx(() => {
      // Two index walks that never pass a row in flight (a fan-out keeps a thousand leased): claims
      // whose holder died first, then rows no one holds.
      const expired = this.stmt(
        `SELECT * FROM callbacks WHERE state = 'pending' AND lease_until IS NOT NULL AND lease_until <= ?
           AND next_at <= ? ORDER BY lease_until ${limitClause(limit)}`,
      ).all(now, now) as CallbackRow[];
      const due =
        expired.length >= limit
          ? expired
          : expired.concat(
              this.stmt(
                `SELECT * FROM callbacks WHERE state = 'pending' AND lease_until IS NULL AND next_at <= ?
                 ORDER BY next_at, id ${limitClause(limit - expired.length)}`,
              ).all(now) as CallbackRow[],
            );
      const until = now + holdMs + LEASE_MARGIN_MS;
      const claim = this.stmt('UPDATE callbacks SET lease_owner = ?, lease_until = ? WHERE id = ?');
      for (const cb of due) claim.run(this.owner, until, cb.id);
      return due.map((cb) => ({ ...cb, lease_owner: this.owner, lease_until: until }));
    });
  }

  /** Records an attempt's result and releases the claim; false when this process no longer held it. */
  finishCallback(id: number, patch: Patch<Omit<CallbackRow, 'lease_owner' | 'lease_until'>>): boolean {
    return this.tx(() => {
      const row = this.stmt('SELECT lease_owner FROM callbacks WHERE id = ?').get(id) as
        { lease_owner: string | null } | undefined;
      if (!row || row.lease_owner !== this.owner) return false;
      this.update('callbacks', id, { ...patch, lease_owner: null, lease_until: null });
      return true;
    });
  }

  /** Gives up this process's claims (on a clean stop), so another process or the next start delivers at once. */
  releaseClaims(): void {
    this.stmt('UPDATE callbacks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?').run(
      this.owner,
    );
  }

  callbacksOfOrder(orderId: number): CallbackRow[] {
    return this.stmt(
      'SELECT c.* FROM callbacks c JOIN requests r ON r.id = c.request_id WHERE r.order_id = ? ORDER BY c.id',
    ).all(orderId) as CallbackRow[];
  }

  updateCallback(id: number, patch: Patch<CallbackRow>): void {
    this.update('callbacks', id, patch);
  }

  // Merchant keys registered at run time

  merchantKeys(): Array<{ login: string; public_key_pem: string }> {
    return this.stmt('SELECT login, public_key_pem FROM merchant_keys').all() as Array<{
      login: string;
      public_key_pem: string;
    }>;
  }

  setMerchantKey(login: string, pem: string, now: number): void {
    this.stmt(
      'INSERT INTO merchant_keys (login, public_key_pem, updated_at) VALUES (?, ?, ?) ON CONFLICT(login) DO UPDATE SET public_key_pem = excluded.public_key_pem, updated_at = excluded.updated_at',
    ).run(login, pem, now);
  }

  /** Forgets the key registered at run time: the merchant's configured (shipped) key applies again. */
  deleteMerchantKey(login: string): boolean {
    return this.stmt('DELETE FROM merchant_keys WHERE login = ?').run(login).changes > 0;
  }

  // Merchants created at run time (one per classroom trainee)

  addedMerchants(): AddedMerchantRow[] {
    return this.stmt('SELECT * FROM added_merchants ORDER BY created_at, login').all() as AddedMerchantRow[];
  }

  insertAddedMerchant(row: AddedMerchantRow): void {
    this.stmt(
      `INSERT INTO added_merchants (login, control_key, endpoint_id, endpoint_group_id, public_key_pem, created_at)
       VALUES (@login, @control_key, @endpoint_id, @endpoint_group_id, @public_key_pem, @created_at)`,
    ).run(row);
  }

  /** The largest endpoint id handed out at run time, or undefined when none was. */
  lastAddedEndpointId(): number | undefined {
    const row = this.stmt('SELECT MAX(CAST(endpoint_id AS INTEGER)) AS last FROM added_merchants').get() as {
      last: number | null;
    };
    return row.last ?? undefined;
  }

  /** How many orders a merchant holds (bounds a classroom trainee's data). */
  countOrders(merchant: string): number {
    return (this.stmt('SELECT COUNT(*) AS n FROM orders WHERE merchant = ?').get(merchant) as { n: number })
      .n;
  }

  /** An INSERT of every key of `row` (the SQL made once per table and set of columns). */
  private insertRow(table: 'requests' | 'card_refs', row: object): Database.RunResult {
    const keys = Object.keys(row);
    const values = Object.values(row);
    return this.sqlFor(`${table} ${keys.join(',')}`, () => {
      checkColumns(keys);
      return `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`;
    }).run(values);
  }

  private update(
    table: 'orders' | 'requests' | 'callbacks',
    id: number,
    patch: Record<string, unknown>,
  ): void {
    const keys: string[] = [];
    const values: unknown[] = [];
    for (const k in patch) {
      if (patch[k] === undefined) continue;
      keys.push(k);
      values.push(patch[k]);
    }
    if (keys.length === 0) return;
    values.push(id);
    this.sqlFor(`${table} ${keys.join(',')} =`, () => {
      checkColumns(keys);
      return `UPDATE ${table} SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`;
    }).run(values);
  }

  /** The statement a key names, its SQL built (and its column names checked) the first time only. */
  private sqlFor(key: string, build: () => string): Database.Statement {
    let s = this.built.get(key);
    if (!s) {
      s = this.stmt(build());
      this.built.set(key, s);
    }
    return s;
  }
}

function checkColumns(keys: readonly string[]): void {
  for (const k of keys) if (!/^[a-z_0-9]+$/.test(k)) throw new Error(`bad column ${k}`);
}
