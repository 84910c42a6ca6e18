import type Database from 'better-sqlite3';
import { statementCache } from '../sqlite.ts';
import type { ScenarioStore } from './scenario-store.ts';

/** What advancing a merchant's clock did. */
export interface ClockAdvance {
  login: string;
  advancedMs: number;
  /** How far this merchant's clock has been advanced in all. */
  totalAdvancedMs: number;
  /** Steps taken: each one a deadline reached, its finalisations and callbacks run. */
  steps: number;
}

/** What the test clock drives: the sandbox's sweep and callback delivery (sandbox/scheduler.ts). */
export interface ClockDriver {
  now(): number;
  /** Finalises what is due and starts every due delivery, waiting only for a free slot. */
  dispatch(): Promise<void>;
  /** Waits until no delivery is in flight. */
  drain(): Promise<void>;
  /** How many deliveries are in flight. */
  inFlight(): number;
  /** Told of every shift, so a delivery in flight dates its retry in the merchant's time. */
  shifted(login: string, ms: number): void;
  /**
   * The scheduler's own granularity (its timer's period): deadlines this close to the next one are
   * reached in the same step, as the timer would find them due together.
   */
  stepMs: number;
  /** The shortest delay a delivery in flight can set before its own next attempt (the first retry). */
  minGapMs: number;
}

/**
 * The recurring payments' schedules (sandbox/store/recurring-schedules.ts, engine/recurring-charges.ts): their
 * next charges are deadlines of the merchant's like the others, read and moved with them.
 */
export interface ClockSchedules {
  /** The merchant's earliest (`min`) or latest (`max`) next charge at or before `by`. */
  deadline(fn: 'min' | 'max', login: string, by: number): number | undefined;
  /** Moves the merchant's next charges `ms` earlier (in the clock's transaction). */
  shift(login: string, ms: number): void;
  /** Runs one advance of the merchant's clock, counting its schedules' charges (the cap per advance). */
  during<T>(login: string, run: () => Promise<T>): Promise<T>;
}

/**
 * The largest single advance: 366 days, so a yearly schedule's next charge (or three monthly ones)
 * is reached in one advance; a 14-day retry schedule fits many times over.
 */
export const MAX_ADVANCE_MS = 366 * 86_400_000;

