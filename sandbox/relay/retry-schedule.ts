/**
 * When an unanswered callback is sent again. The gateway "retries 30 times for 14 days applying the
 * progressive timeline" (gateway-notes.md, "What the vendor's live clients also rely on"); the
 * spacing is not published, so the sandbox's is this one table, read by the relay, the test
 * clock and docs/scenarios.md (test/sandbox/retry-schedule.test.ts keeps the docs in step).
 * The `fast` schedule (a few attempts within seconds, doubling) is the explicit local option.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * The gateway schedule: the wait after each failed attempt, the first attempt's first. 29 waits for
 * 30 attempts; they never shrink (progressive), and the 30th attempt falls 14 days after the first:
 * minutes while a handler is restarted, hours through a day's outage, then twice a day, then daily.
 */
export const GATEWAY_RETRY_WAITS_MS: readonly number[] = [
  1 * MIN,
  4 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  4 * HOUR,
  6 * HOUR,
  6 * HOUR,
  ...Array<number>(10).fill(12 * HOUR),
  ...Array<number>(8).fill(1 * DAY),
];

/** `gateway`: the table above (the default); `fast`: `attempts` in all, waits doubling from `baseDelayMs`. */
export type CallbackSchedule = 'gateway' | 'fast';

export interface CallbackRetryOptions {
  schedule: CallbackSchedule;
  /** Attempts in all, the first included (the gateway schedule's: 30). */
  attempts: number;
  /** The wait before the first retry (the gateway schedule's: 1 minute); `fast` doubles it after each failure. */
  baseDelayMs: number;
}

export const GATEWAY_RETRY: CallbackRetryOptions = {
  schedule: 'gateway',
  attempts: GATEWAY_RETRY_WAITS_MS.length + 1,
  baseDelayMs: GATEWAY_RETRY_WAITS_MS[0]!,
};

/** The fast local schedule's defaults: the sandbox's schedule before issue 28 (8 attempts, about two minutes). */
export const FAST_RETRY_DEFAULTS = { attempts: 8, baseDelayMs: 1000 } as const;

/**
 * The wait after the `failed`-th failed attempt (1 for the first), or undefined when that was the
 * last attempt of the schedule.
 */
export function retryWaitMs(retry: CallbackRetryOptions, failed: number): number | undefined {
  if (failed >= retry.attempts) return undefined;
  if (retry.schedule === 'gateway') return GATEWAY_RETRY_WAITS_MS[failed - 1];
  return retry.baseDelayMs * 2 ** (failed - 1);
}

/** A wait as the docs write it: `1 min`, `12 h`, `1 day`. */
function spell(ms: number): string {
  if (ms % DAY === 0) return ms === DAY ? '1 day' : `${ms / DAY} days`;
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  return `${ms / MIN} min`;
}

/** When an attempt falls, after the first, as the docs write it: `3 days 12 h`, `1 h 2 min`. */
function spellAt(ms: number): string {
  if (ms === 0) return '0';
  const parts: string[] = [];
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.round((ms % HOUR) / MIN);
  if (days) parts.push(days === 1 ? '1 day' : `${days} days`);
  if (hours) parts.push(`${hours} h`);
  if (minutes) parts.push(`${minutes} min`);
  return parts.join(' ');
}

/** The gateway schedule as docs/scenarios.md prints it (a test keeps the docs in sync). */
export function renderRetryTable(): string {
  const rows: string[][] = [['1', '0', '(the first attempt, when the transaction is final)']];
  let at = 0;
  GATEWAY_RETRY_WAITS_MS.forEach((wait, i) => {
    at += wait;
    rows.push([String(i + 2), spellAt(at), spell(wait)]);
  });
  const head = ['Attempt', 'After the first', 'Wait before it'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
