import type Database from 'better-sqlite3';
import { chargeDueAt, firstChargeAfter, isPeriod } from '../recurring-calendar.ts';
import { limitClause, statementCache } from '../sqlite.ts';

/**
 * The schedules of recurring payments. The table itself, `recurring_payments`, is `recurring.ts`'s
 * (created with the store's schema, a row per create-recurring-payment); the columns of the
 * schedule are added here, guarded, to a file of any age, and the charges made are kept in a table
 * of this file's own, so the store's schema version and its migrations stay untouched.
 */
export type ScheduleStatus = 'active' | 'stopped';

export interface RecurringRow {
  id: number;
  merchant: string;
  /** The create-recurring-payment order. */
  order_id: number;
  card_type: string;
  amount_minor: number;
  currency: string;
  period: string;
  interval: number;
  /**
   * When the subscription was made, in the merchant's time (the sandbox's clock plus the
   * merchant's test-clock advance then; a row made before the schedules existed, the sandbox's
   * clock): charge n falls due `created_at + n × interval` periods.
   */
  created_at: number;
  status: ScheduleStatus;
  /**
   * When charge `next_charge_no` falls due, in the sandbox's time: the test clock moves it earlier
   * with the merchant's other deadlines. Null once stopped.
   */
  next_charge_at: number | null;
  /** Which charge of the schedule is next: n is due `created_at + n × interval` periods. */
  next_charge_no: number;
  charges_made: number;
}

/** One charge made, with its order (read for the lab's view). */
export interface ChargeView {
  order_id: number;
  charge_no: number;
  /** The schedule's date for it (`created_at + n × interval` periods, the merchant's time). */
  due_at: number;
  client_orderid: string;
  status: string;
}

/**
 * The schedule's columns of `recurring_payments`, its indexes (the due sweep over every merchant
 * and each merchant's deadline, through partial indexes of the active schedules; the lab's list by
 * merchant) and `recurring_charges` (which order is which charge of which schedule, its primary key
 * the order's id: nothing deletes an order) are made by the store's schema (schema.ts, migration 3).
 */
export class RecurringStore {
  private readonly stmt: (sql: string) => Database.Statement;

  /** `now`: the sandbox's clock, for the schedules of rows made before this file had any. */
  constructor(
    private readonly db: Database.Database,
    now: number,
  ) {
    this.stmt = statementCache(db);
    // Under the write lock: two processes may open one file at once. The schema's migration marks a
    // file whose subscriptions predate the schedules; they are dated here, with the sandbox's clock.
    db.transaction(() => {
      const marked = db.prepare("DELETE FROM meta WHERE key = 'recurring_unscheduled'").run().changes > 0;
      if (marked) this.scheduleOlderRows(now);
    }).immediate();
  }

  /**
   * Subscriptions stored before the sandbox charged any: each starts at its first due date after
   * `now` (the periods that passed are not charged after the fact); a row whose period or interval
   * the schedule cannot read is stopped.
   */
  private scheduleOlderRows(now: number): void {
    const rows = this.db
      .prepare('SELECT id, period, interval, created_at FROM recurring_payments')
      .all() as Array<Pick<RecurringRow, 'id' | 'period' | 'interval' | 'created_at'>>;
    const set = this.db.prepare(
      'UPDATE recurring_payments SET next_charge_at = ?, next_charge_no = ?, status = ? WHERE id = ?',
    );
    for (const r of rows) {
      if (!isPeriod(r.period) || !Number.isSafeInteger(r.interval) || r.interval < 1) {
        set.run(null, 1, 'stopped', r.id);
        continue;
      }
      const n = firstChargeAfter(r.created_at, r.period, r.interval, now);
      set.run(chargeDueAt(r.created_at, r.period, r.interval, n), n, 'active', r.id);
    }
  }

  /** Starts a new subscription's schedule: its first charge falls due at `firstDueAt`. */
  start(id: number, firstDueAt: number): void {
    this.stmt(
      `UPDATE recurring_payments SET status = 'active', next_charge_at = ?, next_charge_no = 1, charges_made = 0 WHERE id = ?`,
    ).run(firstDueAt, id);
  }

  /** Whether some schedule is due at `now` (spares the sweep its write transaction otherwise). */
  anyDue(now: number): boolean {
    return (
      this.stmt(
        `SELECT EXISTS (SELECT 1 FROM recurring_payments WHERE status = 'active' AND next_charge_at <= ?)`,
      )
        .pluck()
        .get(now) === 1
    );
  }

  /** Active schedules due at `now`, the earliest first. */
  due(now: number, limit: number): RecurringRow[] {
    return this.stmt(
      `SELECT * FROM recurring_payments WHERE status = 'active' AND next_charge_at <= ?
         ORDER BY next_charge_at, id ${limitClause(limit)}`,
    ).all(now) as RecurringRow[];
  }

  get(id: number): RecurringRow | undefined {
    return this.stmt('SELECT * FROM recurring_payments WHERE id = ?').get(id) as RecurringRow | undefined;
  }

  /** Where a schedule stands after a sweep: its next charge, the charges made, active or stopped. */
  update(
    id: number,
    s: Pick<RecurringRow, 'status' | 'next_charge_at' | 'next_charge_no' | 'charges_made'>,
  ): void {
    this.stmt(
      'UPDATE recurring_payments SET status = ?, next_charge_at = ?, next_charge_no = ?, charges_made = ? WHERE id = ?',
    ).run(s.status, s.next_charge_at, s.next_charge_no, s.charges_made, id);
  }

  recordCharge(orderId: number, recurringId: number, chargeNo: number, dueAt: number): void {
    this.stmt(
      'INSERT INTO recurring_charges (order_id, recurring_id, charge_no, due_at) VALUES (?, ?, ?, ?)',
    ).run(orderId, recurringId, chargeNo, dueAt);
  }

  /** The merchant's earliest (`min`) or latest (`max`) next charge at or before `by` (the test clock). */
  deadline(fn: 'min' | 'max', login: string, by: number): number | undefined {
    const at = this.stmt(
      `SELECT ${fn}(next_charge_at) FROM recurring_payments
         WHERE merchant = ? AND status = 'active' AND next_charge_at <= ?`,
    )
      .pluck()
      .get(login, by) as number | null;
    return at ?? undefined;
  }

  /** Moves the merchant's next charges `ms` earlier (the test clock, in its transaction). */
  shift(login: string, ms: number): void {
    this.stmt(
      `UPDATE recurring_payments SET next_charge_at = next_charge_at - ?
         WHERE merchant = ? AND status = 'active' AND next_charge_at IS NOT NULL`,
    ).run(ms, login);
  }

  /** The merchant's schedules, the newest first. */
  ofMerchant(login: string, limit: number): RecurringRow[] {
    return this.stmt(
      `SELECT * FROM recurring_payments WHERE merchant = ? ORDER BY id DESC ${limitClause(limit)}`,
    ).all(login) as RecurringRow[];
  }

  /** A schedule's charges, the latest first, each with its order's merchant id and latest status. */
  chargesOf(recurringId: number, limit: number): ChargeView[] {
    return this.stmt(
      `SELECT c.order_id, c.charge_no, c.due_at, o.client_orderid,
              (SELECT r.status FROM requests r WHERE r.order_id = c.order_id ORDER BY r.id DESC LIMIT 1) AS status
         FROM recurring_charges c JOIN orders o ON o.id = c.order_id
         WHERE c.recurring_id = ? ORDER BY c.charge_no DESC ${limitClause(limit)}`,
    ).all(recurringId) as ChargeView[];
  }
}
