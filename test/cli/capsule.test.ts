/**
 * `paysign capsule build|verify` (issue 31 §2): a mixed incident (Monolog, logback, a HAR with the
 * gateway's answers, curl, an nginx access log of callbacks) signed here with node:crypto, turned
 * into a capsule: grouped by order, every request diagnosed, every state rule found, no key and no
 * full card number written; then verified intact, and refused once a step or a finding is changed.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paysign, tempDir } from './run-cli.ts';

const KEY = 'CAPSULE-TEST-ONLY-0B1C2D3E-4F5A-6B7C-8D9E-0F1A2B3C4D5E';
const LOGIN = 'capsule-shop';
const BASE = 'https://sandbox.pay-gateway.test/paynet/api';
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');
const enc = (s: string) => encodeURIComponent(s);
const form = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');

const CID = 'inv-7001';
const sale: Array<[string, string]> = [
  ['client_orderid', CID],
  ['order_desc', 'Capsule order'],
  ['amount', '10.00'],
  ['currency', 'USD'],
  ['email', 'jane@example.com'],
  ['credit_card_number', '4444444444444448'],
  ['cvv2', '123'],
];
const saleControl = sha1(`4411${CID}1000jane@example.com${KEY}`);
const status = (orderid: string) => sha1(`${LOGIN}${CID}${orderid}${KEY}`);
const settle = (orderid: string, amount: string) => sha1(`${LOGIN}${CID}${orderid}${amount}USD${KEY}`);
const callback = (s: string) => sha1(`${s}91001${CID}${KEY}`);

const monolog = [
  `[2026-12-06 01:00:00] payment.INFO: POST ${BASE}/v2/sale/4411 ${JSON.stringify(Object.fromEntries([...sale, ['control', saleControl]]))} []`,
  // The same client_orderid for a second payment, an hour later.
  `[2026-12-06 02:00:00] payment.INFO: POST ${BASE}/v2/sale/4411 ${JSON.stringify(Object.fromEntries([...sale, ['control', saleControl]]))} []`,
].join('\n');
const logback = [0, 100, 200]
  .map(
    (ms) =>
      `2026-12-06 01:00:01.${String(ms).padStart(3, '0')} INFO [pool-1] c.m.Gateway - Request: POST ${BASE}/v2/status/4411 body: ${form(
        [
          ['login', LOGIN],
          ['client_orderid', CID],
          ['orderid', '91001'],
          ['control', status('91001')],
        ],
      )}`,
  )
  .join('\n');
const har = JSON.stringify({
  log: {
    version: '1.2',
    entries: [
      {
        startedDateTime: '2026-12-06T01:00:02.000Z',
        request: {
          method: 'POST',
          url: `${BASE}/v2/status/4411`,
          headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
          postData: {
            mimeType: 'application/x-www-form-urlencoded',
            text: form([
              ['login', LOGIN],
              ['client_orderid', CID],
              ['orderid', '91001'],
              ['control', status('91001')],
            ]),
          },
        },
        response: {
          status: 200,
          content: { text: `type=status-response&status=processing&paynet-order-id=91001` },
        },
      },
    ],
  },
});
const curl = `curl -X POST ${BASE}/v2/capture/4411 --data-raw '${form([
  ['login', LOGIN],
  ['client_orderid', CID],
  ['orderid', '91001'],
  ['amount', '10.00'],
  ['currency', 'USD'],
  ['control', settle('91001', '1000')],
])}'
curl -X POST ${BASE}/v2/return/4411 --data-raw '${form([
  ['login', LOGIN],
  ['client_orderid', CID],
  ['orderid', '91001'],
  ['amount', '15.00'],
  ['currency', 'USD'],
  ['control', settle('91001', '1500')],
])}'
`;
const access = ['approved', 'approved']
  .map(
    (s, i) =>
      `198.51.100.23 - - [06/Dec/2026:01:00:0${5 + i} +0000] "GET /payment/callback?${form([
        ['status', s],
        ['orderid', '91001'],
        ['client_orderid', CID],
        ['control', callback(s)],
      ])} HTTP/1.1" ${i === 0 ? 500 : 200} 2 "-" "Paynet"`,
  )
  .join('\n');

let dir: string;
beforeAll(() => {
  dir = tempDir();
  writeFileSync(join(dir, 'app.log'), monolog);
  writeFileSync(join(dir, 'java.log'), logback);
  writeFileSync(join(dir, 'browser.har'), har);
  writeFileSync(join(dir, 'calls.sh'), curl);
  writeFileSync(join(dir, 'access.log'), access);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CapsuleJson {
  steps: Array<{
    operation: string;
    verdict: string;
    kind: string;
    params: Array<{ name: string; value: string }>;
  }>;
  orders: Array<{ clientOrderId: string; steps: number[] }>;
  findings: Array<{ rule: string; message: string }>;
}

describe('paysign capsule', () => {
  it('builds a timeline of a mixed incident: grouped, diagnosed, every state rule, secret-free and masked', async () => {
    const files = ['app.log', 'java.log', 'browser.har', 'calls.sh', 'access.log'].map((f) => join(dir, f));
    const r = await paysign(['capsule', 'build', ...files, '--control-key', KEY, '-o', join(dir, 'c.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`order ${CID} (orderid 91001)`);
    const text = readFileSync(join(dir, 'c.json'), 'utf8');
    const c = JSON.parse(text) as CapsuleJson;
    expect(c.steps).toHaveLength(10);
    expect(c.orders.map((o) => o.clientOrderId)).toEqual([CID]);
    expect(c.steps.map((s) => s.verdict)).toEqual(Array(10).fill('ok'));
    expect(c.steps.filter((s) => s.kind === 'callback')).toHaveLength(2);
    expect(new Set(c.findings.map((f) => f.rule))).toEqual(
      new Set([
        'capture-while-processing',
        'return-over-remaining',
        'client-orderid-reused',
        'status-polled-fast',
        'callback-retried',
      ]),
    );
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('4444444444444448');
    expect(text).toContain('444444******4448');
    expect(text).not.toMatch(/cvv2/);
  });

  it('verifies an intact capsule (exit 0) and refuses a changed step or finding (exit 1)', async () => {
    const file = join(dir, 'c.json');
    const ok = await paysign(['capsule', 'verify', file]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('capsule OK: every step follows the chain');

    const c = JSON.parse(readFileSync(file, 'utf8')) as CapsuleJson;
    const amount = c.steps[0]!.params.find((p) => p.name === 'amount')!;
    amount.value = '1.00';
    writeFileSync(join(dir, 'step.json'), JSON.stringify(c));
    const step = await paysign(['capsule', 'verify', join(dir, 'step.json'), '--json']);
    expect(step.code).toBe(1);
    expect(JSON.parse(step.stdout)).toMatchObject({ ok: false, brokenAt: 0 });

    const d = JSON.parse(readFileSync(file, 'utf8')) as CapsuleJson;
    d.findings.pop();
    writeFileSync(join(dir, 'finding.json'), JSON.stringify(d));
    const finding = await paysign(['capsule', 'verify', join(dir, 'finding.json')]);
    expect(finding.code).toBe(1);
    expect(finding.stdout).toContain('capsule BROKEN');
  });
});
