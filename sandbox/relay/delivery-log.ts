import type Database from 'better-sqlite3';
import { limitClause, statementCache } from '../sqlite.ts';

/**
 * What the relay did with a callback: `delivery` (an attempt on the schedule), `duplicate` and
 * `forged` (the scenario lab's extra sends), `dropped` and `held` (the scenario lab kept it back),
 * `refused` (a host not allowed), `replay` (a user's replay, as it was or mutated).
 */
export type DeliveryKind = 'delivery' | 'duplicate' | 'forged' | 'dropped' | 'held' | 'refused' | 'replay';

/** One row of the relay's record: the callback sent and the handler's answer. */
export interface DeliveryRecord {
  id: number;
  callbackId: number | null;
  orderId: number;
  merchant: string;
  kind: DeliveryKind;
  /** For a replay: how it was changed (`as-is`, `bad-control`, `amount`, `duplicate`, `stale`). */
  mutation: string | null;
  /** The URL with the callback's query, as sent (no card data: ids, status, amount, control). */
  url: string;
  /** The sandbox's clock when it was sent. */
  at: number;
  /** The handler's HTTP status; null when nothing came back (timeout, network error, not sent). */
  httpStatus: number | null;
  /** `HTTP 200`, `timeout`, `network error: …`, `dropped (scenario …)`. */
  result: string;
  durationMs: number | null;
  /** The start of the handler's answer (at most 200 characters). */
  bodyExcerpt: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS relay_deliveries (
  id INTEGER PRIMARY KEY, callback_id INTEGER, order_id INTEGER NOT NULL, merchant TEXT NOT NULL,
  kind TEXT NOT NULL, mutation TEXT, url TEXT NOT NULL, at INTEGER NOT NULL,
  http_status INTEGER, result TEXT NOT NULL, duration_ms INTEGER, body_excerpt TEXT);
CREATE INDEX IF NOT EXISTS relay_deliveries_order ON relay_deliveries (order_id, id);
CREATE INDEX IF NOT EXISTS relay_deliveries_merchant ON relay_deliveries (merchant, id);
CREATE INDEX IF NOT EXISTS relay_deliveries_callback ON relay_deliveries (callback_id, kind) WHERE callback_id IS NOT NULL;
`;

interface Row {
  id: number;
  callback_id: number | null;
  order_id: number;
  merchant: string;
  kind: DeliveryKind;
  mutation: string | null;
  url: string;
  at: number;
  http_status: number | null;
  result: string;
  duration_ms: number | null;
  body_excerpt: string | null;
}

function fromRow(r: Row): DeliveryRecord {
  return {
    id: r.id,
    callbackId: r.callback_id,
    orderId: r.order_id,
    merchant: r.merchant,
    kind: r.kind,
    mutation: r.mutation,
    url: r.url,
    at: r.at,
    httpStatus: r.http_status,
    result: r.result,
    durationMs: r.duration_ms,
    bodyExcerpt: r.body_excerpt,
  };
}

/** The relay's record, in the sandbox's database (its own table). */
export class DeliveryLog {
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(db: Database.Database) {
    db.exec(SCHEMA);
    this.stmt = statementCache(db);
  }

  record(d: Omit<DeliveryRecord, 'id'>): DeliveryRecord {
    const id = Number(
      this.stmt(
        `INSERT INTO relay_deliveries (callback_id, order_id, merchant, kind, mutation, url, at, http_status, result, duration_ms, body_excerpt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        d.callbackId,
        d.orderId,
        d.merchant,
        d.kind,
        d.mutation,
        d.url,
        d.at,
        d.httpStatus,
        d.result,
        d.durationMs,
        d.bodyExcerpt,
      ).lastInsertRowid,
    );
    return { id, ...d };
  }

  get(id: number): DeliveryRecord | undefined {
    const row = this.stmt('SELECT * FROM relay_deliveries WHERE id = ?').get(id) as Row | undefined;
    return row && fromRow(row);
  }

  /** True when the callback already had a record of this kind (a hold or a forged send happens once). */
  has(callbackId: number, kind: DeliveryKind): boolean {
    return (
      this.stmt('SELECT EXISTS (SELECT 1 FROM relay_deliveries WHERE callback_id = ? AND kind = ?)')
        .pluck()
        .get(callbackId, kind) === 1
    );
  }

  /** The newest records first, of a merchant or of one order. */
  list(filter: { merchant?: string; orderId?: number }, limit: number): DeliveryRecord[] {
    const lim = limitClause(limit);
    const rows =
      filter.orderId !== undefined
        ? this.stmt(`SELECT * FROM relay_deliveries WHERE order_id = ? ORDER BY id DESC ${lim}`).all(
            filter.orderId,
          )
        : filter.merchant !== undefined
          ? this.stmt(`SELECT * FROM relay_deliveries WHERE merchant = ? ORDER BY id DESC ${lim}`).all(
              filter.merchant,
            )
          : this.stmt(`SELECT * FROM relay_deliveries ORDER BY id DESC ${lim}`).all();
    return (rows as Row[]).map(fromRow);
  }
}
