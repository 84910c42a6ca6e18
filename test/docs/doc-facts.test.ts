/**
 * Facts the README, docs/architecture.md and docs/adding-a-scenario.md state about the code, read back from the code: the
 * folders and files they name exist, every folder of src/ has its row in the README, and every
 * sandbox file that creates a table is named where the architecture describes the database file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(rel));
    else out.push(rel);
  }
  return out;
}

const SOURCE_DIRS = ['src', 'sandbox', 'proxy', 'classroom', 'scripts', 'test', 'e2e', 'bench', 'docs'];
const FILES = SOURCE_DIRS.flatMap((d) => listFiles(d)).concat([
  'README.md',
  'eslint.config.js',
  'index.html',
]);

/** Names in backticks that look like a file of this repository (`x.ts`, `a/b.tsx`, `c.md`). */
function namedFiles(text: string): string[] {
  const names = [...text.matchAll(/`([A-Za-z0-9_./-]+\.(?:ts|tsx|md|js|mjs))`/g)].map((m) => m[1]!);
  return [...new Set(names)];
}

/** Folders named in backticks under src/ (`src/ui/`, `src/features/console`). */
function namedSrcFolders(text: string): string[] {
  const names = [...text.matchAll(/`(src\/[a-z0-9_/-]+?)\/?`/g)].map((m) => m[1]!);
  return [...new Set(names)].filter((n) => !/\.[a-z]+$/.test(n) && !n.includes('<'));
}

// Outside references the architecture cites by name (another project's file).
const ELSEWHERE = new Set(['create-request-operation.ts']);

describe('the docs name what exists', () => {
  for (const doc of ['README.md', 'docs/architecture.md', 'docs/adding-a-scenario.md']) {
    const text = read(doc);
    it(`${doc}: every src/ folder it names exists`, () => {
      const missing = namedSrcFolders(text).filter((f) => !fs.existsSync(path.join(ROOT, f)));
      expect(missing).toEqual([]);
    });
    it(`${doc}: every file it names is a file of the repository`, () => {
      const missing = namedFiles(text).filter(
        (name) => !ELSEWHERE.has(name) && !FILES.some((f) => f === name || f.endsWith(`/${name}`)),
      );
      expect(missing).toEqual([]);
    });
  }

  it('the README has a row for every folder of src/', () => {
    const readme = read('README.md');
    const folders = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}/`);
    expect(folders.filter((f) => !readme.includes(`\`${f}\``))).toEqual([]);
  });

  it('architecture.md names every sandbox file that creates or alters a table', () => {
    const architecture = read('docs/architecture.md');
    const owners = listFiles('sandbox').filter(
      (f) => f.endsWith('.ts') && !f.includes('/test') && /\b(CREATE TABLE|ALTER TABLE)\b/.test(read(f)),
    );
    expect(owners.length).toBeGreaterThan(5);
    // A table module of sandbox/store/ goes by its name there; any other file by its path.
    const named = (f: string): boolean =>
      architecture.includes(`\`${f}\``) || architecture.includes(`\`${f.replace(/^sandbox\/store\//, '')}\``);
    expect(owners.filter((f) => !named(f))).toEqual([]);
  });
});
