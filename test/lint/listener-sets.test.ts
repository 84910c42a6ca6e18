/**
 * One listener set in src/: the store base (`src/core/store.ts`, issue 29 §1). A headless model
 * extends `Store` or `Subscribable`, a module's value is a `Cell`, an event with no value a
 * `Signal`; no other file keeps a `Set` of callbacks with its own subscribe and notify loop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BASE = 'src/core/store.ts';

/** A set whose members are functions, however it is spelt, or one named as listeners. */
const HAND_ROLLED = [
  /\bSet<\s*\(/, // new Set<() => void>(), Set<(c: Loaded) => void>
  /\b(listeners|waiters|subscribers|callbacks)\s*[:=]\s*(new\s+)?Set\b/,
  /\b(listeners|waiters|subscribers)\s*=\s*new Set\b/,
];

export function handRollsListeners(text: string): boolean {
  return HAND_ROLLED.some((re) => re.test(text));
}

function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return files(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}

describe('listener sets', () => {
  it('recognises the hand-rolled shapes the store base replaced', () => {
    expect(handRollsListeners('private readonly listeners = new Set<() => void>();')).toBe(true);
    expect(handRollsListeners('readonly #listeners = new Set<() => void>();')).toBe(true);
    expect(handRollsListeners('const waiting = new Set<(c: Loaded) => void>();')).toBe(true);
    expect(handRollsListeners('useRef<{ value: T; listeners: Set<() => void> }>')).toBe(true);
    expect(handRollsListeners('store.current ??= { value: initial, listeners: new Set() };')).toBe(true);
    expect(handRollsListeners('private readonly seen = new Set<number>();')).toBe(false);
  });

  it(`no file under src/ but ${BASE} keeps a set of listeners`, () => {
    const all = files('src');
    expect(all).toContain(BASE);
    expect(handRollsListeners(fs.readFileSync(path.join(ROOT, BASE), 'utf8'))).toBe(true);
    const offenders = all.filter(
      (f) => f !== BASE && handRollsListeners(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
