/**
 * No import cycle of any kind, type-only imports included. `import-x/no-cycle` skips `import type`,
 * and a cycle through types still ties two modules together: neither can move or be read alone.
 * The graph is read from the source text (every static `import`/`export … from`, and `import()`),
 * resolved as relative paths, then searched for strongly connected components (Tarjan).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['src', 'sandbox', 'proxy', 'classroom', 'scripts', 'bench'];
const EXT = /\.(ts|tsx)$/;

function listSources(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSources(rel));
    else if (EXT.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

// `import … from '…'`, `import type …`, `export … from '…'`, `import '…'` and `import('…')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function importsOf(file: string, text: string, exists: (rel: string) => boolean): string[] {
  const out = new Set<string>();
  for (const m of stripComments(text).matchAll(SPECIFIER)) {
    const target = path.normalize(path.join(path.dirname(file), m[1]!));
    const candidates = [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')];
    const hit = candidates.find(exists);
    if (hit) out.add(hit);
  }
  return [...out];
}

/** Strongly connected components with more than one module, or a module importing itself. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative Tarjan: the source tree is deep enough that recursion is a risk worth avoiding.
  for (const start of graph.keys()) {
    if (idx.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!idx.has(to)) {
          idx.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, idx.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === idx.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && edges.includes(frame.node);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found;
}

describe('import cycles', () => {
  it('finds a cycle through a type-only import (the check can fail)', () => {
    const files = new Map([
      ['a.ts', "import type { B } from './b.ts';\nexport type A = B;"],
      ['b.ts', "import { a } from './a.ts';\nexport const b = a;"],
      ['c.ts', "// import { a } from './a.ts';\nexport const c = 1;"],
    ]);
    const graph = new Map([...files].map(([f, t]) => [f, importsOf(f, t, (rel) => files.has(rel))]));
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts']]);
  });

  it('the source tree has none, type-only imports included', () => {
    const files = SOURCE_DIRS.flatMap(listSources);
    const known = new Set(files);
    const graph = new Map(
      files.map((f) => [
        f,
        importsOf(f, fs.readFileSync(path.join(ROOT, f), 'utf8'), (rel) => known.has(rel)),
      ]),
    );
    expect(files.length).toBeGreaterThan(300);
    expect(cycles(graph)).toEqual([]);
  });
});
