import { limitClause } from '../sqlite.ts';
import type { OrderRow } from './orders.ts';
import type { RequestRow } from './requests.ts';
import { checkColumns, type Patch, type Statements, type TableSchema } from './statements.ts';

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

/** The callbacks to deliver, each with its claim (lease) while a process delivers it. */
export const CALLBACKS_TABLE: TableSchema = {
  name: 'callbacks',
  ddl: `CREATE TABLE IF NOT EXISTS callbacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id INTEGER NOT NULL REFERENCES requests(id), url TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, state TEXT NOT NULL, last_result TEXT,
  lease_owner TEXT, lease_until INTEGER
);
CREATE INDEX IF NOT EXISTS callbacks_due ON callbacks (next_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS callbacks_claimable ON callbacks (next_at) WHERE state = 'pending' AND lease_until IS NULL;
CREATE INDEX IF NOT EXISTS callbacks_leased ON callbacks (lease_until) WHERE state = 'pending' AND lease_until IS NOT NULL;`,
  // Schema version 2.
  addedColumns: [
    ['lease_owner', 'TEXT'],
    ['lease_until', 'INTEGER'],
  ],
};

/** What a delivery reads of the callback's request and order: its URL's query, the relay's record. */
export interface DeliveryTarget {
  request: Pick<
    RequestRow,
    'id' | 'status' | 'amount_minor' | 'currency' | 'kind' | 'serial' | 'error_message' | 'error_code'
  >;
  order: Pick<OrderRow, 'id' | 'merchant' | 'client_orderid'>;
}

/** A claimed callback and what its delivery needs (undefined: its request or order is no longer known). */
export interface ClaimedDelivery {
  callback: CallbackRow;
  target: DeliveryTarget | undefined;
}

/**
 * A claim's reads: the callback's columns (without its lease, which the claim sets), then its
 * request's and order's (LEFT JOIN: a row that lost them is still claimed, and failed by the relay),
 * read as arrays into objects of fixed shape (see status.ts).
 */
const CLAIM_COLUMNS =
  'c.id, c.request_id, c.url, c.attempts, c.next_at, c.state, c.last_result, ' +
  'r.id, r.status, r.amount_minor, r.currency, r.kind, r.serial, r.error_message, r.error_code, ' +
  'o.id, o.merchant, o.client_orderid';
const CLAIM_FROM =
  'FROM callbacks c LEFT JOIN requests r ON r.id = c.request_id LEFT JOIN orders o ON o.id = r.order_id';

function claimedRow(v: unknown[], owner: string, until: number): ClaimedDelivery {
  const callback = {
    id: v[0],
    request_id: v[1],
    url: v[2],
    attempts: v[3],
    next_at: v[4],
    state: v[5],
    last_result: v[6],
    lease_owner: owner,
    lease_until: until,
  } as CallbackRow;
  // The order's id is null when either join found nothing.
  const target =
    v[15] === null
      ? undefined
      : {
          request: {
            id: v[7],
            status: v[8],
            amount_minor: v[9],
            currency: v[10],
            kind: v[11],
            serial: v[12],
            error_message: v[13],
            error_code: v[14],
          } as DeliveryTarget['request'],
          order: { id: v[15], merchant: v[16], client_orderid: v[17] } as DeliveryTarget['order'],
        };
  return { callback, target };
}

/** How long a callback claim holds beyond the delivery timeout: a process that dies loses it after this. */
const LEASE_MARGIN_MS = 5_000;

/** The callbacks table: what is due, and the claims that let one process of several deliver each attempt. */
export class Callbacks {
  constructor(
    private readonly s: Statements,
    /** This process's name in callback claims. */
    private readonly owner: string,
    private readonly tx: <T>(fn: () => T) => T,
  ) {}

  insert(requestId: number, url: string, nextAt: number): void {
    this.s
      .stmt(
        `INSERT INTO callbacks (request_id, url, attempts, next_at, state) VALUES (?, ?, 0, ?, 'pending')`,
      )
      .run(requestId, url, nextAt);
  }

