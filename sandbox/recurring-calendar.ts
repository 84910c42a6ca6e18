/**
 * The calendar of a recurring payment's schedule (create-recurring-payment's `period` and
 * `interval`): pure arithmetic on epoch milliseconds, in UTC. Read by the schedule's table
 * (sandbox/store/recurring-schedules.ts) and the charges (sandbox/engine/recurring-charges.ts).
 */

/** The periods a schedule counts in: the catalog's options for `period`. */
export const PERIODS = ['day', 'week', 'month', 'year'] as const;
export type Period = (typeof PERIODS)[number];

export function isPeriod(value: string): value is Period {
  return (PERIODS as readonly string[]).includes(value);
}

const DAY_MS = 86_400_000;

/** Midnight UTC of a date; months past 11 (or days past the month's end) roll over, as in `Date.UTC`. */
function utcMidnight(year: number, month: number, day: number): number {
  // Not Date.UTC, which reads the years 0–99 as 1900–1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  return d.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcMidnight(year, month + 1, 0)).getUTCDate();
}

function addMonths(at: number, months: number): number {
  const d = new Date(at);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  const timeOfDay = at - utcMidnight(year, month, d.getUTCDate());
  const target = year * 12 + month + months;
  const targetYear = Math.floor(target / 12);
  const targetMonth = target - targetYear * 12;
  const day = Math.min(d.getUTCDate(), daysInMonth(targetYear, targetMonth));
  return utcMidnight(targetYear, targetMonth, day) + timeOfDay;
}

/**
 * `at` plus `count` periods, in UTC. Days and weeks are exact (24 h: UTC has no daylight saving);
 * months and years are calendar ones, the day of the month clamped to the target month's last
 * (31 January + 1 month = 28 February, 29 in a leap year; 29 February + 1 year = 28 February). The
 * time of day is kept.
 */
export function addPeriods(at: number, period: Period, count: number): number {
  switch (period) {
    case 'day':
      return at + count * DAY_MS;
    case 'week':
      return at + count * 7 * DAY_MS;
    case 'month':
      return addMonths(at, count);
    case 'year':
      return addMonths(at, 12 * count);
  }
}

/**
 * When charge `n` (1, 2, …) of a schedule falls due: `createdAt + n × interval` periods, each
 * reckoned from `createdAt` (never from the charge before it), so a clamped month does not shift
 * the ones after it: 31 January, then 28 February, 31 March, 30 April.
 */
export function chargeDueAt(createdAt: number, period: Period, interval: number, n: number): number {
  return addPeriods(createdAt, period, interval * n);
}

/** The longest a period can be, for a first guess at how many have passed. */
const LONGEST_MS: Record<Period, number> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 31 * DAY_MS,
  year: 366 * DAY_MS,
};

/** The number of the first charge due after `now` (1 when none has passed). */
export function firstChargeAfter(createdAt: number, period: Period, interval: number, now: number): number {
  // An estimate that never overshoots (periods taken at their longest), then forward.
  let n = Math.max(1, Math.floor((now - createdAt) / (interval * LONGEST_MS[period])));
  while (chargeDueAt(createdAt, period, interval, n) <= now) n++;
  return n;
}
