import type Database from 'better-sqlite3';
import { callbackRouteOf, type CallbackUrlField } from '../../src/catalog/callback-routes.ts';
import { limitClause, statementCache } from '../sqlite.ts';

import type { DeliveryKind, DeliveryRecord } from '../../src/contracts/scenario-lab.ts';

// The record's shape is the lab's wire contract (src/contracts/scenario-lab.ts), read by the console.
export type { DeliveryKind, DeliveryRecord };

/** A record as the relay's routes answer it: with why its URL heard about the transaction. */
export type DeliveryView = DeliveryRecord & { urlWhy: string | null };

/** A record as the relay's list answers it: its attempt number and the callback's next retry. */
export interface ListedDelivery extends DeliveryView {
  attempt: number | null;
  /** When the callback's next attempt is due (the sandbox's clock), while it is pending. */
  nextAttemptAt: number | null;
}

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
  url_field: CallbackUrlField | null;
}

/** Why the record's URL heard about its transaction (the `type` in its query). */
export function withUrlWhy(d: DeliveryRecord): DeliveryView {
  let type: string | null;
  try {
    type = new URL(d.url).searchParams.get('type');
  } catch {
    type = null;
  }
  return { ...d, urlWhy: d.urlField && type ? callbackRouteOf(type, d.urlField).why : null };
}

function fromRow(r: Row): DeliveryView {
  return withUrlWhy({
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
    urlField: r.url_field,
  });
}

/** Records deleted per statement by {@link DeliveryLog.prune}: each step is short. */
export const RELAY_PRUNE_BATCH = 500;

/**
 * The relay's record, in the sandbox's database (its own table, made by sandbox/store/schema.ts). It keeps the newest `keep`
 * records of each merchant (and up to 100 more between two prunes): a sandbox that runs for
 * months, or a fan-out bench, does not grow it without end.
 */
export class DeliveryLog {
  private readonly stmt: (sql: string) => Database.Statement;
  /** Records per merchant since its last prune (each merchant with records counts as due after a start). */
  private readonly grown = new Map<string, number>();
  /** A merchant is pruned once this many records arrived: finding the cut walks `keep` index entries. */
  private readonly pruneAfter: number;

  constructor(
    db: Database.Database,
    private readonly keep = Number.POSITIVE_INFINITY,
  ) {
    this.stmt = statementCache(db);
    this.pruneAfter = Math.min(keep, 100);
    for (const m of this.stmt('SELECT DISTINCT merchant FROM relay_deliveries').pluck().all() as string[])
      this.grown.set(m, this.pruneAfter);
  }

  /**
   * Deletes at most `limit` records beyond the newest `keep` of each merchant due a prune, and
   * returns how many: the caller repeats it in later turns of the event loop while a full batch goes.
   */
  prune(limit = RELAY_PRUNE_BATCH): number {
    if (!Number.isFinite(this.keep)) return 0;
    let deleted = 0;
    for (const [merchant, since] of this.grown) {
      if (since < this.pruneAfter) continue;
      // The oldest record to keep (through the merchant index); none: the merchant has fewer.
      const oldestKept = this.stmt(
        `SELECT id FROM relay_deliveries WHERE merchant = ? ORDER BY id DESC ${limitClause(1, this.keep - 1)}`,
      )
        .pluck()
        .get(merchant) as number | undefined;
      if (oldestKept !== undefined)
        deleted += this.stmt(
          `DELETE FROM relay_deliveries WHERE id IN
             (SELECT id FROM relay_deliveries WHERE merchant = ? AND id < ? ORDER BY id ${limitClause(limit - deleted)})`,
        ).run(merchant, oldestKept).changes;
      if (deleted >= limit) return deleted;
      this.grown.delete(merchant);
    }
    return deleted;
  }

  record(d: Omit<DeliveryRecord, 'id'>): DeliveryView {
    this.grown.set(d.merchant, (this.grown.get(d.merchant) ?? 0) + 1);
    const id = Number(
      this.stmt(
        `INSERT INTO relay_deliveries (callback_id, order_id, merchant, kind, mutation, url, at, http_status, result, duration_ms, body_excerpt, url_field)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        d.urlField,
      ).lastInsertRowid,
    );
    return withUrlWhy({ id, ...d });
  }

  get(id: number): DeliveryView | undefined {
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

  /**
   * The newest records first, of a merchant, of one order, or of one order of that merchant (each
   * filter given narrows the list: an order of another merchant gives none), each with its attempt
   * number (an attempt on the schedule: `delivery` or `dropped`) and, while its callback waits for a
   * retry, when that is due (the sandbox's clock; the merchant's time adds its test clock's advance).
   */
  list(filter: { merchant?: string; orderId?: number }, limit: number): ListedDelivery[] {
    const lim = limitClause(limit);
    const conditions: string[] = [];
    const args: Array<string | number> = [];
    if (filter.orderId !== undefined) {
      conditions.push('r.order_id = ?');
      args.push(filter.orderId);
    }
    if (filter.merchant !== undefined) {
      conditions.push('r.merchant = ?');
      args.push(filter.merchant);
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows = this.stmt(
      `SELECT r.*,
         CASE WHEN r.kind IN ('delivery', 'dropped') AND r.callback_id IS NOT NULL THEN
           (SELECT COUNT(*) FROM relay_deliveries a WHERE a.callback_id = r.callback_id
              AND a.kind IN ('delivery', 'dropped') AND a.id <= r.id) END AS attempt,
         (SELECT c.next_at FROM callbacks c WHERE c.id = r.callback_id AND c.state = 'pending') AS next_at
       FROM relay_deliveries r ${where} ORDER BY r.id DESC ${lim}`,
    ).all(...args) as Array<Row & { attempt: number | null; next_at: number | null }>;
    return rows.map((r) => ({ ...fromRow(r), attempt: r.attempt, nextAttemptAt: r.next_at }));
  }
}
