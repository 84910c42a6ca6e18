/**
 * A Postman collection of 100,000 requests (3.3 MB, issue 27 §5) imported on the Saved page of the
 * built console in headless Chromium, the console's server in its own process: the longest task
 * of the page's thread (the browser's long-task observer) from choosing the file to the saved list
 * showing the new collection, and the time that takes. The baseline, measured in the same page and
 * run: one `JSON.parse` of the same file on the page's thread, the least a page that reads the
 * file itself would be held. BENCH_IMPORT_RUNS (default 3) imports, each in a fresh context.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/browser-path.ts';
import { buildConsoleDist, startConsoleServer } from './lib/console-dist.ts';

export const title = 'Saved: importing 100,000 Postman requests, the page’s longest task (Chromium)';

const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const REQUESTS = 100_000;

function collection(): string {
  const perFolder = 10_000;
  return JSON.stringify({
    info: { name: 'Big', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: Array.from({ length: REQUESTS / perFolder }, (_, f) => ({
      name: `F${f}`,
      item: Array.from({ length: perFolder }, () => ({ request: 'http://g.invalid/api/v2/status/1' })),
    })),
  });
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function importOnce(page: Page, origin: string, file: string) {
  await page.goto(`${origin}/saved`);
  const status = page.getByRole('region', { name: 'Saved requests' }).getByRole('status');
  await page.getByRole('heading', { level: 1, name: 'Saved requests' }).waitFor();
  await page.waitForFunction(() => !document.body.textContent?.includes('Loading…'));
  await page.evaluate(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.longest = Math.max(w.longest, e.duration);
    }).observe({ type: 'longtask' });
  });
  const t0 = Date.now();
  await page.getByLabel('Collections file to import').setInputFiles(file);
  await status.filter({ hasText: `Imported ${REQUESTS} requests` }).waitFor({ timeout: 300_000 });
  await page
    .getByRole('region', { name: /^Big/ })
    .filter({ hasText: 'Showing 200 of 100,000 requests' })
    .waitFor({ timeout: 300_000 });
  const seconds = (Date.now() - t0) / 1000;
  const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
  return { seconds, longest, parse: 0 };
}

export async function run(): Promise<void> {
  await buildConsoleDist();
  const server = await startConsoleServer();
  const dir = mkdtempSync(join(tmpdir(), 'pc-import-bench-'));
  const file = join(dir, 'big.postman_collection.json');
  const text = collection();
  writeFileSync(file, text);
  const executablePath = findChromium();
  const browser = await chromium.launch({
    headless: true,
    args: CHROMIUM_ARGS,
    ...(executablePath ? { executablePath } : {}),
  });
  const origin = `http://127.0.0.1:${server.port}`;
  try {
    const rows: Array<{ seconds: number; longest: number; parse: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const r = await importOnce(page, origin, file);
      // The baseline in the same page: the file's JSON.parse on the page's thread.
      r.parse = await page.evaluate((t) => {
        const s = performance.now();
        JSON.parse(t);
        return performance.now() - s;
      }, text);
      rows.push(r);
      await context.close();
    }
    console.log(
      `${RUNS} imports of ${REQUESTS.toLocaleString('en-US')} requests (${(text.length / 1e6).toFixed(1)} MB), each in a fresh profile\n`,
    );
    console.log(
      '| run | longest task of the page (goal < 200 ms) | baseline: JSON.parse on the page | import to list shown |',
    );
    console.log('|---|---|---|---|');
    rows.forEach((r, i) =>
      console.log(
        `| ${i + 1} | ${r.longest.toFixed(0)} ms | ${r.parse.toFixed(0)} ms | ${r.seconds.toFixed(1)} s |`,
      ),
    );
    const m = (k: 'longest' | 'parse' | 'seconds') => median(rows.map((r) => r[k]));
    console.log(
      `| **median** | **${m('longest').toFixed(0)} ms** | ${m('parse').toFixed(0)} ms (${(m('longest') / m('parse')).toFixed(2)}×) | ${m('seconds').toFixed(1)} s |`,
    );
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
