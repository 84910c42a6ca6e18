/**
 * The JavaScript the first form needs, from a real production build: the app's entry chunk (the
 * one index.html loads) and every chunk it imports statically (what the browser must load before
 * the app renders), gzip -9; and the first-form module of the pre-rendered operation pages
 * (scripts/prerender-ops.ts), which must stay a few kilobytes with no framework in it.
 * Bytes are deterministic; the bench (`npm run bench -- console`) measures the same thing in a
 * browser, with the lazy chunks a load happens to fetch before the form is usable.
 */
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Rolldown, build as ViteBuild } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/**
 * 134,268 plus a 2 KB margin; the issue asks for 120 KB (docs/performance.md). Issues 28, 29, 30
 * and 33 together (five operations and `notify_url` in the catalog, variables resolved on the first
 * form, the unknown-outcome slot, the one inbox client) measured 139,061: raised to that plus a
 * little, not by another margin (docs/performance.md says what each brought).
 */
const BUDGET_BYTES = 139_200;
/** The pre-rendered pages' first module: the core's control path and nothing else. */
const FIRST_FORM_BUDGET_BYTES = 5_000;

type Chunk = Rolldown.OutputChunk;

describe('first load', () => {
  it('stays within the budget (today plus a 2 KB margin), without node-forge, TanStack Query, classic zod or Monaco', async () => {
    // A variable specifier, as in bench/console.bench.ts: lint's import resolver must not follow vite.
    const vitePackage = 'vite';
    const { build } = (await import(vitePackage)) as { build: typeof ViteBuild };
    // vitest sets NODE_ENV=test, which would give React's development build; build as `npm run build` does.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    let out: Rolldown.RolldownOutput;
    try {
      out = (await build({
        root: ROOT,
        mode: 'production',
        logLevel: 'silent',
        build: { write: false, sourcemap: false },
      })) as Rolldown.RolldownOutput;
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const chunks = new Map(
      out.output.filter((o): o is Chunk => o.type === 'chunk').map((c) => [c.fileName, c]),
    );
    const entryOf = (suffix: string) =>
      [...chunks.values()].find((c) => c.isEntry && c.facadeModuleId?.endsWith(suffix));
    const closureOf = (entry: Chunk) => {
      const closure = new Set<Chunk>();
      const visit = (c: Chunk) => {
        if (closure.has(c)) return;
        closure.add(c);
        for (const f of c.imports) visit(chunks.get(f)!);
      };
      visit(entry);
      return closure;
    };
    const gzip = (set: Set<Chunk>) => [...set].reduce((n, c) => n + gzipSync(c.code, { level: 9 }).length, 0);
    const entry = entryOf('/index.html');
    expect(entry, 'the build has the app entry chunk').toBeDefined();
    const closure = closureOf(entry!);
    const bytes = gzip(closure);
    const modules = [...closure].flatMap((c) => c.moduleIds);
    const firstForm = entryOf('/src/app/first-form.ts');
    expect(firstForm, 'the build has the first-form entry chunk').toBeDefined();
    const firstClosure = closureOf(firstForm!);
    const firstModules = [...firstClosure].flatMap((c) => c.moduleIds);
    expect(
      firstModules.filter((m) => /node_modules|\/src\/catalog\//.test(m)),
      'no package, no catalog',
    ).toEqual([]);
    expect(gzip(firstClosure)).toBeLessThanOrEqual(FIRST_FORM_BUDGET_BYTES);
    const pulled = (pattern: RegExp) => modules.filter((m) => pattern.test(m));
    // The module ids are paths under node_modules (a pattern that matches nothing would prove nothing).
    expect(pulled(/node_modules\/react-dom\//).length).toBeGreaterThan(0);
    expect(pulled(/node_modules\/zod\/v4\/mini\//).length).toBeGreaterThan(0);
    expect(pulled(/node_modules\/node-forge\//), 'node-forge loads only for PKCS#1 keys').toEqual([]);
    expect(pulled(/node_modules\/@tanstack\//), 'TanStack loads with the pages that use it').toEqual([]);
    expect(pulled(/node_modules\/zod\/v4\/classic\//), 'the first form reads zod/mini schemas').toEqual([]);
    expect(pulled(/node_modules\/monaco-editor\//), 'Monaco loads on demand').toEqual([]);
    expect(bytes, `${(bytes / 1024).toFixed(1)} KiB gzip in ${closure.size} chunks`).toBeLessThanOrEqual(
      BUDGET_BYTES,
    );
  }, 240_000);
});
