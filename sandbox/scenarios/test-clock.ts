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

/** What the test clock drives: the sandbox's sweep and callback delivery, awaited. */
export interface ClockDriver {
  now(): number;
  /** Finalises what is due and delivers every due callback, waiting for the deliveries. */
  settle(): Promise<void>;
}

/** The largest single advance: 60 days (a 14-day retry schedule fits four times). */
export const MAX_ADVANCE_MS = 60 * 86_400_000;

/**
 * A test clock per merchant. The sandbox keeps one time frame for every merchant (two processes
 * share the file, and the due sweep is one query over all merchants), so a merchant's clock is
 * advanced by moving that merchant's deadlines earlier: finalisations, callback attempts (retries,
 * held and dropped ones) and the 3-D Secure method window. The advance walks from deadline to
 * deadline, running each step's finalisations and deliveries and waiting for the handler's
 * answers, so a retry scheduled by a failed attempt is reached within the same advance: a 14-day
 * retry schedule runs in the time its deliveries take.
 */
export class TestClock {
  private readonly stmt: (sql: string) => Database.Statement;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    db: Database.Database,
    private readonly lab: ScenarioStore,
    private readonly driver: ClockDriver,
  ) {
    this.stmt = statementCache(db);
  }

  /** The merchant's next deadline, or undefined when nothing is scheduled. */
  nextDeadline(login: string): number | undefined {
    const row = this.stmt(
      `SELECT min(t) FROM (
         SELECT min(r.finalize_at) AS t FROM requests r JOIN orders o ON o.id = r.order_id
           WHERE o.merchant = ? AND r.finalize_at IS NOT NULL
         UNION ALL
         SELECT min(c.next_at) FROM callbacks c JOIN requests r ON r.id = c.request_id JOIN orders o ON o.id = r.order_id
           WHERE o.merchant = ? AND c.state = 'pending')`,
    )
      .pluck()
      .get(login, login) as number | null;
    return row ?? undefined;
  }

  private shift(login: string, ms: number): void {
    if (ms <= 0) return;
    this.stmt(
      `UPDATE requests SET finalize_at = finalize_at - ?
         WHERE finalize_at IS NOT NULL AND order_id IN (SELECT id FROM orders WHERE merchant = ?)`,
    ).run(ms, login);
    this.stmt(
      `UPDATE callbacks SET next_at = next_at - ?
         WHERE state = 'pending' AND request_id IN
           (SELECT r.id FROM requests r JOIN orders o ON o.id = r.order_id WHERE o.merchant = ?)`,
    ).run(ms, login);
    this.stmt(
      `UPDATE orders SET tds_started_at = tds_started_at - ?
         WHERE merchant = ? AND tds_started_at IS NOT NULL AND tds_stage = 'method'`,
    ).run(ms, login);
  }

  /** Advances one merchant's clock by `ms`; advances run one at a time. */
  advance(login: string, ms: number): Promise<ClockAdvance> {
    const run = this.queue.then(() => this.walk(login, ms));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async walk(login: string, ms: number): Promise<ClockAdvance> {
    let remaining = ms;
    let steps = 0;
    // Bounded: each step reaches a deadline, and attempts per callback are bounded.
    for (; steps < 10_000; steps++) {
      const next = this.nextDeadline(login);
      const wait = next === undefined ? Number.POSITIVE_INFINITY : Math.max(0, next - this.driver.now());
      if (wait > remaining) {
        this.shift(login, remaining);
        break;
      }
      this.shift(login, wait);
      remaining -= wait;
      await this.driver.settle();
      // No progress (another process holds that callback's claim): the rest of the advance at once.
      if (this.nextDeadline(login) === next! - wait) {
        this.shift(login, remaining);
        break;
      }
    }
    const total = this.lab.addClockAdvance(login, ms, this.driver.now());
    return { login, advancedMs: ms, totalAdvancedMs: total, steps };
  }
}
