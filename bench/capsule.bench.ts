/**
 * The incident capsule (issue 31 §2): a pasted incident to its timeline (split, diagnose every
 * request with the key, state rules, masking, the hash chain). 20 signed requests (control, as
 * Monolog and logback lines), and 1,000 log lines of which 200 are requests and 800 the logger's
 * other lines. Signed here with node:crypto.
 */
import { createHash } from 'node:crypto';
import { webCryptoPort } from '../src/core/index.ts';
import { buildCapsule, splitIncident } from '../src/diagnose/capsule/index.ts';
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
}
