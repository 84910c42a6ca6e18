/**
 * The workbench's page only adapts its session (issue 29 §1): `WorkbenchSession` owns draft →
 * build → send → answer, so the component that lays out its views stays short and holds few refs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FILE = path.resolve(import.meta.dirname, '../../src/features/console/workbench/workbench.tsx');
const MAX_LINES = 120;
const MAX_REFS = 3;

const text = fs.readFileSync(FILE, 'utf8');
/** Lines as the file-size test counts them (a last newline ends the last line). */
const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
/** Every `useRef(…)` or `useRef<…>(…)` call (the word in a comment would not be one). */
const refs = (source: string) => source.match(/\buseRef\s*(?:<|\()/g)?.length ?? 0;

describe('the workbench component', () => {
  it('counts a ref as a call, typed or not', () => {
    expect(refs('const a = useRef(null); const b = useRef<HTMLElement>(null); // useRef')).toBe(2);
  });

  it(`is at most ${MAX_LINES} lines`, () => {
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });

  it(`holds at most ${MAX_REFS} refs`, () => {
    expect(refs(text)).toBeLessThanOrEqual(MAX_REFS);
  });
});
