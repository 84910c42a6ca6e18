/**
 * The console built for the browser benches into .data/bench-console-dist (BENCH_REUSE_DIST=1
 * keeps an existing build), and the server child that serves it beside the proxy and sandbox.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { build as ViteBuild } from 'vite';
import { startChild, type ChildServer } from './child-process.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const DIST = resolve(ROOT, '.data/bench-console-dist');

export async function buildConsoleDist(): Promise<void> {
  if (process.env.BENCH_REUSE_DIST === '1' && existsSync(resolve(DIST, 'index.html'))) return;
  console.log('building the console into .data/bench-console-dist …');
  // A variable specifier: eslint-plugin-import-x's no-cycle crashes when it follows an import into vite.
  const vitePackage = 'vite';
  const { build } = (await import(vitePackage)) as { build: typeof ViteBuild };
  await build({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: DIST, emptyOutDir: true, sourcemap: false },
  });
}

/** `npm start`'s server (console, proxy, sandbox) in its own process, serving the built console. */
export function startConsoleServer(): Promise<ChildServer> {
  return startChild(resolve(import.meta.dirname, 'console-server-child.ts'), ['in-process', DIST]);
}
