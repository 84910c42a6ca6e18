/**
 * Tests mirror the folders they test (issue 29 §5): a test of `sandbox/<dir>/` lives under
 * `test/sandbox/<dir>/`, and a folder of tests there names a real folder of the sandbox. A test
 * named after a sandbox folder but left at the top (a `store-…` test) belongs in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = 'sandbox';
const TESTS = 'test/sandbox';

const dirsOf = (dir: string) =>
  fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

/** Whether a folder holds a test file, at any depth (a folder of fixtures alone does not count). */
function holdsTests(dir: string): boolean {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .some((e) => (e.isDirectory() ? holdsTests(path.posix.join(dir, e.name)) : e.name.endsWith('.test.ts')));
}

/** Test folders (at any depth) with no folder of the same path under sandbox/. */
function unmatched(dir = ''): string[] {
  return dirsOf(path.posix.join(TESTS, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (!holdsTests(path.posix.join(TESTS, rel))) return [];
    const mirrored = fs.existsSync(path.join(ROOT, SOURCE, rel));
    return mirrored ? unmatched(rel) : [`${TESTS}/${rel}`];
  });
}

describe('test/sandbox mirrors sandbox/', () => {
  const folders = dirsOf(SOURCE);

  it('has a test folder for the sandbox folders it tests', () => {
    expect(folders).toEqual(expect.arrayContaining(['engine', 'relay', 'scenarios', 'store']));
    expect(dirsOf(TESTS)).toEqual(expect.arrayContaining(['engine', 'relay', 'scenarios', 'store']));
  });

  it('every test folder under test/sandbox/ has a matching sandbox/ folder', () => {
    expect(unmatched()).toEqual([]);
  });

  it('no test at the top of test/sandbox/ is named after a sandbox folder', () => {
    const top = fs.readdirSync(path.join(ROOT, TESTS)).filter((f) => f.endsWith('.ts'));
    const named = top.filter((f) =>
      folders.some((d) => f.startsWith(`${d}-`) || f.startsWith(`${d.replace(/s$/, '')}-`)),
    );
    expect(named).toEqual([]);
  });
});
