/**
 * One owner for the sandbox's database file (issue 29 §5): its tables and columns are made by the
 * store's schema (sandbox/store/schema.ts and the table modules beside it, one append-only
 * migration list), never by a module that opens the file for its own use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return files(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

describe("the sandbox file's schema", () => {
  const makers = files('sandbox').filter((f) =>
    /\b(CREATE TABLE|ALTER TABLE)\b/i.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
  );

  it('finds the schema', () => {
    expect(makers).toContain('sandbox/store/schema.ts');
  });

  it('CREATE TABLE and ALTER TABLE appear only under sandbox/store/', () => {
    expect(makers.filter((f) => !f.startsWith('sandbox/store/'))).toEqual([]);
  });
});
