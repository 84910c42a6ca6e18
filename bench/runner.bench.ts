/**
 * The collection runner in the browser (issue 33 §3): the guided preauth → capture → return flow's
 * own collection, ten times over (30 steps, each awaiting its final status, with assertions), run
 * from the Saved page of the built console against the local sandbox, the console's server in its
 * own process. Measured: the longest task of the page's thread during the run (the browser's
 * long-task observer) and the run's time. Baseline in the same page and run: the longest task
 * while the Saved page opens and lists the collection. BENCH_RUNNER_RUNS (default 3) runs.
 */
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/browser-path.ts';
import { flowAsCollection } from '../src/features/flows/flow-collection.ts';
import { PREAUTH_CAPTURE_RETURN } from '../src/features/flows/flows-settle.ts';
import { buildConsoleDist, startConsoleServer } from './lib/console-dist.ts';

export const title = 'Collection runner in the browser: 30 steps, the page’s longest task (Chromium)';

const RUNS = Number(process.env.BENCH_RUNNER_RUNS ?? 3);
const CHAINS = 10;

function collectionsFile(): string {
  const flow = flowAsCollection(PREAUTH_CAPTURE_RETURN).collection;
  const requests = Array.from({ length: CHAINS }, (_, i) =>
    // Each chain its own order: `order-{{run_id}}` becomes `order-<n>-{{run_id}}`.
    flow.requests.map(
      (r) =>
        JSON.parse(
          JSON.stringify({ ...r, name: `${r.name} ${i + 1}` }).replaceAll(
            'order-{{run_id}}',
            `order-${i + 1}-{{run_id}}`,
          ),
        ) as typeof r,
    ),
  ).flat();
  return JSON.stringify({
    format: 'pay-console-collections',
    version: 1,
    collections: [{ ...flow, name: 'Thirty', requests }],
  });
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One observer per page, from its first task; `resetLongest` starts a new measure. */
const observeLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.longest = Math.max(w.longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
const resetLongest = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { longest: number }).longest = 0;
  });
const longest = (page: Page) => page.evaluate(() => (window as unknown as { longest: number }).longest);

async function runOnce(page: Page, origin: string, file: string) {
  await page.goto(`${origin}/saved`);
  await observeLongTasks(page);
  await page.getByRole('heading', { level: 1, name: 'Saved requests' }).waitFor();
  await page
    .getByLabel('Collections file to import')
    .setInputFiles({ name: 'thirty.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  const run = page.getByRole('button', { name: 'Run the collection Thirty' });
  await run.waitFor();
  await run.click();
  const runner = page.locator('section.sv-runner');
  await runner.getByRole('button', { name: 'Run collection' }).waitFor();
  const opening = await longest(page);
  await resetLongest(page);
  const t0 = Date.now();
  await runner.getByRole('button', { name: 'Run collection' }).click();
  await runner
    .getByRole('status')
    .filter({ hasText: /of 30 steps\.$/ })
    .filter({ hasNotText: /Running/ })
    .waitFor({ timeout: 300_000 });
  const seconds = (Date.now() - t0) / 1000;
  const summary = (await runner.getByRole('status').textContent()) ?? '';
  return { opening, running: await longest(page), seconds, summary };
}

export async function run(): Promise<void> {
  await buildConsoleDist();
  const server = await startConsoleServer();
  const executablePath = findChromium();
  const browser = await chromium.launch({
    headless: true,
    args: CHROMIUM_ARGS,
    ...(executablePath ? { executablePath } : {}),
  });
  const origin = `http://127.0.0.1:${server.port}`;
  try {
    const rows: Array<Awaited<ReturnType<typeof runOnce>>> = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      rows.push(await runOnce(await context.newPage(), origin, collectionsFile()));
      await context.close();
    }
    console.log(`${RUNS} runs of a ${CHAINS * 3}-step collection in the browser, each in a fresh profile\n`);
    console.log(
      '| run | longest task while running (goal < 200 ms) | baseline: opening Saved and the runner | run time | outcome |',
    );
    console.log('|---|---|---|---|---|');
    rows.forEach((r, i) =>
      console.log(
        `| ${i + 1} | ${r.running.toFixed(0)} ms | ${r.opening.toFixed(0)} ms | ${r.seconds.toFixed(1)} s | ${r.summary} |`,
      ),
    );
    const m = (k: 'running' | 'opening' | 'seconds') => median(rows.map((r) => r[k]));
    console.log(
      `| **median** | **${m('running').toFixed(0)} ms** | ${m('opening').toFixed(0)} ms | ${m('seconds').toFixed(1)} s | |`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
