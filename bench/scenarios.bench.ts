/**
 * The scenario lab under load (issue 21): the sandbox, the merchant's handler and the load
 * generator each in a process of their own. Status with 50 ms of injected latency against status
 * without, at 100 connections (and 1,000: a held answer is a timer, not a thread); a callback
 * fan-out to a handler that answers in 50 ms, driven by the test clock; status without a scenario
 * against the minimal fastify ceiling, the ratio the sandbox bench records (docs/benchmarks.md).
 * The fan-out line gives the sandbox's CPU and its wait for a core during the advance (shared
 * cores), and the connections the handler saw (the relay reuses them). `BENCH_LAB_ROUNDS=0` runs
 * the fan-out alone; `BENCH_CPU_PROF=<dir>` writes a CPU profile of the sandbox process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { importSigningKey } from '../src/core/keys/key-containers.ts';
import { nodeCryptoPort } from '../src/node/node-crypto-port.ts';
import { NODE_TSX, spawnUntil, stopChild } from './lib/spawn-until.ts';
import { expectAnswer, formatLoadTable, type LoadResult, type PreparedRequest } from './lib/load.ts';
import { benchNonce as nonce, signRequest, type SigningTarget } from './lib/sign-request.ts';

export const title = 'Scenario lab: latency without threads, callback fan-out (autocannon)';

const ROOT = resolve(import.meta.dirname, '..');
const LATENCY_MS = 50;
const FAN_OUT = Number(process.env.BENCH_FAN_OUT ?? 3000);

async function loadElsewhere(
  dir: string,
  label: string,
  url: string,
  request: PreparedRequest,
  connections: number,
  durationSec: number,
): Promise<LoadResult> {
  const specFile = join(dir, `load-${connections}.json`);
  writeFileSync(specFile, JSON.stringify({ label, url, requests: request, connections, durationSec }));
  const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), 'bench/lib/load-worker.ts', specFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('close', r));
  if (code !== 0) throw new Error(`${label}: load generator failed: ${err || out}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as LoadResult;
}

/**
 * CPU time of a process (all its threads) and time it waited, runnable, for a core, in ms (Linux:
 * each task's `schedstat` under `/proc/<pid>/task`; zeros elsewhere). On shared cores the wait says
 * how much of the wall time was the machine's, not the sandbox's.
 */
