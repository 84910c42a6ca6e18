/**
 * The incident capsule (issue 31 §2): a pasted incident to its timeline (split, diagnose every
 * request with the key, state rules, masking, the hash chain). 20 signed requests (control, as
 * Monolog and logback lines), and 1,000 log lines of which 200 are requests and 800 the logger's
 * other lines. Signed here with node:crypto.
 */
import { createHash } from 'node:crypto';
import { webCryptoPort } from '../src/core/index.ts';
import { buildCapsule, splitIncident } from '../src/diagnose/capsule/index.ts';
import { resolve } from 'node:path';
import type { BuiltRequest } from '../src/core/index.ts';
import { secureNonceSource } from '../src/core/index.ts';
import { importSigningKey } from '../src/core/keys/key-containers.ts';
import { ThrowawayMerchantSchema } from '../src/contracts/sandbox-merchant.ts';
import { replayCapsule } from '../src/exports/replay-capsule.ts';
import { startChild } from './lib/child-process.ts';
import { formatTable, measure, type TableRow } from './lib/measure.ts';

export const title = 'Incident capsule: paste to timeline';

const KEY = 'BENCH-ONLY-KEY-5F2C9A1E';
const BASE = 'https://sandbox.pay-gateway.test/paynet/api';
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

function incident(requests: number, noise: number): string {
  const lines: string[] = [];
  for (let i = 0; i < requests; i++) {
    const cid = `inv-${1000 + Math.floor(i / 4)}`;
    const t = new Date(Date.UTC(2026, 11, 6, 1, 0, i)).toISOString().replace('T', ' ').slice(0, 19);
    if (i % 4 === 0) {
      const control = sha1(`4411${cid}1000a@b.c${KEY}`);
      lines.push(
        `[${t}] payment.INFO: POST ${BASE}/v2/sale/4411 {"client_orderid":"${cid}","amount":"10.00","currency":"USD","email":"a@b.c","credit_card_number":"4444444444444448","control":"${control}"} []`,
      );
    } else {
      const oid = String(91000 + Math.floor(i / 4));
      const control = sha1(`shop${cid}${oid}${KEY}`);
      lines.push(
        `${t}.000 INFO [pool-1] c.m.Gateway - Request: POST ${BASE}/v2/status/4411 body: login=shop&client_orderid=${cid}&orderid=${oid}&control=${control}`,
      );
    }
  }
  const out: string[] = [];
  const every = noise > 0 ? Math.max(1, Math.floor((requests + noise) / requests)) : 1;
  let r = 0;
  for (let i = 0; i < requests + noise; i++)
    out.push(
      i % every === 0 && r < requests
        ? lines[r++]!
        : `[2026-12-06 01:00:00] app.DEBUG: cache hit for key ${i} [] []`,
    );
  while (r < requests) out.push(lines[r++]!);
  return out.join('\n');
}

export async function run(): Promise<void> {
  const crypto = webCryptoPort();
  const rows: TableRow[] = [];
  for (const [label, text, expected] of [
    ['20 requests', incident(20, 0), 20],
    ['1,000 log lines (200 requests)', incident(200, 800), 200],
  ] as const) {
    const once = async () => {
      const { items, skipped } = splitIncident([{ name: 'paste', text }]);
      return buildCapsule(items, { controlKey: KEY }, crypto, skipped);
    };
    const c = await once();
    if (c.steps.length !== expected || c.steps.some((s) => s.verdict !== 'ok'))
      throw new Error(
        `${label}: ${c.steps.length} steps, verdicts ${[...new Set(c.steps.map((s) => s.verdict))].join(',')}`,
      );
    rows.push({
      label,
      m: await measure('split, diagnose, rules, chain', once, { samples: 10, minSamples: 5, budgetMs: 8000 }),
    });
  }
  console.log(formatTable(rows));
  await replaySection(crypto);
}

const send = async (b: BuiltRequest) => {
  const r = await fetch(b.url, {
    method: b.method,
    headers: b.headers
      .filter((h) => h.name.toLowerCase() !== 'host')
      .map((h): [string, string] => [h.name, h.value]),
    body: b.bodyText,
  });
  return { status: r.status, body: await r.text() };
};

/**
 * Replay of the 20-request capsule into a throwaway merchant of the console's sandbox (its own
 * process), the gaps not waited (the machinery only), against the baseline in the same run: the
 * same 20 built requests sent by hand, one after the other, with no replay around them.
 */
async function replaySection(crypto: ReturnType<typeof webCryptoPort>): Promise<void> {
  const server = await startChild(resolve(import.meta.dirname, 'lib/console-server-child.ts'));
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const { items } = splitIncident([{ name: 'paste', text: incident(20, 0) }]);
    const capsule = await buildCapsule(items, {}, crypto);
    const made = ThrowawayMerchantSchema.parse(
      await (
        await fetch(`${origin}/sandbox/merchants`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"purpose":"replay"}',
        })
      ).json(),
    );
    const merchant = { ...made, privateKey: (await importSigningKey(made.privateKeyPkcs8Pem, crypto)).key };
    const runtime = { crypto, clock: Date.now, nonce: secureNonceSource() };
    const built: BuiltRequest[] = [];
    const replay = (record: boolean) =>
      replayCapsule(
        capsule,
        merchant,
        {
          runtime,
          send: (b) => {
            if (record) built.push(b);
            return send(b);
          },
          wait: async () => undefined,
        },
        { baseUrl: `${origin}/sandbox/paynet`, origin },
      );
    const first = await replay(true);
    if (first.steps.length !== 20 || built.length !== 20)
      throw new Error(`replay sent ${built.length} of ${first.steps.length} steps`);
    const byHand = async () => {
      for (const b of built) await send(b);
    };
    const opts = { samples: 15, minSamples: 5, budgetMs: 15_000 };
    console.log(
      formatTable([
        { label: 'baseline: the 20 requests by hand', m: await measure('send 20', byHand, opts) },
        { label: 'replay of a 20-step capsule', m: await measure('replay 20', () => replay(false), opts) },
      ]),
    );
  } finally {
    await server.close();
  }
}
