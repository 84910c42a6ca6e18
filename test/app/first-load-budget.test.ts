/**
 * The JavaScript the first form needs, from a real production build: the entry chunk and every
 * chunk it imports statically (what the browser must load before anything renders), gzip -9.
 * Bytes are deterministic; the bench (`npm run bench -- console`) measures the same thing in a
 * browser, with the lazy chunks a load happens to fetch before the form is usable.
 */
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Rolldown, build as ViteBuild } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** The goal: at most 150 KB gzip before the first form is usable (Monaco excluded). */
const BUDGET_BYTES = 150_000;

type Chunk = Rolldown.OutputChunk;

describe('first load', () => {
  it('stays within 150 KB gzip, without node-forge, TanStack Query, classic zod or Monaco', async () => {
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
    const entry = [...chunks.values()].find((c) => c.isEntry);
    expect(entry, 'the build has an entry chunk').toBeDefined();
    const closure = new Set<Chunk>();
    const visit = (c: Chunk) => {
      if (closure.has(c)) return;
      closure.add(c);
      for (const f of c.imports) visit(chunks.get(f)!);
    };
    visit(entry!);
    const bytes = [...closure].reduce((n, c) => n + gzipSync(c.code, { level: 9 }).length, 0);
    const modules = [...closure].flatMap((c) => c.moduleIds);
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
