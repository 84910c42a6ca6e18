import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../../src/catalog/scenarios.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const doc = readFileSync(resolve(ROOT, 'docs/scenarios.md'), 'utf8');
// Sources wrap their lines: compare with runs of white space as one space.
const flat = (text: string) => text.replace(/\s+/g, ' ');
const spec = {
  'api-description.md': flat(readFileSync(resolve(ROOT, 'docs/spec/api-description.md'), 'utf8')),
  'gateway-notes.md': flat(readFileSync(resolve(ROOT, 'docs/spec/gateway-notes.md'), 'utf8')),
};

describe('docs/scenarios.md and the scenario table', () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))('documents %s with its rule', (name, s) => {
    expect(doc).toContain(`### \`${name}\`: ${s.title}`);
    expect(doc).toContain(s.merchant);
    expect(doc).toContain(s.rule.quote);
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('quotes the source verbatim for %s', (_name, s) => {
    expect(spec[s.rule.source]).toContain(flat(s.rule.quote));
  });
});
