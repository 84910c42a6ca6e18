/**
 * MistakeId is read from the mistakes table (issue 29): every id of the table is one, and a name
 * not in it fails `tsc` (the @ts-expect-error below breaks the typecheck if MistakeId widened to
 * string or lost an entry's literal).
 */
import { describe, expect, it } from 'vitest';
import { MISTAKES, mistakeById, type MistakeId } from '../../src/diagnose/mistakes.ts';

describe('MistakeId', () => {
  it('is every id of the table, each found by mistakeById', () => {
    const ids: MistakeId[] = MISTAKES.map((m) => m.id);
    expect(new Set(ids).size).toBe(MISTAKES.length);
    for (const id of ids) expect(mistakeById(id).id).toBe(id);
    const known: MistakeId = 'amount-major-units';
    expect(ids).toContain(known);
  });

  it('refuses a name the table does not have, at compile time', () => {
    // @ts-expect-error 'amount-in-major-units' is no id of the table.
    const misspelt: MistakeId = 'amount-in-major-units';
    expect(() => mistakeById(misspelt)).toThrow('unknown mistake id');
  });
});
