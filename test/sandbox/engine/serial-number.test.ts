import { describe, expect, it } from 'vitest';
import { newSerial } from '../../../sandbox/engine/orders.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request serial numbers', () => {
  it('are UUIDs in the time-ordered layout, carrying the millisecond they were made in', () => {
    const at = Date.UTC(2026, 10, 24, 12, 0, 0);
    const s = newSerial(at);
    expect(s).toMatch(V7);
    expect(parseInt(s.slice(0, 8) + s.slice(9, 13), 16)).toBe(at);
  });

  it('sort in the order they were made, within a millisecond and across a clock that stands still', () => {
    // 10,000 serials at one fixed time: more than the 4,096 a millisecond's sequence holds.
    const at = Date.UTC(2027, 0, 1);
    const made = Array.from({ length: 10_000 }, () => newSerial(at));
    made.push(newSerial(at + 1), newSerial(at - 5_000));
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    for (const s of made) expect(s).toMatch(V7);
  });
});
