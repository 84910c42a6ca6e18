/**
 * The callback verifier beside "Export code", run in every language this machine has against real
 * callbacks from the sandbox: a genuine one is `valid` (exit 0), the scenario lab's forged one
 * (`callback-bad-control`) and a tampered status are `invalid` (exit 1).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SNIPPET_LANGUAGES, type SnippetLanguage } from '../../src/exports/index.ts';
import { callbackVerifier } from '../../src/exports/snippets/callback-verifier.ts';
import { startMerchantHandler, type MerchantHandler } from '../sandbox/merchant-handler.ts';
import { saleParams, startSandbox, type Sandbox } from '../sandbox/support.ts';
import { available, run } from './support.ts';

const tools: Record<SnippetLanguage, string | null> = {
  bash: (await available('openssl')) ? null : 'openssl is not installed',
  node: null,
  python: (await available('python3')) ? null : 'python3 is not installed',
  php: (await available('php')) ? null : 'php is not installed on this machine',
  java: (await available('java')) ? null : 'java is not installed on this machine',
  csharp: 'the C# verifier needs a project (dotnet run); not run here',
};
for (const [lang, why] of Object.entries(tools))
  if (why) console.info(`callback verifier: ${lang} skipped: ${why}.`);

async function advance(app: FastifyInstance, login: string, ms: number): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/sandbox/clock/${login}/advance`,
    headers: { host: '127.0.0.1:4174', 'content-type': 'application/json' },
    payload: JSON.stringify({ ms }),
  });
  expect(res.statusCode).toBe(200);
}

let sb: Sandbox;
let handler: MerchantHandler;
const dir = mkdtempSync(path.join(tmpdir(), 'callback-verifier-'));
/** Real callbacks: [query string, what the handler's own check said]. */
const callbacks: Array<{ query: string; genuine: boolean }> = [];

beforeAll(async () => {
  sb = await startSandbox({ finalizeDelayMs: 1000 });
  handler = await startMerchantHandler(sb.merchants.acme.controlKey);
  const approved = await sb.acme.call('v2/sale', saleParams({ server_callback_url: `${handler.base}/cb` }));
  expect(approved.status).toBe(200);
  const forged = await sb.acme.call(
    'v2/sale',
    saleParams({ server_callback_url: `${handler.base}/cb`, cvv2: '116' }),
    { headers: { 'x-sandbox-scenario': 'callback-bad-control' } },
  );
  expect(forged.status).toBe(200);
  await advance(sb.app, sb.merchants.acme.login, 1000);
  for (const h of handler.hits) callbacks.push({ query: h.query.toString(), genuine: h.controlOk });
  expect(callbacks.filter((c) => c.genuine).length).toBeGreaterThanOrEqual(2);
  expect(callbacks.filter((c) => !c.genuine).length).toBeGreaterThanOrEqual(1);
}, 60_000);
afterAll(async () => {
  await sb?.app.close();
  await handler?.close();
});

const COMMAND: Record<Exclude<SnippetLanguage, 'csharp'>, (file: string) => [string, string[]]> = {
  bash: (f) => ['bash', [f]],
  node: (f) => [process.execPath, [f]],
  python: (f) => ['python3', [f]],
  php: (f) => ['php', [f]],
  java: (f) => ['java', [f]],
};

describe.each(SNIPPET_LANGUAGES.filter((l) => l !== 'csharp'))('the %s callback verifier', (language) => {
  const lang = language as Exclude<SnippetLanguage, 'csharp'>;
  test.skipIf(tools[lang] !== null)(
    `agrees with the handler on every real callback${tools[lang] ? ` (skipped: ${tools[lang]})` : ''}`,
    async () => {
      const { fileName, code } = callbackVerifier(lang);
      const file = path.join(dir, fileName);
      writeFileSync(file, code);
      const [cmd, args] = COMMAND[lang](file);
      const env = { PAY_CONTROL_KEY: sb.merchants.acme.controlKey };
      for (const c of callbacks) {
        const r = await run(cmd, [...args, c.query], env, dir);
        expect({ query: c.query, out: r.stdout.trim(), code: r.code, err: r.stderr }).toMatchObject({
          out: c.genuine ? 'valid' : 'invalid',
          code: c.genuine ? 0 : 1,
        });
      }
      // A genuine callback whose status was changed on the way is refused.
      const genuine = new URLSearchParams(callbacks.find((c) => c.genuine)!.query);
      genuine.set('status', genuine.get('status') === 'approved' ? 'declined' : 'approved');
      const tampered = await run(cmd, [...args, genuine.toString()], env, dir);
      expect(tampered.stdout.trim()).toBe('invalid');
      expect(tampered.code).toBe(1);
    },
    120_000,
  );
});
