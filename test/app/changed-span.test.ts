/** The minimal replacement the raw-HTTP view applies to its Monaco model on each keystroke. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedSpan } from '../../src/ui/changed-span.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'b', '=', '&', '\r', '\n', '\r\n', 'é'), maxLength: 40 });

describe('changedSpan', () => {
  it('replacing prev[start, endPrev) with next[start, endNext) gives next, and never splits a CRLF', () => {
    fc.assert(
      fc.property(text, text, (prev, next) => {
        const span = changedSpan(prev, next);
        if (prev === next) {
          expect(span).toBeNull();
          return;
        }
        const { start, endPrev, endNext } = span!;
        expect(prev.slice(0, start) + next.slice(start, endNext) + prev.slice(endPrev)).toBe(next);
        for (const [s, at] of [
          [prev, start],
          [prev, endPrev],
          [next, start],
          [next, endNext],
        ] as const)
          expect(s[at - 1] === '\r' && s[at] === '\n').toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('one keystroke in a raw request touches only what changed', () => {
    const prev = 'POST /a HTTP/1.1\r\nContent-Length: 9\r\n\r\na=1&b=xyz';
    const next = 'POST /a HTTP/1.1\r\nContent-Length: 10\r\n\r\na=1&b=xyzq';
    const span = changedSpan(prev, next)!;
    expect(prev.slice(span.start, span.endPrev)).toBe('9\r\n\r\na=1&b=xyz');
    expect(next.slice(span.start, span.endNext)).toBe('10\r\n\r\na=1&b=xyzq');
    expect(changedSpan('x\r\ny', 'x\r\n\r\ny')).toEqual({ start: 3, endPrev: 3, endNext: 5 });
  });
});
