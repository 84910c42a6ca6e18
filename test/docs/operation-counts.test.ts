/** The operation counts the docs state come from the catalog: a new operation moves them all. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/catalog/index.ts';

const DOCS = ['README.md', 'docs/console.md', 'src/cli/README.md'];

describe.each(DOCS)('%s', (file) => {
  it(`states the catalog's number of operations`, () => {
    const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    // "the 30 operations", "all 30\noperations": a count written before the word.
    const counts = [...text.matchAll(/\b(\d+)\s+operations\b/g)].map((m) => Number(m[1]));
    expect(counts.length, `${file} states a count`).toBeGreaterThan(0);
    expect(counts).toEqual(counts.map(() => OPERATIONS.length));
  });
});
