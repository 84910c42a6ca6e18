import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from './proxy/config.ts';
import { buildServer } from './proxy/server.ts';
import { CHROMIUM_ARGS, findChromium } from './scripts/browser-path.ts';
const ROOT = process.cwd();
const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', DIST_DIR: resolve(ROOT, process.env.DIST ?? '.data/bench-console-dist'), SANDBOX_DB: ':memory:' };
const app = await buildServer(loadConfig(env, ROOT), { env });
await app.listen({ host: '127.0.0.1', port: 0 });
const origin = `http://127.0.0.1:${(app.server.address() as any).port}`;
const browser = await chromium.launch({ headless: true, args: CHROMIUM_ARGS, executablePath: findChromium() });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const path = process.argv[2] ?? 'v2/sale';
await page.goto(`${origin}/ops/${path}`);
await page.waitForFunction(() => /^[0-9a-f]{40}$|^[A-Za-z0-9+/]{20,}=*$/.test(document.querySelector('[aria-label="Signature"]')?.textContent ?? ''));
await page.getByRole('button', { name: 'Fill with test data' }).click();
await page.waitForFunction(() => document.querySelector('.monaco-editor') !== null, undefined, { timeout: 30000 });
await page.waitForTimeout(1500);
console.log('DOM elements:', await page.evaluate(() => document.querySelectorAll('*').length));
await page.getByLabel(process.argv[3] ?? 'client_orderid', { exact: true }).focus();
await page.keyboard.press('End');
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start');
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] , path: '/tmp/h5-trace.json'});
for (let i = 0; i < 10; i++) { await page.keyboard.press('x'); await page.waitForTimeout(150); }
await browser.stopTracing();
const { profile } = await cdp.send('Profiler.stop') as any;
{
  const self: Record<string, number> = {}; const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const dt = new Map<number, number>(); profile.samples.forEach((id: number, i: number) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  for (const [id, ms] of dt) { const n: any = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\//, '')}:${n.callFrame.lineNumber}`; self[k] = (self[k] ?? 0) + ms; }
  for (const [k, v] of Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log('SELF', (v / 10).toFixed(2).padStart(7), k);
}
const trace = JSON.parse(readFileSync('/tmp/h5-trace.json', 'utf8'));
const events = trace.traceEvents as any[];
const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some(x => x.pid === e.pid && x.name === 'EventDispatch'));
const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
const sum: Record<string, number> = {};
let top = 0;
for (const e of mine) { sum[e.name] = (sum[e.name] ?? 0) + (e.dur ?? 0) / 1000; if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') top += (e.dur ?? 0) / 1000; }
console.log('top-level task ms per key', (top / 10).toFixed(1));
for (const [k, v] of Object.entries(sum).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 10).toFixed(2).padStart(8), k);
// function-level: self time by URL from FunctionCall events
const fc: Record<string, number> = {};
for (const e of mine.filter((e) => e.name === 'FunctionCall')) { const k = (e.args?.data?.functionName || '?') + ' ' + (e.args?.data?.url ?? '').replace(/.*\//, ''); fc[k] = (fc[k] ?? 0) + e.dur / 1000; }
for (const [k, v] of Object.entries(fc).sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log('FC', (v / 10).toFixed(2).padStart(8), k);
await browser.close(); await app.close();
