/**
 * The console in headless Chromium: keystroke → updated signature on screen (control, HMAC-SHA1,
 * RSA-2048, RSA-4096), the JavaScript (gzip) loaded before the first form is usable, and the time
 * from navigation to a usable form. The server (console, proxy, local sandbox) runs in-process
 * on a free port; the console is built into .data/bench-console-dist first.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { build as ViteBuild } from 'vite';
import { loadConfig } from '../proxy/config.ts';
import { buildServer, type ConsoleServer } from '../proxy/server.ts';
import { CHROMIUM_ARGS, findChromium } from '../scripts/browser-path.ts';

export const title =
  'Console in headless Chromium: keystroke to signature, initial JS, time to a usable form';

const KEYSTROKES = Number(process.env.BENCH_KEYSTROKES ?? 40);
const LOADS = Number(process.env.BENCH_LOADS ?? 7);
const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, '.data/bench-console-dist');

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function startServer(): Promise<{ app: ConsoleServer; origin: string }> {
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DIST_DIR: DIST,
    SANDBOX_DB: ':memory:',
    SANDBOX_FINALIZE_DELAY_MS: '300',
  };
  const app = await buildServer(loadConfig(env, ROOT), { env });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr !== 'object') throw new Error('The bench server did not report its port.');
  return { app, origin: `http://127.0.0.1:${addr.port}` };
}

const SIGNATURE = '[aria-label="Signature"]';
const signed = (sig: string) => /^[0-9a-f]{40}$|^[A-Za-z0-9+/]{20,}=*$/.test(sig);

async function waitUsable(page: Page): Promise<number> {
  await page.waitForFunction(
    (sel) => {
      const t = document.querySelector(sel)?.textContent ?? '';
      return (
        /^[0-9a-f]{40}$|^[A-Za-z0-9+/]{20,}=*$/.test(t) && document.querySelector('input[id^="f-"]') !== null
      );
    },
    SIGNATURE,
    { polling: 'raf', timeout: 30_000 },
  );
  return page.evaluate(() => performance.now());
}

/** One cold load of /ops/v2/sale in a fresh context: ms to a usable form, and the JS that arrived first. */
async function coldLoad(
  browser: Browser,
  origin: string,
): Promise<{ usableMs: number; jsGzip: number; jsRaw: number; files: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const scripts: Array<{ url: string; at: number; body: Promise<Buffer> }> = [];
  page.on('response', (r) => {
    const type = r.request().resourceType();
    if (type === 'script' || r.url().endsWith('.js'))
      scripts.push({ url: r.url(), at: Date.now(), body: r.body() });
  });
  await page.goto(`${origin}/ops/v2/sale`, { waitUntil: 'commit' });
  const usableMs = await waitUsable(page);
  const cutoff = Date.now();
  const before = scripts.filter((s) => s.at <= cutoff);
  let jsGzip = 0;
  let jsRaw = 0;
  for (const s of before) {
    const body = await s.body;
    jsRaw += body.length;
    jsGzip += gzipSync(body, { level: 9 }).length;
  }
  await context.close();
  return { usableMs, jsGzip, jsRaw, files: before.map((s) => new URL(s.url).pathname) };
}

/** Keystroke → the signature text changes, timed inside the page (keydown to DOM mutation). */
async function keystrokeLatency(page: Page, fieldName: string): Promise<number[]> {
  await page.waitForFunction(() => document.querySelector('.monaco-editor') !== null, undefined, {
    timeout: 30_000,
  });
  await page.evaluate((sel) => {
    const w = window as unknown as { __lat: number[]; __t0: number | null };
    w.__lat = [];
    w.__t0 = null;
    document.addEventListener('keydown', () => (w.__t0 = performance.now()), true);
    const sig = document.querySelector(sel)!;
    new MutationObserver(() => {
      if (w.__t0 !== null) {
        w.__lat.push(performance.now() - w.__t0);
        w.__t0 = null;
      }
    }).observe(sig, { childList: true, characterData: true, subtree: true });
  }, SIGNATURE);
  await page.getByLabel(fieldName, { exact: true }).focus();
  await page.keyboard.press('End');
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < KEYSTROKES + 3; i++) {
    await page.keyboard.press(chars[i % chars.length]!);
    await page.waitForFunction((n) => (window as unknown as { __lat: number[] }).__lat.length >= n, i + 1, {
      polling: 'raf',
      timeout: 10_000,
    });
    await page.waitForTimeout(30);
  }
  const lat = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
  return lat.slice(3);
}

