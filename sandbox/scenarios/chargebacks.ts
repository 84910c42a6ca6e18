import type Database from 'better-sqlite3';
import { delayOf } from '../../src/catalog/scenarios.ts';
import type { EngineContext } from '../engine/context.ts';
import { finalizeOrderDue } from '../engine/finalize.ts';
import { APPROVE, newRequest, scheduled } from '../engine/orders.ts';
import { statementCache } from '../sqlite.ts';
import type { OrderRow, RequestRow } from '../store.ts';
import type { ScenarioPick } from '../../src/catalog/scenarios.ts';

/**
 * The `chargeback` scenario (gateway-notes.md: chargebacks reach merchants as callbacks with
 * `type=chargeback`; the description has no chargeback operation, it is something the gateway does
 * to an order). The order made under it is charged back `delay-ms` after its money moved (default 7
 * days, in the merchant's time: the test clock walks it): a `chargeback` transaction, final and
 * approved at once, for what is left of the order's money, which it moves to `refunded_minor`, so
 * that a return afterwards finds nothing left. Its callback goes to `notify_url` (a later
 * transaction). Kept in a table of its own (`scenario_chargebacks`); its deadlines are the test clock's like the recurring
 * charges' (clock-routes.ts).
 */
/** The order kinds whose first transaction moves money at once, and the capture of a preauth. */
const MONEY_KINDS = new Set(['sale', 'rebill', 'recurring-charge']);

const byDatabase = new WeakMap<Database.Database, Chargebacks>();

/** The chargebacks of one sandbox database (its table made by sandbox/store/schema.ts). */
export function chargebacksOf(db: Database.Database): Chargebacks {
  let c = byDatabase.get(db);
  if (!c) {
    c = new Chargebacks(db);
    byDatabase.set(db, c);
  }
  return c;
}

export class Chargebacks {
  private readonly stmt: (sql: string) => Database.Statement;

  constructor(db: Database.Database) {
    this.stmt = statementCache(db);
  }

  /**
   * After an operation on an order made under `chargeback` (chargeback.ts): once for the order, when
   * its money is moved (a sale, a rebill or a recurring charge; a preauth's capture), the chargeback
   * falls due `delay` after the transaction's final status is due.
   */
  noteOperation(order: OrderRow, latest: RequestRow, pick: ScenarioPick): void {
    const moves = latest.kind === 'capture' || (MONEY_KINDS.has(order.kind) && latest.kind === order.kind);
    if (!moves) return;
    const from = latest.finalize_at ?? latest.created_at;
    this.stmt('INSERT OR IGNORE INTO scenario_chargebacks (order_id, merchant, due_at) VALUES (?, ?, ?)').run(
      order.id,
      order.merchant,
      from + delayOf(pick),
    );
  }

  private anyDue(now: number): boolean {
    return (
      this.stmt('SELECT EXISTS (SELECT 1 FROM scenario_chargebacks WHERE due_at IS NOT NULL AND due_at <= ?)')
        .pluck()
        .get(now) === 1
    );
  }

  /**
   * Charges back the orders due at `now`: only an order whose money did move (the transaction
   * approved) and still has some left; the others are dropped. Returns how many were made.
   */
  makeDue(x: EngineContext, now: number): number {
    if (x.store.isClosed || !this.anyDue(now)) return 0;
    return x.store.tx(() => {
      const due = this.stmt(
        'SELECT order_id FROM scenario_chargebacks WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT 50',
      )
        .pluck()
        .all(now) as number[];
      for (const id of due) {
        const made = this.chargeBack(x, id, now);
        this.stmt(
          'UPDATE scenario_chargebacks SET due_at = NULL, made_request_id = ? WHERE order_id = ?',
        ).run(made ?? null, id);
      }
      return due.length;
    });
  }

  private chargeBack(x: EngineContext, orderId: number, now: number): number | undefined {
    const order = x.store.orders.get(orderId);
    if (!order) return undefined;
    const requests = x.store.requests.of(orderId);
    const paid =
      order.kind === 'preauth'
        ? requests.some((r) => r.kind === 'capture' && r.status === 'approved')
          ? order.captured_minor
          : 0
        : requests[0]?.status === 'approved'
          ? order.amount_minor
          : 0;
    const left = paid - order.refunded_minor;
    if (left <= 0) return undefined;
    const request = x.store.requests.insert({
      ...newRequest(orderId, 'chargeback', left, order.currency, now),
      ...scheduled(x, APPROVE, now),
      finalize_at: now,
    });
    finalizeOrderDue(x, orderId, now);
    x.store.orders.update(orderId, { refunded_minor: order.refunded_minor + left });
    return request.id;
  }

  /** The merchant's earliest (`min`) or latest (`max`) chargeback due at or before `by` (the test clock). */
  deadline(fn: 'min' | 'max', login: string, by: number): number | undefined {
    const at = this.stmt(
      `SELECT ${fn}(due_at) FROM scenario_chargebacks WHERE merchant = ? AND due_at IS NOT NULL AND due_at <= ?`,
    )
      .pluck()
      .get(login, by) as number | null;
    return at ?? undefined;
  }

  /** Moves the merchant's chargebacks `ms` earlier (the test clock, in its transaction). */
  shift(login: string, ms: number): void {
    this.stmt(
      'UPDATE scenario_chargebacks SET due_at = due_at - ? WHERE merchant = ? AND due_at IS NOT NULL',
    ).run(ms, login);
  }
}
