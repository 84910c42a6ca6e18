import type Database from 'better-sqlite3';
import { isLaterTransaction, wireTransactionType } from '../../src/catalog/callback-routes.ts';
import { limitClause, statementCache } from '../sqlite.ts';

/** Callbacks the Scenarios page lists per merchant, the soonest first. */
export const PENDING_LISTED = 50;

/** A callback not yet delivered (nor given up), as the Scenarios page shows it. */
export interface PendingCallbackView {
  callbackId: number;
  orderId: string;
  clientOrderId: string;
  /** The transaction type on the wire (`sale`, `reversal`…) and its final status. */
  type: string;
  status: string;
  urlField: 'server_callback_url' | 'notify_url';
  /** Attempts made so far (0: the first is still to come). */
  attempts: number;
  /** The next attempt, in the merchant's time (the test clock's advance included). */
  nextAttemptAt: number;
}

type Row = [number, number, number, string, string, string, number, string, string | null];

/**
 * A merchant's pending callbacks with their next attempt in the merchant's time: the sandbox keeps
 * one time frame and moves a merchant's deadlines earlier when its clock advances, so the
 * merchant's time of a deadline is the stored one plus the merchant's advance in all.
 */
export function pendingCallbacksOf(
  db: Database.Database,
  login: string,
  advancedMs: number,
): PendingCallbackView[] {
  const rows = statementCache(db)(
    `SELECT c.id, c.attempts, c.next_at, c.url, r.kind, r.status, o.id, o.client_orderid, o.callback_url
       FROM callbacks c JOIN requests r ON r.id = c.request_id JOIN orders o ON o.id = r.order_id
       WHERE c.state = 'pending' AND o.merchant = ? ORDER BY c.next_at, c.id ${limitClause(PENDING_LISTED)}`,
  )
    .raw(true)
    .all(login) as Row[];
  return rows.map(([id, attempts, nextAt, url, kind, status, orderId, clientOrderId, initialUrl]) => {
    const type = wireTransactionType(kind);
    return {
      callbackId: id,
      orderId: String(orderId),
      clientOrderId,
      type,
      status,
      urlField: isLaterTransaction(type) || url !== initialUrl ? 'notify_url' : 'server_callback_url',
      attempts,
      nextAttemptAt: nextAt + advancedMs,
    };
  });
}
