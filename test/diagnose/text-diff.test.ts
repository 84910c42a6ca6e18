/**
 * The one diff every surface shows (debugger, the console's signature-mismatch view, teaching,
 * `paysign verify`): pairs first, then escape by escape, so percent-encoded text reads as escapes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTerms, diffAtoms, diffText, type DiffSegment } from '../../src/diagnose/index.ts';

const side = (segs: readonly DiffSegment[], op: 'removed' | 'added') =>
  segs
    .filter((s) => s.op === 'equal' || s.op === op)
    .map((s) => s.text)
    .join('');
const changes = (segs: readonly DiffSegment[]) => segs.filter((s) => s.op !== 'equal');

describe('diffText is token-aware for percent-encoded text', () => {
  it('%2520 against %2B: two escapes differing, not a shared "%2" and a soup of digits', () => {
    const ours = 'POST&http%3A%2F%2Fh%2Fp&a%3D1%26order_desc%3Dtwo%2520words%26z%3D9';
    const theirs = 'POST&http%3A%2F%2Fh%2Fp&a%3D1%26order_desc%3Dtwo%2Bwords%26z%3D9';
    expect(changes(diffText(ours, theirs))).toEqual([
      { op: 'removed', text: '%2520' },
      { op: 'added', text: '%2B' },
    ]);
  });

  it('+ against %20: one unit against one escape', () => {
    expect(changes(diffText('order_desc=two%20words&z=9', 'order_desc=two+words&z=9'))).toEqual([
      { op: 'removed', text: '%20' },
      { op: 'added', text: '+' },
    ]);
  });

  it('an escape in lowercase against uppercase differs as a whole escape', () => {
    expect(changes(diffText('url%3A%2F%2Fh', 'url%3a%2f%2fh'))).toEqual([
      { op: 'removed', text: '%3A%2F%2F' },
      { op: 'added', text: '%3a%2f%2f' },
    ]);
  });

  it('never cuts an escape at the edge of the common prefix or suffix', () => {
    for (const s of diffText('a%2520b', 'a%2Bb')) {
      const atoms = diffAtoms(s.text);
      expect(atoms.join('')).toBe(s.text);
      expect(s.text.endsWith('%2') || s.text.endsWith('%')).toBe(false);
    }
  });

  it('marks one changed digit of a base string', () => {
    expect(diffText('amount%3D10.42%26currency', 'amount%3D10.43%26currency')).toEqual([
      { op: 'equal', text: 'amount%3D10.4' },
      { op: 'removed', text: '2' },
      { op: 'added', text: '3' },
      { op: 'equal', text: '%26currency' },
    ]);
  });

  it('handles empty sides', () => {
    expect(diffText('', '')).toEqual([]);
    expect(diffText('abc', '')).toEqual([{ op: 'removed', text: 'abc' }]);
    expect(diffText('', 'xy')).toEqual([{ op: 'added', text: 'xy' }]);
  });

  it('rebuilds both texts, escapes kept whole in every segment (property)', () => {
    const unit = fc.constantFrom('a', 'b', '%', '2', '5', '0', 'B', '+', '&', '%20', '%2B', '%2520', '%26');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), fc.array(unit, { maxLength: 30 }), (x, y) => {
        const a = x.join('');
        const b = y.join('');
        const segs = diffText(a, b);
        expect(side(segs, 'removed')).toBe(a);
        expect(side(segs, 'added')).toBe(b);
        // No segment cuts an escape: the atoms of each side's segments are the atoms of that side.
        const atomsOf = (op: 'removed' | 'added') =>
          segs.filter((s) => s.op === 'equal' || s.op === op).flatMap((s) => diffAtoms(s.text));
        expect(atomsOf('removed')).toEqual(diffAtoms(a));
        expect(atomsOf('added')).toEqual(diffAtoms(b));
      }),
      { numRuns: 400 },
    );
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
