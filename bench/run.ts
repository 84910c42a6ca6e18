/**
 * `npm run bench [-- <filter>…]`: runs every bench section (or those whose file name or title
 * contains a filter) one after the other and prints their tables.
 *
 * Adding a section: write `bench/<name>.bench.ts` exporting `title` and `async function run()`
 * (see lib/section.ts), and add one line to SECTIONS below.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { BenchSection } from './lib/section.ts';

const SECTIONS: ReadonlyArray<readonly [file: string, load: () => Promise<BenchSection>]> = [
  ['sign.bench.ts', () => import('./sign.bench.ts')],
  ['console.bench.ts', () => import('./console.bench.ts')],
  ['sandbox.bench.ts', () => import('./sandbox.bench.ts')],
  ['proxy.bench.ts', () => import('./proxy.bench.ts')],
  ['classroom.bench.ts', () => import('./classroom.bench.ts')],
  ['scenarios.bench.ts', () => import('./scenarios.bench.ts')],
  ['held.bench.ts', () => import('./held.bench.ts')],
  ['collection-run.bench.ts', () => import('./collection-run.bench.ts')],
  ['diagnose.bench.ts', () => import('./diagnose.bench.ts')],
  ['capsule.bench.ts', () => import('./capsule.bench.ts')],
  ['import.bench.ts', () => import('./import.bench.ts')],
  ['runner.bench.ts', () => import('./runner.bench.ts')],
];

const filters = process.argv.slice(2).map((f) => f.toLowerCase());
const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(
  `pay-console bench: Node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} × ${cpu}`,
);

let ran = 0;
for (const [file, load] of SECTIONS) {
  const section = await load();
  const names = `${file} ${section.title}`.toLowerCase();
  if (filters.length > 0 && !filters.some((f) => names.includes(f))) continue;
  ran++;
  console.log(`\n## ${section.title} (${file})\n`);
  const t0 = performance.now();
  try {
    await section.run();
    console.log(`\n(${file}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    process.exitCode = 1;
    console.error(`\n${file} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}
if (ran === 0) {
  process.exitCode = 1;
  console.error(
    `No bench section matches ${filters.join(', ')}. Sections: ${SECTIONS.map(([f]) => f).join(', ')}.`,
  );
}
