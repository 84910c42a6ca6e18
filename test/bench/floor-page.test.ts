import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { floorPageHtml } from '../../bench/lib/floor-page.ts';

/** The console is measured against this page: it must stay as lean as a hand-written page can be. */
describe('the floor page (bench/lib/floor-page.ts)', () => {
  const html = floorPageHtml();

  it('has one inline classic script and nothing to fetch, no style', () => {
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toEqual(['<script>']);
    expect(html).not.toMatch(/<link\b|<style\b|<img\b|<iframe\b|\bsrc=|\bhref=|\bstyle=|@import/);
  });

  it("has the sale's inputs, browser fields aside, each labelled, and the signature line", () => {
    const op = findOperation('v2/sale');
    const names = op!.fields.filter((f) => !f.name.startsWith('browser')).map((f) => f.name);
    expect(names.length).toBeGreaterThanOrEqual(26);
    const inputs = [...html.matchAll(/<input id="f-([^"]+)" name="([^"]+)"/g)];
    expect(inputs.map((m) => m[2])).toEqual(names);
    for (const name of names) expect(html).toContain(`<label for="f-${name}">${name}</label>`);
    expect(html).toContain('aria-label="Signature"');
  });
});
