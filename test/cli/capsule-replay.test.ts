/**
 * `paysign capsule replay` and `verify --replay` (issue 31 §2) over real HTTP against a sandbox on a
 * loopback port: a HAR incident (signed here with node:crypto, with the gateway's recorded answers)
 * is built into a capsule, then replayed into a fresh sandbox merchant made by `POST
 * /sandbox/merchants`, with no key of the incident's merchant given. The sandbox's clock stands
 * still, so the order stays `processing` where the merchant's log recorded `approved`: that one
 * field is reported, and the exit code says the replay diverged.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { paysign, tempDir } from './run-cli.ts';

const KEY = 'REPLAY-TEST-ONLY-5C6D7E8F-9A0B-1C2D';
const LOGIN = 'replay-shop';
const CID = 'inv-9101';
const BASE = 'https://gate.pay-gateway.test/paynet/api';
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');
const form = (pairs: Array<[string, string]>) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

const sale: Array<[string, string]> = [
  ['client_orderid', CID],
  ['order_desc', 'Replay order'],
  ['first_name', 'John'],
  ['last_name', 'Smith'],
  ['address1', '100 Main Street'],
  ['city', 'Seattle'],
  ['zip_code', '98102'],
  ['country', 'US'],
  ['phone', '12063582043'],
  ['email', 'john.smith@example.com'],
  ['ipaddress', '203.0.113.7'],
  ['amount', '10.00'],
  ['currency', 'USD'],
  ['card_printed_name', 'JOHN SMITH'],
  ['credit_card_number', '4444444444444448'],
  ['expire_month', '12'],
  ['expire_year', '2035'],
  ['cvv2', '123'],
  ['control', sha1(`7701${CID}1000john.smith@example.com${KEY}`)],
];
const entry = (time: string, path: string, body: string, answer: string) => ({
  startedDateTime: time,
  request: {
    method: 'POST',
    url: `${BASE}/${path}`,
    headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
    postData: { mimeType: 'application/x-www-form-urlencoded', text: body },
  },
  response: { status: 200, content: { text: answer } },
});
const har = JSON.stringify({
  log: {
    version: '1.2',
    entries: [
      entry(
        '2026-12-06T01:00:00.000Z',
        'v2/sale/7701',
        form(sale),
        `type=async-response&paynet-order-id=55001&merchant-order-id=${CID}&serial-number=abc`,
      ),
      entry(
        '2026-12-06T01:00:30.000Z',
        'v2/status/7701',
        form([
          ['login', LOGIN],
          ['client_orderid', CID],
          ['orderid', '55001'],
          ['control', sha1(`${LOGIN}${CID}55001${KEY}`)],
        ]),
        `type=status-response&status=approved&paynet-order-id=55001&merchant-order-id=${CID}`,
      ),
    ],
  },
});

let dir: string;
let sandbox: FastifyInstance;
let origin: string;
beforeAll(async () => {
  dir = tempDir();
  writeFileSync(join(dir, 'shop.har'), har);
  sandbox = await createSandboxApp({
    dbPath: ':memory:',
    dataDir: join(dir, 'sandbox'),
    // The sandbox's clock stands still: the replayed order stays processing.
    clock: () => Date.UTC(2026, 11, 6, 1),
    finalizeDelayMs: 3_600_000,
  });
  await sandbox.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(sandbox.server.address() as AddressInfo).port}`;
  const built = await paysign(['capsule', 'build', join(dir, 'shop.har'), '-o', join(dir, 'c.json')]);
  expect(built.code).toBe(0);
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

interface ReplayJson {
  ok: boolean;
  replay: {
    login: string;
    divergent: boolean;
    steps: Array<{
      operation: string;
      outcome: string;
      sandboxStatus: number | null;
      differences: Array<{ field: string; captured: string; sandbox: string }>;
      notes: string[];
    }>;
  };
}

describe('paysign capsule replay', () => {
  it('replays into a fresh sandbox merchant without the merchant key and names the differing field', async () => {
    const capsuleText = readFileSync(join(dir, 'c.json'), 'utf8');
    expect(capsuleText).not.toContain(KEY);
    const r = await paysign(['capsule', 'replay', join(dir, 'c.json'), '--sandbox', origin, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as ReplayJson;
    expect(out.ok).toBe(true);
    expect(out.replay.login).toMatch(/^replay-\d+$/);
    expect(out.replay.divergent).toBe(true);
    const [s, st] = out.replay.steps;
    expect(s).toMatchObject({ operation: 'v2/sale', outcome: 'same', sandboxStatus: 200, differences: [] });
    // The status went with the sandbox's own order id (learned from the replayed sale), so the
    // only difference is the state the order is in.
    expect(st).toMatchObject({ operation: 'v2/status', outcome: 'differs', sandboxStatus: 200 });
    expect(st!.differences).toEqual([{ field: 'status', captured: 'approved', sandbox: 'processing' }]);
  });

  it('verify --replay prints the step table; a tampered capsule is refused and never replayed', async () => {
    const r = await paysign(['capsule', 'verify', join(dir, 'c.json'), '--replay', '--sandbox', origin]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('capsule OK: every step follows the chain');
    expect(r.stdout).toMatch(/v2\/status\s+differs · sandbox answered 200/);
    expect(r.stdout).toContain('status: the logs say "approved", the sandbox "processing"');
    expect(r.stdout).toContain('1 same, 1 differ, 0 without a recorded answer, 0 not sent');

    const c = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')) as { steps: Array<{ answer: string }> };
    c.steps[1]!.answer = c.steps[1]!.answer.replace('approved', 'processing');
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(c));
    const t = await paysign(['capsule', 'replay', join(dir, 'tampered.json'), '--sandbox', origin]);
    expect(t.code).toBe(1);
    expect(t.stdout).toContain('capsule BROKEN');
    expect(t.stdout).not.toContain('replayed into sandbox merchant');
  });

  it('says what to give when --sandbox is missing, before reading anything', async () => {
    const r = await paysign(['capsule', 'replay', join(dir, 'c.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('replay needs --sandbox <origin>');
  });
});
