import { describe, expect, it } from 'vitest';
import { addPeriods, chargeDueAt, firstChargeAfter, type Period } from '../../sandbox/recurring-calendar.ts';

/** An ISO text as epoch ms, and back: the cases below read as dates. */
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('addPeriods', () => {
  it.each<[from: string, period: Period, count: number, expected: string]>([
    // Days and weeks: exact 24-hour days (UTC has no daylight saving), across month and year ends.
    ['2031-01-31T09:30:00.000Z', 'day', 1, '2031-02-01T09:30:00.000Z'],
    ['2031-12-31T23:59:59.999Z', 'day', 1, '2032-01-01T23:59:59.999Z'],
    ['2032-02-28T00:00:00.000Z', 'day', 1, '2032-02-29T00:00:00.000Z'],
    ['2031-03-29T12:00:00.000Z', 'day', 3, '2031-04-01T12:00:00.000Z'],
    ['2031-01-31T09:30:00.000Z', 'week', 1, '2031-02-07T09:30:00.000Z'],
    ['2031-12-25T10:00:00.000Z', 'week', 2, '2032-01-08T10:00:00.000Z'],
    ['2032-02-22T00:00:00.000Z', 'week', 1, '2032-02-29T00:00:00.000Z'],
    // Months: the day clamped to the target month's last, the time of day kept.
    ['2031-01-31T09:30:00.000Z', 'month', 1, '2031-02-28T09:30:00.000Z'],
    ['2032-01-31T09:30:00.000Z', 'month', 1, '2032-02-29T09:30:00.000Z'],
    ['2031-01-31T09:30:00.000Z', 'month', 2, '2031-03-31T09:30:00.000Z'],
    ['2031-01-31T09:30:00.000Z', 'month', 3, '2031-04-30T09:30:00.000Z'],
    ['2031-03-31T00:00:00.000Z', 'month', 1, '2031-04-30T00:00:00.000Z'],
    ['2031-01-15T00:00:00.000Z', 'month', 1, '2031-02-15T00:00:00.000Z'],
    ['2031-11-30T18:00:00.000Z', 'month', 3, '2032-02-29T18:00:00.000Z'],
    ['2031-12-31T00:00:00.000Z', 'month', 1, '2032-01-31T00:00:00.000Z'],
    ['2031-08-31T00:00:00.000Z', 'month', 18, '2033-02-28T00:00:00.000Z'],
    // Years: 29 February to 28 February in a common year, back to the 29th four years on.
    ['2032-02-29T12:00:00.000Z', 'year', 1, '2033-02-28T12:00:00.000Z'],
    ['2032-02-29T12:00:00.000Z', 'year', 4, '2036-02-29T12:00:00.000Z'],
    ['2031-06-15T08:00:00.000Z', 'year', 1, '2032-06-15T08:00:00.000Z'],
    // 2100 is not a leap year (divisible by 100, not by 400); 2000 was.
    ['2096-02-29T00:00:00.000Z', 'year', 4, '2100-02-28T00:00:00.000Z'],
    ['1996-02-29T00:00:00.000Z', 'year', 4, '2000-02-29T00:00:00.000Z'],
  ])('%s + %s × %i = %s', (from, period, count, expected) => {
    expect(iso(addPeriods(at(from), period, count))).toBe(expected);
  });

  it('keeps a year below 100 as it is (Date.UTC would read 0031 as 1931)', () => {
    expect(iso(addPeriods(at('0031-01-31T00:00:00.000Z'), 'month', 1))).toBe('0031-02-28T00:00:00.000Z');
  });
});

describe('chargeDueAt', () => {
  it.each<[created: string, period: Period, interval: number, dates: string[]]>([
    // Every date reckoned from the start: a clamped month does not pull the later ones back.
    [
      '2031-01-31T09:30:00.000Z',
      'month',
      1,
      ['2031-02-28T09:30:00.000Z', '2031-03-31T09:30:00.000Z', '2031-04-30T09:30:00.000Z'],
    ],
    [
      '2032-01-31T00:00:00.000Z',
      'month',
      1,
      ['2032-02-29T00:00:00.000Z', '2032-03-31T00:00:00.000Z', '2032-04-30T00:00:00.000Z'],
    ],
    [
      '2031-10-31T00:00:00.000Z',
      'month',
      2,
      ['2031-12-31T00:00:00.000Z', '2032-02-29T00:00:00.000Z', '2032-04-30T00:00:00.000Z'],
    ],
    [
      '2031-01-01T00:00:00.000Z',
      'week',
      2,
      ['2031-01-15T00:00:00.000Z', '2031-01-29T00:00:00.000Z', '2031-02-12T00:00:00.000Z'],
    ],
    [
      '2032-02-29T00:00:00.000Z',
      'year',
      1,
      ['2033-02-28T00:00:00.000Z', '2034-02-28T00:00:00.000Z', '2035-02-28T00:00:00.000Z'],
    ],
  ])('%s every %s × %i: charges 1 to 3', (created, period, interval, dates) => {
    expect([1, 2, 3].map((n) => iso(chargeDueAt(at(created), period, interval, n)))).toEqual(dates);
  });
});

describe('firstChargeAfter', () => {
  it.each<[created: string, period: Period, interval: number, now: string, n: number]>([
    ['2031-01-31T00:00:00.000Z', 'month', 1, '2031-01-31T00:00:00.000Z', 1],
    ['2031-01-31T00:00:00.000Z', 'month', 1, '2031-02-28T00:00:00.000Z', 2],
    ['2031-01-31T00:00:00.000Z', 'month', 1, '2031-02-27T23:59:59.999Z', 1],
    ['2031-01-31T00:00:00.000Z', 'month', 1, '2033-06-01T00:00:00.000Z', 29],
    ['2031-01-01T00:00:00.000Z', 'day', 1, '2031-12-31T12:00:00.000Z', 365],
    ['2031-01-01T00:00:00.000Z', 'week', 3, '2031-03-01T00:00:00.000Z', 3],
    ['2032-02-29T00:00:00.000Z', 'year', 1, '2040-03-01T00:00:00.000Z', 9],
  ])('%s every %s × %i, at %s: charge %i is next', (created, period, interval, now, n) => {
    const next = firstChargeAfter(at(created), period, interval, at(now));
    expect(next).toBe(n);
    expect(chargeDueAt(at(created), period, interval, next)).toBeGreaterThan(at(now));
    if (next > 1) expect(chargeDueAt(at(created), period, interval, next - 1)).toBeLessThanOrEqual(at(now));
  });
});
