/**
 * A feature file a newcomer can read: the state machines live in headless models with their own
 * specs, and the views stay thin. No file in src/features is over 400 lines (issue 22); one that
 * grows past it is split by concern, not trimmed of comments.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LIMIT = 400;

function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return files(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}

describe('file size', () => {
  const sizes = files('src/features').map((f) => {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    return { file: f, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
  });

  it('reads every feature file', () => {
    expect(sizes.length).toBeGreaterThan(100);
  });

  it(`no file in src/features is over ${LIMIT} lines`, () => {
    expect(sizes.filter((s) => s.lines > LIMIT)).toEqual([]);
  });
});
