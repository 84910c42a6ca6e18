import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzyMatch, rankItems } from '../../src/app/fuzzy-match.ts';

describe('command palette fuzzy matching', () => {
  it('matches letters in order with gaps, every word of the query', () => {
    expect(fuzzyMatch('v2s', 'v2/sale')?.positions).toEqual([0, 1, 3]);
    expect(fuzzyMatch('payout chk', 'Payout check v4/payout-check')).not.toBeNull();
    expect(fuzzyMatch('slae', 'Sale')).toBeNull();
    expect(fuzzyMatch('sale zzz', 'Sale')).toBeNull();
  });

  it('ranks a word-start hit above a hit inside a word, and the shorter text first', () => {
    const items = ['Resale report', 'Sale form', 'Sale'];
    expect(rankItems(items, 'sale', (s) => s)).toEqual(['Sale', 'Sale form', 'Resale report']);
    expect(rankItems(['Payout', 'History'], 'histry', (s) => s)).toEqual(['History']);
  });

  it('an empty query keeps every item in its order', () => {
    expect(rankItems(['b', 'a', 'c'], '  ', (s) => s)).toEqual(['b', 'a', 'c']);
  });

  it('every match position points at the query letter, in order (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ minLength: 1, maxLength: 5 }), (text, query) => {
        const m = fuzzyMatch(query, text);
        if (!m) return;
        for (const p of m.positions) expect(query.toLowerCase()).toContain(text[p]!.toLowerCase());
        expect([...m.positions].sort((a, b) => a - b)).toEqual(m.positions);
      }),
    );
  });

  it('a text always matches itself and any of its subsequences', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9/-]{1,20}$/),
        fc.array(fc.boolean(), { maxLength: 20 }),
        (text, keep) => {
          const sub = [...text].filter((_, i) => keep[i] ?? true).join('');
          expect(fuzzyMatch(text, text)).not.toBeNull();
          if (sub !== '') expect(fuzzyMatch(sub, text)).not.toBeNull();
        },
      ),
    );
  });
});
