import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTerms, diffChars } from '../../src/features/console/diff.ts';

/** Length of the longest common subsequence, by the textbook dynamic programme (independent of Myers). */
function lcs(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return dp[a.length]![b.length]!;
}

const side = (parts: ReturnType<typeof diffChars>, k: 'ours' | 'theirs') =>
  parts
    .filter((p) => p.kind === 'same' || p.kind === k)
    .map((p) => p.text)
    .join('');

describe('diffChars', () => {
  it('marks one changed term of a base string', () => {
    const parts = diffChars('amount%3D10.42%26currency', 'amount%3D10.43%26currency');
    expect(parts).toEqual([
      { kind: 'same', text: 'amount%3D10.4' },
      { kind: 'ours', text: '2' },
      { kind: 'theirs', text: '3' },
      { kind: 'same', text: '%26currency' },
    ]);
  });

  it('handles empty sides', () => {
    expect(diffChars('', '')).toEqual([]);
    expect(diffChars('abc', '')).toEqual([{ kind: 'ours', text: 'abc' }]);
    expect(diffChars('', 'xy')).toEqual([{ kind: 'theirs', text: 'xy' }]);
  });

  it('rebuilds both strings and is minimal (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40, unit: fc.constantFrom('a', 'b', 'c', '%', '2') }),
        fc.string({ maxLength: 40, unit: fc.constantFrom('a', 'b', 'c', '%', '2') }),
        (a, b) => {
          const parts = diffChars(a, b);
          expect(side(parts, 'ours')).toBe(a);
          expect(side(parts, 'theirs')).toBe(b);
          const same = parts.filter((p) => p.kind === 'same').reduce((n, p) => n + p.text.length, 0);
          expect(same).toBe(lcs(a, b));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('falls back to one replaced middle beyond the edit budget, still rebuilding both sides', () => {
    const a = 'x'.repeat(10) + 'abcdefgh' + 'y'.repeat(5);
    const b = 'x'.repeat(10) + 'hgfedcba' + 'y'.repeat(5);
    const parts = diffChars(a, b, 2);
    expect(side(parts, 'ours')).toBe(a);
    expect(side(parts, 'theirs')).toBe(b);
  });
});

describe('compareTerms', () => {
  it('flags the differing term and extra terms', () => {
    const rows = compareTerms(
      [
        { label: 'endpointId', value: '1111' },
        { label: 'amount', value: '1042' },
      ],
      [
        { label: 'endpointId', value: '1111' },
        { label: 'amount', value: '1043' },
        { label: 'email', value: 'a@b.c' },
      ],
    );
    expect(rows.map((r) => r.same)).toEqual([true, false, false]);
    expect(rows[2]!.ours).toBeUndefined();
  });
});