  /** Pending callbacks due now, claimed or not (for tests and diagnostics). */
  due(now: number, limit = 20): CallbackRow[] {
    return this.s
      .stmt(
        `SELECT * FROM callbacks WHERE state = 'pending' AND next_at <= ? ORDER BY next_at, id ${limitClause(limit)}`,
      )
      .all(now) as CallbackRow[];
  }

  /**
   * Claims due callbacks for this process until `now + holdMs` (a lease row in the database), so
   * that of several processes on one file exactly one delivers each attempt. A claim whose holder
   * died expires and is taken over.
   */
  claim(now: number, holdMs: number, limit = 20): CallbackRow[] {
    return this.claimDeliveries(now, holdMs, limit).map((d) => d.callback);
  }

  /**
   * Claims due callbacks for this process until `now + holdMs` (see {@link claim}),
   * with each one's request and order read in the same statements: one joined read per claim of
   * up to `limit` callbacks, not two queries per delivery.
   */
  claimDeliveries(now: number, holdMs: number, limit = 20): ClaimedDelivery[] {
    return this.tx(() => {
      // Two index walks that never pass a row in flight (a fan-out keeps a thousand leased): claims
      // whose holder died first, then rows no one holds.
      const expired = this.s
        .stmt(
          `SELECT ${CLAIM_COLUMNS} ${CLAIM_FROM} WHERE c.state = 'pending' AND c.lease_until IS NOT NULL
           AND c.lease_until <= ? AND c.next_at <= ? ORDER BY c.lease_until ${limitClause(limit)}`,
        )
        .raw(true)
        .all(now, now) as unknown[][];
      const due =
        expired.length >= limit
          ? expired
          : expired.concat(
              this.s
                .stmt(
                  `SELECT ${CLAIM_COLUMNS} ${CLAIM_FROM} WHERE c.state = 'pending' AND c.lease_until IS NULL
                   AND c.next_at <= ? ORDER BY c.next_at, c.id ${limitClause(limit - expired.length)}`,
                )
                .raw(true)
                .all(now) as unknown[][],
            );
      const until = now + holdMs + LEASE_MARGIN_MS;
      const claim = this.s.stmt('UPDATE callbacks SET lease_owner = ?, lease_until = ? WHERE id = ?');
      return due.map((row) => {
        claim.run(this.owner, until, row[0]);
        return claimedRow(row, this.owner, until);
      });
    });
  }

  /** Records an attempt's result and releases the claim; false when this process no longer held it. */
  finish(id: number, patch: Patch<Omit<CallbackRow, 'lease_owner' | 'lease_until'>>): boolean {
    // One statement that writes only while this process holds the claim (its own transaction, or
    // a savepoint of the batch it joins, as every write of the store).
    const keys: string[] = [];
    const values: unknown[] = [];
    const given = patch as Record<string, unknown>;
    for (const k in given) {
      if (given[k] === undefined || k === 'lease_owner' || k === 'lease_until') continue;
      keys.push(k);
      values.push(given[k]);
    }
    values.push(id, this.owner);
    const finish = this.s.sqlFor(`callbacks ${keys.join(',')} finish`, () => {
      checkColumns(keys);
      const set = [...keys.map((k) => `${k} = ?`), 'lease_owner = NULL', 'lease_until = NULL'].join(', ');
      return `UPDATE callbacks SET ${set} WHERE id = ? AND lease_owner = ?`;
    });
    return this.tx(() => finish.run(values).changes === 1);
  }

  /** Gives up this process's claims (on a clean stop), so another process or the next start delivers at once. */
  releaseClaims(): void {
    this.s
      .stmt('UPDATE callbacks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?')
      .run(this.owner);
  }

  ofOrder(orderId: number): CallbackRow[] {
    return this.s
      .stmt(
        'SELECT c.* FROM callbacks c JOIN requests r ON r.id = c.request_id WHERE r.order_id = ? ORDER BY c.id',
      )
      .all(orderId) as CallbackRow[];
  }

  update(id: number, patch: Patch<CallbackRow>): void {
    this.s.update('callbacks', id, patch);
  }
}