async function openFilled(page: Page, origin: string, path: string): Promise<void> {
  await page.goto(`${origin}/ops/${path}`);
  await waitUsable(page);
  await page.getByRole('button', { name: 'Fill with test data' }).click();
  await page.waitForFunction((sel) => {
    const t = document.querySelector(sel)?.textContent ?? '';
    return /^[0-9a-f]{40}$|^[A-Za-z0-9+/]{20,}=*$/.test(t);
  }, SIGNATURE);
}

export async function run(): Promise<void> {
  if (process.env.BENCH_REUSE_DIST !== '1' || !existsSync(resolve(DIST, 'index.html'))) {
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
  const { app, origin } = await startServer();
  const executablePath = findChromium();
  const browser = await chromium.launch({
    headless: true,
    args: CHROMIUM_ARGS,
    ...(executablePath ? { executablePath } : {}),
  });
  try {
    const loads: Array<Awaited<ReturnType<typeof coldLoad>>> = [];
    for (let i = 0; i < LOADS + 1; i++) loads.push(await coldLoad(browser, origin));
    const measured = loads.slice(1);
    const first = measured[0]!;
    console.log(
      table(
        ['first form usable (/ops/v2/sale, cold context)', 'median', 'p95', 'min', 'loads'],
        [
          [
            'navigation → form signed and editable (ms)',
            fmt(
              percentile(
                measured.map((l) => l.usableMs),
                50,
              ),
            ),
            fmt(
              percentile(
                measured.map((l) => l.usableMs),
                95,
              ),
            ),
            fmt(Math.min(...measured.map((l) => l.usableMs))),
            String(measured.length),
          ],
        ],
      ),
    );
    console.log(
      `\ninitial JavaScript before the form is usable: ${(first.jsGzip / 1024).toFixed(1)} KiB gzip (${(first.jsRaw / 1024).toFixed(0)} KiB raw) in ${first.files.length} file(s): ${first.files.join(', ')}`,
    );
    console.log('(Monaco is not in it: it loads when the page is idle, after the form is usable.)\n');

    const rows: string[][] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cases: Array<{ label: string; path: string; field: string; key?: string }> = [
      { label: 'control (SHA-1), v2/sale', path: 'v2/sale', field: 'client_orderid' },
      { label: 'OAuth HMAC-SHA1, v2/payout', path: 'v2/payout', field: 'order_desc' },
      { label: 'OAuth RSA-SHA256 2048, v4/payout-check', path: 'v4/payout-check', field: 'order_desc' },
      {
        label: 'OAuth RSA-SHA256 4096, v4/payout-check',
        path: 'v4/payout-check',
        field: 'order_desc',
        key: 'rsa4096',
      },
    ];
    for (const c of cases) {
      await openFilled(page, origin, c.path);
      if (c.key) {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 4096 });
        const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
        await page.getByLabel('Private key', { exact: true }).fill(pem);
        await page
          .getByText(/4096 bits/)
          .first()
          .waitFor({ timeout: 20_000 });
        await page.waitForFunction(
          (sel) => /^[A-Za-z0-9+/]{600,}=*$/.test(document.querySelector(sel)?.textContent ?? ''),
          SIGNATURE,
          {
            timeout: 20_000,
          },
        );
      }
      const sig = (await page.locator(SIGNATURE).textContent()) ?? '';
      if (!signed(sig))
        throw new Error(`${c.label}: no signature on screen before typing (${sig.slice(0, 40)}).`);
      const lat = await keystrokeLatency(page, c.field);
      rows.push([
        c.label,
        fmt(percentile(lat, 50)),
        fmt(percentile(lat, 95)),
        fmt(Math.max(...lat)),
        String(lat.length),
      ]);
    }
    await context.close();
    console.log(
      table(['keystroke → updated signature on screen (ms)', 'median', 'p95', 'max', 'keystrokes'], rows),
    );
  } finally {
    await browser.close();
    await app.close();
  }
}
