/**
 * The rulebook: one copy of every quoted rule, checked word for word against docs/spec; mistakes and
 * walkthroughs cite its entries by id.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MISTAKES, RULEBOOK, ruleById } from '../../src/diagnose/index.ts';
import { WALK_RULES } from '../../src/diagnose/walkthrough.ts';

const SPEC = resolve(import.meta.dirname, '../../docs/spec');

describe('the rulebook', () => {
  it('quotes every rule from api-description.md and gateway-notes.md word for word, under a heading that exists', () => {
    const text: Record<string, string> = {
      'api-description.md': readFileSync(join(SPEC, 'api-description.md'), 'utf8'),
      'gateway-notes.md': readFileSync(join(SPEC, 'gateway-notes.md'), 'utf8'),
    };
    const ids = RULEBOOK.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULEBOOK) {
      expect(r.schemes.length, r.id).toBeGreaterThan(0);
      const doc = text[r.document];
      if (!doc) continue; // RFCs are quoted from outside the repository
      const flat = doc.replace(/\s+/g, ' ');
      for (const part of r.quote.split(' … '))
        expect(flat, `${r.id}: ${part}`).toContain(part.replace(/\s+/g, ' '));
      const heading = r.section.split(' › ')[0]!.replace(/`/g, '');
      expect(flat.replace(/`/g, ''), `${r.id}: section ${r.section}`).toContain(heading);
    }
  });

  it('every mistake and walkthrough step cites the rulebook’s own entry (no private copy of a quote)', () => {
    for (const m of MISTAKES) for (const r of m.rules) expect(ruleById(r.id), `${m.id}: ${r.id}`).toBe(r);
    for (const [step, r] of Object.entries(WALK_RULES)) expect(ruleById(r.id), step).toBe(r);
  });

  it('every mistake has a rule of each scheme it applies to (the debugger quotes only the capture’s scheme)', () => {
    for (const m of MISTAKES)
      for (const s of m.schemes)
        expect(
          m.rules.some((r) => r.schemes.includes(s)),
          `${m.id} under ${s}`,
        ).toBe(true);
  });
});
