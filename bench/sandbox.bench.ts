/**
 * The local sandbox's throughput, measured from outside: the sandbox runs as a user runs it
 * (`tsx sandbox/main.ts`, its own process, default settings, SQLite file), autocannon runs in
 * another process (10 connections), and a minimal fastify app (a third process) gives the ceiling
 * in the same run. Rows: the ceiling, a `v2/status` read (control), the three order-creating writes
 * (control v2/sale, HMAC-SHA1 v2/payout, RSA-SHA256 2048 v4/payout-check; each request with its own
 * order id and nonce, pre-signed by the core), the same control sale without the JSON Accept (the
 * gateway's default dialect, issue 20), with the sandbox's CPU time per request of both sales (read
 * from /proc, Linux only), then the event-loop stalls of the sandbox while
 * 500,000 live nonces are in its database and 100,000 of them expire at once under HMAC load.
 * The rows run in interleaved rounds (BENCH_SANDBOX_ROUNDS, 3 by default); each ratio is taken within
 * a round and the median over the rounds is printed, with every round's value beside it.
 *
 * Signing lives in lib/sign-request.ts, shared with the proxy and classroom benches.
 * BENCH_QUICK=1 runs a short version (to check the bench itself); BENCH_SANDBOX_PROFILE_DIR=<dir>
 * writes a CPU profile of the sandbox over the whole run (node --cpu-prof) into <dir>.
 * BENCH_SANDBOX_DB=:memory: runs the sandbox on an in-memory database (no file, no WAL, nothing
 * durable): the write rows then show what the engine costs without the disk (the stall rows still
 * read the seeded file and mean nothing in that mode).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createPublicKey, sign as rsaSign, verify as rsaVerify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { importSigningKey } from '../src/core/keys/key-containers.ts';
import { nodeCryptoPort } from '../src/node/node-crypto-port.ts';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from '../sandbox/checkpointer.ts';
import { NONCE_PURGE_BATCH, SandboxStore } from '../sandbox/store.ts';
import { NODE_TSX, spawnUntil, stopChild } from './lib/spawn-until.ts';
import { expectAnswer, formatLoadTable, type LoadResult, type PreparedRequest } from './lib/load.ts';
import { benchNonce as nonce, signRequest, type SigningTarget } from './lib/sign-request.ts';

export const title = 'Sandbox throughput per signature scheme (autocannon)';

// ---------------------------------------------------------------- the out-of-process run

const ROOT = resolve(import.meta.dirname, '..');
const signingCrypto = nodeCryptoPort();

/** One load in the load-generator process. */
async function loadElsewhere(
  dir: string,
  label: string,
  url: string,
  requests: PreparedRequest | readonly PreparedRequest[],
  opts: { durationSec?: number } = {},
): Promise<LoadResult> {
  const specFile = join(dir, 'load-spec.json');
  writeFileSync(specFile, JSON.stringify({ label, url, requests, connections: 10, ...opts }));
  if (process.env.BENCH_QUICK === '1') console.log(`load: ${label} ${url}`);
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

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 nearly everywhere). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user + system, all threads) in ms, from /proc; undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3 of stat(5); utime and stime are fields 14 and 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

interface LoopStats {
  round: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  gc: {
    count: number;
    over5: number;
    maxMs: number;
    totalMs: number;
    /** Per collector (minor, major, incremental, weakcb). */
    longest: Record<string, { count: number; over5: number; maxMs: number }>;
  };
  /** Gaps over 10 ms; `busy`: the process used CPU for at least half of the gap. */
  gaps: { over10: number; busy: number; idle: number };
  /** CPU time of the process (all threads) over wall time. */
  cpuShare: number;
}

async function loopStats(child: ChildProcess, file: string, round: number): Promise<LoopStats> {
  child.kill('SIGUSR2');
  for (let i = 0; i < 200; i++) {
    if (existsSync(file)) {
      const s = JSON.parse(readFileSync(file, 'utf8')) as LoopStats;
      if (s.round === round) return s;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the sandbox did not report its event-loop delay');
}

/** 500,000 live nonces, expiring evenly over the 20-minute window (400 OAuth requests/s). */
function seedNonces(dbPath: string, live: number, now: number): void {
  const store = new SandboxStore(dbPath);
  store.close();
  const db = new Database(dbPath);
  const insert = db.prepare('INSERT INTO nonces (consumer, nonce, expires_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < live; i++)
      insert.run('seed', `seed-${i}`, now + 60_000 + Math.floor((i * 1_140_000) / live));
  })();
  db.close();
}

/** A burst: `count` more nonces that all expire at `at`, added while the server runs. */
function addExpiringBurst(dbPath: string, count: number, at: number): void {
  const db = new Database(dbPath);
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare('INSERT INTO nonces (consumer, nonce, expires_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run('burst', `burst-${i}`, at);
  }).immediate();
  db.close();
}

