/**
 * `paysign run` (issue 33): a 30-step collection (ten preauth → capture → return chains, each step
 * awaiting its final status, each with assertions) against the local sandbox the command starts in
 * its own process, timed from the spawn to the exit, as CI would see it. Baselines in the same run:
 * the same command with a 1-step collection (start-up: tsx, the sandbox, its demo key) and
 * `paysign --help` (Node and tsx alone). Goal: the 30 steps in under 10 s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NODE_TSX } from './lib/spawn-until.ts';

export const title = 'Collection runner: a 30-step collection from paysign run (local sandbox)';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_RUN_ROUNDS ?? 3);

const CUSTOMER = {
  order_desc: 'Bench order',
  first_name: 'John',
  last_name: 'Smith',
  address1: '100 Main Street',
  city: 'Seattle',
  zip_code: '98102',
  country: 'US',
  phone: '12063582043',
  email: 'john.smith@example.com',
  ipaddress: '203.0.113.7',
  currency: 'EUR',
  card_printed_name: 'JOHN SMITH',
  credit_card_number: '{{card_number}}',
  expire_month: '{{expire_month}}',
  expire_year: '{{expire_year}}',
  cvv2: '{{cvv}}',
};

function chain(i: number) {
  const order = `bench-${i}-{{run_id}}`;
  const id = `orderid${i}`;
  const follow = (amount: string) => ({
    login: '{{login}}',
    client_orderid: order,
    orderid: `{{${id}}}`,
    amount,
    currency: 'EUR',
  });
  return [
    {
      name: `Preauth ${i}`,
      draft: {
        v: 2,
        operation: 'v2/preauth',
        values: { ...CUSTOMER, client_orderid: order, amount: '100.00' },
        extras: [],
      },
      checks: { expect: { http: 200, status: 'approved' }, set: { [id]: 'paynet-order-id' } },
    },
    {
      name: `Capture ${i}`,
      draft: { v: 2, operation: 'v2/capture', values: follow('60.00'), extras: [] },
      checks: { expect: { status: 'approved' } },
    },
    {
      name: `Return ${i}`,
      draft: { v: 2, operation: 'v2/return', values: follow('25.00'), extras: [] },
      checks: { expect: { status: 'approved' } },
    },
  ];
}

function collectionFile(chains: number): string {
  return JSON.stringify({
    format: 'pay-console-collections',
    version: 1,
    collections: [
      {
        name: `${chains * 3} steps`,
        requests: Array.from({ length: chains }, (_v, i) => chain(i + 1)).flat(),
      },
    ],
  });
}

function timed(args: readonly string[]): Promise<{ ms: number; code: number | null; out: string }> {
  const t0 = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), 'src/cli/paysign.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', fail);
    child.on('close', (code) => done({ ms: performance.now() - t0, code, out }));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-run-'));
  try {
    const big = join(dir, 'thirty.json');
    const one = join(dir, 'one.json');
    writeFileSync(big, collectionFile(10));
    writeFileSync(
      one,
      JSON.stringify({
        ...JSON.parse(collectionFile(1)),
        collections: [{ name: '1 step', requests: [chain(1)[0]] }],
      }),
    );
    const help: number[] = [];
    const single: number[] = [];
    const thirty: number[] = [];
    // Interleaved rounds, so a busy moment of the shared machine falls on every kind alike.
    for (let r = 0; r < ROUNDS; r++) {
      help.push((await timed(['--help'])).ms);
      const s = await timed(['run', one, '--env', 'local']);
      if (s.code !== 0) throw new Error(`the 1-step run failed:\n${s.out}`);
      single.push(s.ms);
      const t = await timed(['run', big, '--env', 'local']);
      if (t.code !== 0 || !/30 of 30 steps passed/.test(t.out))
        throw new Error(`the 30-step run failed:\n${t.out}`);
      thirty.push(t.ms);
    }
    const m30 = median(thirty);
    const m1 = median(single);
    console.log('| Measure | Median | Rounds |');
    console.log('|---|---|---|');
    console.log(
      `| paysign --help (Node + tsx) | ${(median(help) / 1000).toFixed(2)} s | ${help.map((x) => (x / 1000).toFixed(2)).join(', ')} |`,
    );
    console.log(
      `| paysign run, 1 step | ${(m1 / 1000).toFixed(2)} s | ${single.map((x) => (x / 1000).toFixed(2)).join(', ')} |`,
    );
    console.log(
      `| paysign run, 30 steps | ${(m30 / 1000).toFixed(2)} s | ${thirty.map((x) => (x / 1000).toFixed(2)).join(', ')} |`,
    );
    console.log(
      `\n30 steps: ${(m30 / 1000).toFixed(2)} s from spawn to exit (goal < 10 s: ${m30 < 10_000 ? 'met' : 'MISSED'}); ${((m30 - m1) / 29).toFixed(0)} ms per step beyond the first; ${(m30 / m1).toFixed(2)}× the 1-step run.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