function cpuMs(pid: number | undefined): { run: number; wait: number } {
  const t = { run: 0, wait: 0 };
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ');
      t.run += Number(run) / 1e6;
      t.wait += Number(wait) / 1e6;
    }
  } catch {
    // Not Linux, or the process is gone.
  }
  return t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function printLoad(
  rows: LoadResult[],
  ratios: Record<'delayed100' | 'delayed1000' | 'ceiling', number[]>,
): void {
  console.log(formatLoadTable(rows));
  const bound = 100 / (LATENCY_MS / 1000);
  const held100 = median(
    rows.filter((x) => x.label.startsWith('status, latency 50 ms, 100 conn,')).map((x) => x.rps),
  );
  console.log(
    `\nstatus without a scenario ÷ ceiling (10 conn): median ${median(ratios.ceiling).toFixed(2)}× (the sandbox bench records 0.40–0.42×)`,
  );
  console.log(
    `status with 50 ms latency ÷ without (100 conn): median ${median(ratios.delayed100).toFixed(2)}×; ` +
      `100 connections each held 50 ms allow at most ${bound} req/s: ${held100.toFixed(0)} req/s is ${((held100 / bound) * 100).toFixed(1)} % of that bound`,
  );
  console.log(
    `status with 50 ms latency at 1,000 conn ÷ without at 100: median ${median(ratios.delayed1000).toFixed(2)}×`,
  );
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-console-bench-lab-'));
  const children: ChildProcess[] = [];
  try {
    const tiny = await spawnUntil(['bench/lib/tiny-fastify.ts'], {}, /listening (\d+)/);
    children.push(tiny.child);
    const handler = await spawnUntil(
      ['bench/lib/slow-handler-child.ts', String(LATENCY_MS)],
      {},
      /listening (\d+)/,
    );
    children.push(handler.child);
    const handlerBase = `http://127.0.0.1:${handler.match[1]}`;
    const sandbox = await spawnUntil(
      // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the sandbox process, written when it stops.
      [
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        'sandbox/main.ts',
      ],
      {
        HOST: '127.0.0.1',
        SANDBOX_PORT: '0',
        DATA_DIR: dir,
        SANDBOX_DB: join(dir, 'sandbox.sqlite'),
        // Sales stay pending until the test clock moves them: the fan-out starts on demand.
        SANDBOX_FINALIZE_DELAY_MS: '600000',
        SERVER_MAX_CONNECTIONS: '2000',
        // One load generator holds up to 1,000 answers here: the per-client budget is lifted for it.
        SANDBOX_HELD_PER_CLIENT: '100000',
      },
      /listening: (http:\/\/\S+\/paynet)/,
    );
    children.push(sandbox.child);
    const baseUrl = sandbox.match[1]!;
    const adminBase = baseUrl.replace(/\/paynet$/, '');
    const demo = (await (await fetch(`${adminBase}/demo-merchant`)).json()) as {
      login: string;
      controlKey: string;
      endpointIds: string[];
      privateKeyPkcs8Pem: string;
    };
    const target: SigningTarget = {
      baseUrl,
      login: demo.login,
      controlKey: demo.controlKey,
      endpointId: demo.endpointIds[0]!,
      privateKey: (await importSigningKey(demo.privateKeyPkcs8Pem, nodeCryptoPort())).key,
    };
    const saleId = `bench-lab-${nonce().slice(0, 12)}`;
    const sale = await expectAnswer(
      `${baseUrl}/api/v2/sale/${target.endpointId}`,
      await signRequest(target, 'v2/sale', { client_orderid: saleId, cvv2: '123' }),
      'async-response',
    );
    const status = await signRequest(target, 'v2/status', {
      client_orderid: saleId,
      orderid: String(sale['paynet-order-id']),
    });
    const statusUrl = `${baseUrl}/${status.path}`;
    const delayed: PreparedRequest = {
      ...status,
      headers: { ...status.headers, 'x-sandbox-scenario': `latency;delay-ms=${LATENCY_MS}` },
    };
    const seconds = process.env.BENCH_QUICK === '1' ? 1 : 4;
    const rounds = Number(process.env.BENCH_LAB_ROUNDS ?? 3);
    const rows: LoadResult[] = [];
    const ratios = { delayed100: [] as number[], delayed1000: [] as number[], ceiling: [] as number[] };
    for (let r = 1; r <= rounds; r++) {
      const ceiling = await loadElsewhere(
        dir,
        `ceiling (minimal fastify), 10 conn, round ${r}`,
        `http://127.0.0.1:${tiny.match[1]}/tiny`,
        status,
        10,
        seconds,
      );
      const plain10 = await loadElsewhere(
        dir,
        `status, no scenario, 10 conn, round ${r}`,
        statusUrl,
        status,
        10,
        seconds,
      );
      const plain = await loadElsewhere(
        dir,
        `status, no scenario, 100 conn, round ${r}`,
        statusUrl,
        status,
        100,
        seconds,
      );
      const held = await loadElsewhere(
        dir,
        `status, latency 50 ms, 100 conn, round ${r}`,
        statusUrl,
        delayed,
        100,
        seconds,
      );
      const held1000 = await loadElsewhere(
        dir,
        `status, latency 50 ms, 1000 conn, round ${r}`,
        statusUrl,
        delayed,
        1000,
        seconds,
      );
      rows.push(ceiling, plain10, plain, held, held1000);
      ratios.ceiling.push(plain10.rps / ceiling.rps);
      ratios.delayed100.push(held.rps / plain.rps);
      ratios.delayed1000.push(held1000.rps / plain.rps);
    }
    // BENCH_LAB_ROUNDS=0: the fan-out alone (measuring the relay without a minute of load first).
    if (rounds > 0) printLoad(rows, ratios);

    // Fan-out: FAN_OUT pending sales with a callback each; one clock advance finalises them and
    // delivers every callback, waiting for the handler's answers.
    const cbUrl = encodeURIComponent(`${handlerBase}/cb`);
    const runId = Date.now().toString(36);
    const batch = 50;
    for (let i = 0; i < FAN_OUT; i += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, FAN_OUT - i) }, async (_, k) => {
          const req = await signRequest(target, 'v2/sale', {
            client_orderid: `lab-${runId}-${i + k}`,
            cvv2: '123',
          });
          // server_callback_url is not in the sale's control formula: appended after signing.
          const res = await fetch(`${baseUrl}/${req.path}`, {
            method: 'POST',
            headers: req.headers,
            body: `${req.body}&server_callback_url=${cbUrl}`,
          });
          if (res.status !== 200) throw new Error(`sale answered ${res.status}: ${await res.text()}`);
        }),
      );
    }
    const cpu0 = [cpuMs(sandbox.child.pid), cpuMs(handler.child.pid)];
    const t0 = performance.now();
    const adv = await fetch(`${adminBase}/clock/${demo.login}/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 600_000 }),
    });
    if (!adv.ok) throw new Error(`advance answered ${adv.status}: ${await adv.text()}`);
    const wall = (performance.now() - t0) / 1000;
    const { steps } = (await adv.json()) as { steps: number };
    const [sandboxCpu, handlerCpu] = [cpuMs(sandbox.child.pid), cpuMs(handler.child.pid)];
    const cpu = {
      run: sandboxCpu.run - cpu0[0]!.run,
      wait: sandboxCpu.wait - cpu0[0]!.wait,
      handler: handlerCpu.run - cpu0[1]!.run,
    };
    const counted = (await (await fetch(`${handlerBase}/count`)).json()) as {
      count: number;
      first: number;
      last: number;
      connections: number;
    };
    console.log(
      `\ncallback fan-out: ${counted.count} of ${FAN_OUT} callbacks delivered to a handler answering in ${LATENCY_MS} ms; ` +
        `one clock advance (${steps} steps, finalising ${FAN_OUT} sales included) took ${wall.toFixed(2)} s: ${(counted.count / wall).toFixed(0)} deliveries/s ` +
        `(first to last arrival ${((counted.last - counted.first) / 1000).toFixed(2)} s: ${(counted.count / ((counted.last - counted.first) / 1000)).toFixed(0)}/s)`,
    );
    console.log(
      `sandbox during the advance: ${cpu.run.toFixed(0)} ms of CPU (${((cpu.run * 1000) / FAN_OUT).toFixed(0)} µs per callback, finalisation included), ` +
        `${cpu.wait.toFixed(0)} ms runnable but waiting for a core; handler ${cpu.handler.toFixed(0)} ms of CPU; wall ${(wall * 1000).toFixed(0)} ms; ` +
        `${counted.connections} connections to the handler in all`,
    );
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  }
}