async function presign(
  count: number,
  make: (i: number) => Promise<PreparedRequest>,
): Promise<PreparedRequest[]> {
  const out: PreparedRequest[] = [];
  for (let i = 0; i < count; i++) out.push(await make(i));
  return out;
}

/**
 * What one purge step blocks the event loop for, timed in this process on a copy of the data:
 * 500,000 live nonces and 100,000 expired. The old purge was one `DELETE … WHERE expires_at <= ?`
 * without an index on the expiry; the sandbox now deletes a bounded batch through the index.
 */
export async function purgeStalls(dir: string): Promise<{
  oldMs: number;
  batches: number;
  batchMedianMs: number;
  batchMaxMs: number;
}> {
  const now = Date.now();
  const fill = (db: Database.Database) => {
    const insert = db.prepare('INSERT INTO nonces (consumer, nonce, expires_at) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 500_000; i++) insert.run('live', `l-${i}`, now + 60_000 + i);
      for (let i = 0; i < 100_000; i++) insert.run('gone', `g-${i}`, now - 1);
    })();
  };
  const oldFile = join(dir, 'old-purge.sqlite');
  const old = new Database(oldFile);
  old.pragma('journal_mode = WAL');
  old.exec(
    'CREATE TABLE nonces (consumer TEXT NOT NULL, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (consumer, nonce))',
  );
  fill(old);
  const t0 = performance.now();
  old.prepare('DELETE FROM nonces WHERE expires_at <= ?').run(now);
  const oldMs = performance.now() - t0;
  old.close();

  // As the sandbox runs it: checkpoints in a worker thread, not on a purge's commit.
  const store = new SandboxStore(join(dir, 'new-purge.sqlite'));
  store.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const checkpointer = new Checkpointer(store.db.name, (m) => console.error(m));
  try {
    fill(store.db);
    const times: number[] = [];
    for (;;) {
      const t = performance.now();
      const n = store.nonces.purge(now);
      times.push(performance.now() - t);
      if (n < NONCE_PURGE_BATCH) break;
    }
    times.sort((a, b) => a - b);
    return {
      oldMs,
      batches: times.length,
      batchMedianMs: times[Math.floor(times.length / 2)]!,
      batchMaxMs: times[times.length - 1]!,
    };
  } finally {
    await checkpointer.stop();
    store.close();
  }
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-console-bench-'));
  const dbPath = join(dir, 'sandbox.sqlite');
  const statsFile = join(dir, 'loop.json');
  const children: ChildProcess[] = [];
  try {
    const t0 = performance.now();
    seedNonces(dbPath, 500_000, Date.now());
    console.log(`seeded 500,000 live nonces in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const tiny = await spawnUntil(['bench/lib/tiny-fastify.ts'], {}, /listening (\d+)/);
    children.push(tiny.child);
    const tinyUrl = `http://127.0.0.1:${tiny.match[1]}/tiny`;
    // BENCH_SANDBOX_PROFILE_DIR=<dir>: a CPU profile of the sandbox under the whole run, written there.
    const profileDir = process.env.BENCH_SANDBOX_PROFILE_DIR;
    const sandbox = await spawnUntil(
      [
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : []),
        '--import',
        './bench/lib/loop-monitor.ts',
        'sandbox/main.ts',
      ],
      {
        HOST: '127.0.0.1',
        SANDBOX_PORT: '0',
        DATA_DIR: dir,
        SANDBOX_DB: process.env.BENCH_SANDBOX_DB ?? dbPath,
        BENCH_LOOP_STATS: statsFile,
      },
      /listening: (http:\/\/\S+\/paynet)/,
    );
    children.push(sandbox.child);
    const baseUrl = sandbox.match[1]!;
    const demo = (await (await fetch(baseUrl.replace(/\/paynet$/, '/demo-merchant'))).json()) as {
      login: string;
      controlKey: string;
      endpointIds: string[];
      privateKeyPkcs8Pem: string;
      keyBits: number;
    };
    const target: SigningTarget = {
      baseUrl,
      login: demo.login,
      controlKey: demo.controlKey,
      endpointId: demo.endpointIds[0]!,
      privateKey: (await importSigningKey(demo.privateKeyPkcs8Pem, signingCrypto)).key,
    };

    const saleId = `bench-sale-${nonce().slice(0, 12)}`;
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
    await expectAnswer(statusUrl, status, 'status-response');
    const sandboxPid = sandbox.child.pid;

    const run = Date.now().toString(36);
    // BENCH_QUICK=1: a short run to check the bench itself (figures not meaningful).
    const scale = process.env.BENCH_QUICK === '1' ? 0.05 : 1;
    // Rounds: every row once per round, interleaved, each ratio taken within its round and the
    // median kept: the machine's speed drifts by a third over a minute, and a ratio of two
    // neighbouring runs drifts far less than either run. BENCH_SANDBOX_ROUNDS overrides.
    const rounds = Number(process.env.BENCH_SANDBOX_ROUNDS ?? 3);
    const [perSale, perHmac, perRsa] = [2500, 2500, 2000].map((n) => Math.round(n * scale)) as [
      number,
      number,
      number,
    ];
    const stallCount = Math.round(8000 * scale);
    const t1 = performance.now();
    const sales = await presign(300 + rounds * perSale, (i) =>
      signRequest(target, 'v2/sale', { client_orderid: `bench-s-${run}-${i}`, cvv2: '123' }),
    );
    const hmac = await presign(300 + rounds * perHmac + stallCount, (i) =>
      signRequest(target, 'v2/payout', {
        client_orderid: `bench-p-${run}-${i}`,
        account_number: 'GB29NWBK60161331926819',
        bank_name: 'Example Bank',
      }),
    );
    const rsa = await presign(300 + rounds * perRsa, (i) =>
      signRequest(target, 'v4/payout-check', { client_orderid: `bench-pc-${run}-${i}` }),
    );
    // The same sale as a pre-JSON client sends it: no Accept (the gateway's default dialect).
    const legacy = (
      await presign(300 + rounds * perSale, (i) =>
        signRequest(target, 'v2/sale', { client_orderid: `bench-l-${run}-${i}`, cvv2: '123' }),
      )
    ).map((r) => ({
      ...r,
      headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'accept')),
    }));
    console.log(
      `pre-signed ${sales.length} control sales, ${hmac.length} HMAC-SHA1 payouts and ${rsa.length} RSA-SHA256 (${demo.keyBits}) payout-checks in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
    );
    const saleUrl = `${baseUrl}/${sales[0]!.path}`;
    const first = await fetch(saleUrl, {
      method: 'POST',
      headers: legacy[0]!.headers,
      body: legacy[0]!.body,
    });
    const firstText = await first.text();
    if (first.status !== 200 || !firstText.startsWith('type=async-response\n'))
      throw new Error(`legacy sale: ${first.status} ${firstText.slice(0, 200)}`);
    const hmacUrl = `${baseUrl}/${hmac[0]!.path}`;
    const rsaUrl = `${baseUrl}/${rsa[0]!.path}`;
    for (const [url, list] of [
      [saleUrl, sales],
      [hmacUrl, hmac],
      [rsaUrl, rsa],
    ] as const) {
      await expectAnswer(url, list[0]!, 'async-response');
    }

    // Warm-up (JIT, connections, statement cache) in the same processes, then the measured runs.
    const tinyReq: PreparedRequest = {
      path: 'tiny',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    };
    await loadElsewhere(dir, 'warm-up', tinyUrl, tinyReq, { durationSec: 1 });
    await loadElsewhere(dir, 'warm-up', statusUrl, status, { durationSec: 1 });
    await loadElsewhere(dir, 'warm-up', saleUrl, sales.slice(1, 300));
    await loadElsewhere(dir, 'warm-up', saleUrl, legacy.slice(1, 300));
    await loadElsewhere(dir, 'warm-up', hmacUrl, hmac.slice(1, 300));
    await loadElsewhere(dir, 'warm-up', rsaUrl, rsa.slice(1, 300));

    const labels = {
      ceiling: 'minimal fastify app (tiny JSON)',
      read: 'v2/status (control, read)',
      control: 'v2/sale (control, write)',
      legacy: 'v2/sale, no Accept (gateway dialect)',
      hmac: 'v2/payout (HMAC-SHA1, write)',
      rsa: `v4/payout-check (RSA-SHA256 ${demo.keyBits}, write)`,
    };
    const runs: Array<Record<keyof typeof labels, LoadResult>> = [];
    /** The sandbox's CPU µs per request of the two sales, per round (undefined without /proc). */
    const cpu: Array<{ control: number; legacy: number } | undefined> = [];
    /** One load, with the sandbox's CPU time per request over it. */
    const withCpu = async (
      label: string,
      url: string,
      list: readonly PreparedRequest[],
    ): Promise<[LoadResult, number | undefined]> => {
      const before = cpuMsOf(sandboxPid);
      const result = await loadElsewhere(dir, label, url, list);
      const after = cpuMsOf(sandboxPid);
      return [
        result,
        before === undefined || after === undefined ? undefined : ((after - before) * 1000) / result.requests,
      ];
    };
    for (let r = 0; r < rounds; r++) {
      const slice = <T>(list: readonly T[], per: number) => list.slice(300 + r * per, 300 + (r + 1) * per);
      const ceiling = await loadElsewhere(dir, labels.ceiling, tinyUrl, tinyReq, { durationSec: 3 });
      const read = await loadElsewhere(dir, labels.read, statusUrl, status, { durationSec: 3 });
      // JSON and legacy sales in alternating order from round to round: neither always goes first.
      const [a, b] = r % 2 === 0 ? (['control', 'legacy'] as const) : (['legacy', 'control'] as const);
      const lists = { control: sales, legacy };
      const one = await withCpu(labels[a], saleUrl, slice(lists[a], perSale));
      const two = await withCpu(labels[b], saleUrl, slice(lists[b], perSale));
      const got = { [a]: one, [b]: two } as Record<'control' | 'legacy', [LoadResult, number | undefined]>;
      cpu.push(
        got.control[1] !== undefined && got.legacy[1] !== undefined
          ? { control: got.control[1], legacy: got.legacy[1] }
          : undefined,
      );
      runs.push({
        ceiling,
        read,
        control: got.control[0],
        legacy: got.legacy[0],
        hmac: await loadElsewhere(dir, labels.hmac, hmacUrl, slice(hmac, perHmac)),
        rsa: await loadElsewhere(dir, labels.rsa, rsaUrl, slice(rsa, perRsa)),
      });
    }
    const hmacStall = hmac.slice(300 + rounds * perHmac);

    // Event-loop stalls: 500,000 live nonces, 100,000 more expiring at once, under HMAC load.
    addExpiringBurst(dbPath, 100_000, Date.now() + 2_000);
    await loopStats(sandbox.child, statsFile, 1);
    const stallLoad = await loadElsewhere(dir, 'v2/payout during the purge', hmacUrl, hmacStall);
    const stalls = await loopStats(sandbox.child, statsFile, 2);
    const left = new Database(dbPath, { readonly: true });
    const burstLeft = (
      left.prepare("SELECT count(*) AS n FROM nonces WHERE consumer = 'burst'").get() as { n: number }
    ).n;
    const live = (left.prepare('SELECT count(*) AS n FROM nonces').get() as { n: number }).n;
    left.close();

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    /** A row's runs folded into one: medians of rate and latencies, all requests counted. */
    const fold = (key: keyof typeof labels): LoadResult => {
      const rs = runs.map((x) => x[key]);
      return {
        label: labels[key],
        requests: rs.reduce((n, x) => n + x.requests, 0),
        rps: median(rs.map((x) => x.rps)),
        seconds: rs.reduce((n, x) => n + x.seconds, 0),
        median: median(rs.map((x) => x.median)),
        p95: median(rs.map((x) => x.p95)),
        p99: median(rs.map((x) => x.p99)),
        max: Math.max(...rs.map((x) => x.max)),
      };
    };
    /** The median over the rounds of a ratio taken within each round, with its range. */
    const ratio = (f: (x: (typeof runs)[number]) => number) => {
      const v = runs.map(f);
      return `${median(v).toFixed(2)}× (rounds ${v.map((x) => x.toFixed(2)).join(', ')})`;
    };
    const cpuRounds = cpu.filter((c): c is { control: number; legacy: number } => c !== undefined);
    const cpuText =
      cpuRounds.length === 0
        ? 'CPU per request: not measured (no /proc on this system)'
        : `sandbox CPU per request ${median(cpuRounds.map((c) => c.legacy)).toFixed(0)} µs vs ${median(cpuRounds.map((c) => c.control)).toFixed(0)} µs JSON: ${median(cpuRounds.map((c) => c.legacy / c.control)).toFixed(2)}× (rounds ${cpuRounds.map((c) => (c.legacy / c.control).toFixed(2)).join(', ')})`;
    // Floors: today's ratios (issue 20), kept so a regression beyond the noise shows. The goals
    // "writes ≥ 0.5× status" and "RSA ≤ 1.2× a sale" were withdrawn there.
    const rows: Array<[LoadResult, string, string]> = [
      [fold('ceiling'), '1.00× (ceiling)', ''],
      [fold('read'), `${ratio((x) => x.read.rps / x.ceiling.rps)} ceiling`, 'floor 0.37× ceiling'],
      [fold('control'), `${ratio((x) => x.control.rps / x.read.rps)} status`, 'floor 0.39× status'],
      [
        fold('legacy'),
        `${ratio((x) => x.legacy.rps / x.control.rps)} the JSON sale's rate; ${cpuText}`,
        'CPU ≤ 1.10× the JSON sale',
      ],
      [
        fold('hmac'),
        `${ratio((x) => x.hmac.rps / x.read.rps)} status; ${ratio((x) => x.control.rps / x.hmac.rps)} the control sale's time`,
        '',
      ],
      [
        fold('rsa'),
        `${ratio((x) => x.rsa.rps / x.read.rps)} status; ${ratio((x) => x.control.rps / x.rsa.rps)} the control sale's time`,
        '',
      ],
    ];
    console.log(
      `\nServer and load generator in separate processes, 10 connections; the sandbox with ${process.env.BENCH_SANDBOX_DB ? `SANDBOX_DB=${process.env.BENCH_SANDBOX_DB}` : 'default settings'}; ${rounds} interleaved rounds, medians (ratios taken within each round).\n`,
    );
    console.log(formatLoadTable(rows.map(([r]) => r)));
    console.log('');
    const w = Math.max(...rows.map(([r]) => r.label.length));
    for (const [r, text, goal] of rows)
      console.log(`${r.label.padEnd(w)}  ${text}${goal ? `   (goal ${goal})` : ''}`);
    console.log(
      `\nEvent-loop delay of the sandbox (wall clock: on a busy machine it includes time the OS did not run the process) at ${live.toLocaleString('en-US')} live nonces while 100,000 expired at once (${burstLeft} left unpurged), under ${Math.round(stallLoad.rps)} HMAC req/s: p50 ${stalls.p50.toFixed(2)} ms, p99 ${stalls.p99.toFixed(2)} ms, max ${stalls.max.toFixed(2)} ms (goal: stalls ≤ 5 ms). In the same window: ${stalls.gc.count} GC pauses, ${stalls.gc.over5} over 5 ms, the longest ${stalls.gc.maxMs.toFixed(1)} ms (${Object.entries(
        stalls.gc.longest,
      )
        .map(([kind, k]) => `${kind}: ${k.count}, ${k.over5} over 5 ms, max ${k.maxMs.toFixed(1)} ms`)
        .join(
          '; ',
        )}); ${stalls.gaps.over10} gaps over 10 ms, ${stalls.gaps.busy} with the process busy across them and ${stalls.gaps.idle} with it not running (the OS or I/O); the process had ${stalls.cpuShare.toFixed(2)} of a core.`,
    );
    const verifyUs = rsaVerifyMicros(demo.privateKeyPkcs8Pem, rsa[1]!.body);
    console.log(
      `\nOne RSA-${demo.keyBits} verification takes ${verifyUs.toFixed(1)} µs here (node:crypto, a text the size of the request, median of 20 × 100, in this process).`,
    );
    const purge = await purgeStalls(dir);
    console.log(
      `Purge of 100,000 expired among 500,000 live nonces, blocking time per step: before (one DELETE, no expiry index) ${purge.oldMs.toFixed(1)} ms; now ${purge.batches} batches of ${NONCE_PURGE_BATCH}, median ${purge.batchMedianMs.toFixed(2)} ms, max ${purge.batchMaxMs.toFixed(2)} ms, the event loop free between batches (goal: stalls ≤ 5 ms).`,
    );
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Microseconds per RSA-SHA256 verification of `text` (median of 20 batches of 100), in this process. */
function rsaVerifyMicros(privateKeyPem: string, text: string): number {
  const data = Buffer.from(text, 'utf8');
  const signature = rsaSign('sha256', data, privateKeyPem);
  const key = createPublicKey(privateKeyPem);
  const batches: number[] = [];
  for (let b = 0; b < 21; b++) {
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) if (!rsaVerify('sha256', data, key, signature)) throw new Error('verify');
    if (b > 0) batches.push(((performance.now() - t0) * 1000) / 100);
  }
  return batches.sort((a, b) => a - b)[batches.length >> 1]!;
}