const combine = (fn: 'min' | 'max', a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math[fn](a, b);

/**
 * A test clock per merchant. The sandbox keeps one time frame for every merchant (two processes
 * share the file, and the due sweep is one query over all merchants), so a merchant's clock is
 * advanced by moving that merchant's deadlines earlier: finalisations, callback attempts (retries,
 * held and dropped ones), recurring payments' next charges and the 3-D Secure method window. The
 * advance walks from deadline to deadline, running each step's charges, finalisations and
 * deliveries and waiting for the handler's answers, so a retry scheduled by a failed attempt is
 * reached within the same advance: a 14-day retry schedule runs in the time its deliveries take.
 */
export class TestClock {
  private readonly stmt: (sql: string) => Database.Statement;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database.Database,
    private readonly lab: ScenarioStore,
    private readonly driver: ClockDriver,
    private readonly schedules: ClockSchedules,
  ) {
    this.stmt = statementCache(db);
  }

  /**
   * The merchant's next deadline (a finalisation, a callback attempt, a recurring charge), or
   * undefined when nothing is scheduled (callbacks in flight aside).
   */
  nextDeadline(login: string): number | undefined {
    return this.deadline('min', login, Number.MAX_SAFE_INTEGER);
  }

  /** The merchant's earliest (`min`) or latest (`max`) deadline at or before `by`. */
  private deadline(fn: 'min' | 'max', login: string, by: number): number | undefined {
    const row = this.stmt(
      // Driven from the pending rows (their partial indexes), never from the merchant's orders:
      // those grow with every order ever made, the pending ones do not.
      `SELECT ${fn}(t) FROM (
         SELECT ${fn}(r.finalize_at) AS t FROM requests r CROSS JOIN orders o ON o.id = r.order_id
           WHERE r.finalize_at IS NOT NULL AND r.finalize_at <= ? AND o.merchant = ?
         UNION ALL
         SELECT ${fn}(c.next_at) FROM callbacks c JOIN requests r ON r.id = c.request_id JOIN orders o ON o.id = r.order_id
           WHERE o.merchant = ? AND c.state = 'pending' AND c.next_at <= ?
             AND (c.lease_until IS NULL OR c.lease_until <= ?))`,
    )
      .pluck()
      .get(by, login, login, by, this.driver.now()) as number | null;
    return combine(fn, row ?? undefined, this.schedules.deadline(fn, login, by));
  }

  private shift(login: string, ms: number): void {
    if (ms > 0) this.shiftAll(login, ms);
  }

  /** Both moves in one transaction (a savepoint of the group commit when one is open). */
  private readonly shiftAll = (login: string, ms: number): void =>
    this.db.transaction(() => this.shiftRows(login, ms))();

  private shiftRows(login: string, ms: number): void {
    // Pending rows first, their merchant looked up per row (as in `deadline`).
    this.stmt(
      `UPDATE requests SET finalize_at = finalize_at - ?
         WHERE finalize_at IS NOT NULL AND (SELECT merchant FROM orders WHERE id = order_id) = ?`,
    ).run(ms, login);
    this.stmt(
      `UPDATE callbacks SET next_at = next_at - ?
         WHERE state = 'pending' AND (SELECT o.merchant FROM requests r JOIN orders o ON o.id = r.order_id
           WHERE r.id = request_id) = ?`,
    ).run(ms, login);
    this.schedules.shift(login, ms);
  }

  /**
   * The 3-D Secure method windows: read by requests only, never a deadline of the walk, so moved
   * once per advance (a walk over the merchant's orders, not over pending rows).
   */
  private shiftMethodWindows(login: string, ms: number): void {
    this.stmt(
      `UPDATE orders SET tds_started_at = tds_started_at - ?
         WHERE merchant = ? AND tds_started_at IS NOT NULL AND tds_stage = 'method'`,
    ).run(ms, login);
  }

  /** Advances one merchant's clock by `ms`; advances run one at a time. */
  advance(login: string, ms: number): Promise<ClockAdvance> {
    const run = this.queue.then(() => this.schedules.during(login, () => this.walk(login, ms)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Deadline to deadline. A step does not wait for the deliveries of the steps before it (a fan-out
   * of thousands of callbacks keeps the handler busy, instead of one step's worth at a time), as
   * long as the merchant's time stays within `minGapMs` of the oldest step still in flight: a
   * delivery's retry comes at least that long after it (dated in the merchant's time, see
   * `ClockDriver.shifted`), so no retry can fall due behind a step already taken. Past that, and
   * before the advance ends, the deliveries are waited for.
   */
  private async walk(login: string, ms: number): Promise<ClockAdvance> {
    const d = this.driver;
    let remaining = ms;
    let steps = 0;
    /** The merchant's time when the oldest step whose deliveries may be in flight was taken. */
    let oldest: number | undefined;
    const merchantNow = () => d.now() + (ms - remaining);
    this.shiftMethodWindows(login, ms);
    // Bounded: each step reaches a deadline, and attempts per callback are bounded.
    for (let turns = 0; turns < 20_000; turns++) {
      const next = this.nextDeadline(login);
      const wait = next === undefined ? Number.POSITIVE_INFINITY : Math.max(0, next - d.now());
      // Deadlines within one scheduler period of the next are reached together: a burst of sales
      // made over a few seconds is one step, not one per millisecond.
      const last = next === undefined ? next : (this.deadline('max', login, next + d.stepMs) ?? next);
      const step = last === undefined ? wait : Math.min(remaining, Math.max(wait, last - d.now()));
      const tooFar = oldest !== undefined && merchantNow() + step - oldest >= d.minGapMs;
      if (wait > remaining || tooFar) {
        if (d.inFlight() > 0) {
          // Their retries (or the rest of this advance) depend on their answers.
          await d.drain();
          oldest = undefined;
          continue;
        }
        if (wait > remaining) {
          this.shift(login, remaining);
          d.shifted(login, remaining);
          break;
        }
      }
      this.shift(login, step);
      d.shifted(login, step);
      remaining -= step;
      steps++;
      oldest ??= merchantNow();
      await d.dispatch();
      // No progress (another process holds that callback's claim): the rest of the advance at once.
      if (d.inFlight() === 0 && this.nextDeadline(login) === next! - step) {
        this.shift(login, remaining);
        d.shifted(login, remaining);
        break;
      }
    }
    const total = this.lab.addClockAdvance(login, ms, d.now());
    return { login, advancedMs: ms, totalAdvancedMs: total, steps };
  }
}
