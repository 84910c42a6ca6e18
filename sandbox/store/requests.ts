import { FINAL_STATUSES, type TransactionStatus as CatalogStatus } from '../../src/catalog/responses.ts';
import { limitClause } from '../sqlite.ts';
import type { OrderKind } from './orders.ts';
import type { Patch, Statements, TableSchema } from './statements.ts';

/** One request on an order: the creating one, then captures, returns, voids, payout-pay. */
export type RequestKind = OrderKind | 'capture' | 'return' | 'void' | 'payout-pay' | 'chargeback';

/** The statuses the sandbox gives (the catalog's, but `chain_declined`, which it never produces). */
export type TransactionStatus = Exclude<CatalogStatus, 'chain_declined'>;
export const FINAL: readonly TransactionStatus[] = FINAL_STATUSES.filter(
  (s): s is TransactionStatus => s !== 'chain_declined',
);

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

/** Requests have the plain rowid too (the largest id plus one): nothing deletes a request either. */
const REQUESTS_COLUMNS = `(
  id INTEGER PRIMARY KEY,
  serial TEXT NOT NULL UNIQUE, order_id INTEGER NOT NULL REFERENCES orders(id), kind TEXT NOT NULL,
  amount_minor INTEGER NOT NULL DEFAULT 0, currency TEXT,
  status TEXT NOT NULL, pending_status TEXT, pending_error_message TEXT, pending_error_code TEXT, finalize_at INTEGER,
  error_message TEXT, error_code TEXT, approval_code TEXT, rrn TEXT, refund_mode TEXT,
  created_at INTEGER NOT NULL
)`;

export const REQUESTS_TABLE: TableSchema = {
  name: 'requests',
  ddl: `CREATE TABLE IF NOT EXISTS requests ${REQUESTS_COLUMNS};
CREATE INDEX IF NOT EXISTS requests_order ON requests (order_id);
CREATE INDEX IF NOT EXISTS requests_due ON requests (finalize_at) WHERE finalize_at IS NOT NULL;`,
  rebuild: { columns: REQUESTS_COLUMNS, old: /AUTOINCREMENT/i },
};

/** A request's columns, in the order {@link requestRow} reads them. */
const REQUEST_COLUMNS =
  'id, serial, order_id, kind, amount_minor, currency, status, pending_status, pending_error_message, pending_error_code, finalize_at, error_message, error_code, approval_code, rrn, refund_mode, created_at';

/** A request whose delay has passed, with its order's `server_callback_url` (read in the same query). */
export interface DueRequest {
  request: RequestRow;
  callbackUrl: string | null;
  /** The order's `extra_json` (its `notify_url` among others: engine/notify-url.ts). */
  orderExtraJson: string | null;
}

/** The due reads: a request's columns, then its order's callback URLs (joined, not a query per row). */
const REQUEST_COLUMN_LIST = REQUEST_COLUMNS.split(', ');
const DUE_COLUMNS = `${REQUEST_COLUMN_LIST.map((c) => `r.${c}`).join(', ')}, o.callback_url, o.extra_json`;

function dueRow(v: unknown[]): DueRequest {
  const n = REQUEST_COLUMN_LIST.length;
  return {
    request: requestRow(v),
    callbackUrl: v[n] as string | null,
    orderExtraJson: v[n + 1] as string | null,
  };
}

/**
 * A request read as an array (REQUEST_COLUMNS' order) into an object of fixed shape: the driver's
 * own row objects intern every column name on every row (see status.ts).
 */
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

/** The requests table, and what is due of it. */
export class Requests {
  /**
   * The earliest `finalize_at` this process knows of (Infinity: none). Lets a request skip the
   * sweep query when nothing can be due; the scheduler's timer sweeps regardless, for rows another
   * process on the same file scheduled.
   */
  private dueHint = Number.POSITIVE_INFINITY;

  constructor(private readonly s: Statements) {}

  insert(r: Omit<RequestRow, 'id'>): RequestRow {
    const id = Number(this.s.insertRow('requests', r).lastInsertRowid);
    this.noteDue(r.finalize_at);
    return { id, ...r };
  }

  update(id: number, patch: Patch<RequestRow>): void {
    this.s.update('requests', id, patch);
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
    const row = this.s
      .stmt('SELECT min(finalize_at) AS at FROM requests WHERE finalize_at IS NOT NULL')
      .get() as {
      at: number | null;
    };
    this.dueHint = row.at ?? Number.POSITIVE_INFINITY;
  }

  get(id: number): RequestRow | undefined {
    return this.s.stmt('SELECT * FROM requests WHERE id = ?').get(id) as RequestRow | undefined;
  }

  of(orderId: number): RequestRow[] {
    return this.s.stmt('SELECT * FROM requests WHERE order_id = ? ORDER BY id').all(orderId) as RequestRow[];
  }

  bySerial(orderId: number, serial: string): RequestRow | undefined {
    return this.s.stmt('SELECT * FROM requests WHERE order_id = ? AND serial = ?').get(orderId, serial) as
      RequestRow | undefined;
  }

  /** One order's requests whose delay has passed. */
  dueOf(orderId: number, now: number): DueRequest[] {
    return (
      this.s
        .stmt(
          `SELECT ${DUE_COLUMNS} FROM requests r JOIN orders o ON o.id = r.order_id WHERE r.order_id = ? AND r.finalize_at IS NOT NULL AND r.finalize_at <= ? ORDER BY r.finalize_at, r.id`,
        )
        .raw(true)
        .all(orderId, now) as unknown[][]
    ).map(dueRow);
  }

  due(now: number, limit = 200): DueRequest[] {
    // Read as arrays: the timer and each group commit read up to a batch of these.
    return (
      this.s
        .stmt(
          `SELECT ${DUE_COLUMNS} FROM requests r JOIN orders o ON o.id = r.order_id WHERE r.finalize_at IS NOT NULL AND r.finalize_at <= ? ORDER BY r.finalize_at, r.id ${limitClause(limit)}`,
        )
        .raw(true)
        .all(now) as unknown[][]
    ).map(dueRow);
  }
}
