/**
 * A room on loopback (issues 11 and 32 §5): `npm run classroom`'s server in its own process; here,
 * N simulated trainees (default 60) each join, then send one signed request a second through the
 * proxy with their session cookie (v2/sale with control, v2/payout with HMAC-SHA1, v4/payout-check
 * with RSA-SHA256, in turn), while a trainer page's event stream is open. Prints the answer times
 * (median, p95, p99) against a baseline measured first in the same run (one trainee, requests one
 * after the other, the room idle), errors by kind, the server's memory and CPU over the run, and
 * the trainer view's update delay: from the answer of each trainee's payout to the first event
 * (snapshot or delta) that counts it (every payout of the run, not only the first). Each trainee's
 * requests are signed before the timed run, so the load generator's core goes to sending.
 *
 * BENCH_CLASSROOM_TRAINEES (default 60) and BENCH_CLASSROOM_SECONDS (default 60) size the run.
 * BENCH_CLASSROOM_BEFORE=<another checkout> measures that checkout's server first, then this one,
 * in the same run (an A/B of a change). Trainees share BENCH_CLASSROOM_KEYS RSA key pairs (default
 * 50; key generation is the load generator's cost, not the server's). BENCH_CLASSROOM_CPU_PROF=<dir>
 * has each server child write a V8 CPU profile there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, type KeyPairKeyObjectResult } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { webCryptoPort } from '../src/core/index.ts';
import { importSigningKey } from '../src/core/keys/key-containers.ts';
import { benchNonce as nonce, signRequest, type SigningTarget } from './lib/sign-request.ts';
import type { PreparedRequest } from './lib/load.ts';

export const title = 'Classroom: a room of trainees on loopback (server and load in separate processes)';

const crypto = webCryptoPort();
const TRAINEES = Number(process.env.BENCH_CLASSROOM_TRAINEES ?? 60);
const SECONDS = Number(process.env.BENCH_CLASSROOM_SECONDS ?? 60);
const KEYS = Math.min(TRAINEES + 1, Number(process.env.BENCH_CLASSROOM_KEYS ?? 50));
const BEFORE = process.env.BENCH_CLASSROOM_BEFORE;

interface Child {
  proc: ChildProcess;
  port: number;
  token: string;
}

function startServer(root: string | undefined): Promise<Child> {
  const proc = fork(
    fileURLToPath(new URL('./lib/classroom-server-child.ts', import.meta.url)),
    root ? [root] : [],
    {
      // BENCH_CLASSROOM_CPU_PROF=<dir>: the server child writes a V8 CPU profile there on exit.
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.BENCH_CLASSROOM_CPU_PROF
          ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CLASSROOM_CPU_PROF]
          : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_CLASSROOM_MAX: String(TRAINEES + 10) },
    },
  );
  return new Promise((resolve, reject) => {
    proc.once('message', (m: { type: string; port?: number; token?: string; message?: string }) =>
      m.type === 'ready' ? resolve({ proc, port: m.port!, token: m.token! }) : reject(new Error(m.message)),
    );
    proc.once('exit', (code) => reject(new Error(`the classroom child exited (${code})`)));
  });
}

interface Mem {
  rss: number;
  heapUsed: number;
  cpuMs: number;
}

function memory(c: Child): Promise<Mem> {
  return new Promise((resolve) => {
    const on = (m: Mem & { type: string }) => {
      if (m.type !== 'mem') return;
      c.proc.off('message', on);
      resolve(m);
    };
    c.proc.on('message', on);
    c.proc.send({ type: 'mem' });
  });
}

interface Trainee extends SigningTarget {
  name: string;
  cookie: string;
  sent: number;
  /** When each accepted payout's answer arrived here, in order. */
  payouts: number[];
  /** How many of those a trainer snapshot has counted so far. */
  payoutsShown: number;
}

const pairs: KeyPairKeyObjectResult[] = [];
function keyPair(i: number): KeyPairKeyObjectResult {
  while (pairs.length <= i % KEYS) pairs.push(generateKeyPairSync('rsa', { modulusLength: 2048 }));
  return pairs[i % KEYS]!;
}

async function join(origin: string, name: string, i: number): Promise<Trainee> {
  const pair = keyPair(i);
  const post = () =>
    fetch(`${origin}/classroom/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ name, publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }) }),
    });
  // A kept-alive connection the server closed at that moment resets: one more try.
  const res = await post().catch(post);
  if (res.status !== 201) throw new Error(`join failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Record<string, string>;
  const key = await importSigningKey(
    String(pair.privateKey.export({ type: 'pkcs8', format: 'pem' })),
    crypto,
  );
  return {
    name,
    cookie: res.headers.get('set-cookie')!.split(';')[0]!,
    baseUrl: `${origin}/sandbox/paynet`,
    login: body.login!,
    controlKey: body.controlKey!,
    endpointId: body.endpointId!,
    privateKey: key.key,
    sent: 0,
    payouts: [],
    payoutsShown: 0,
  };
}

const OPS = ['v2/sale', 'v2/payout', 'v4/payout-check'] as const;

/** Signs with the console's own core, as the trainee's browser does; answers the proxy's answer. */
function sign(t: Trainee, opPath: string, n: number): Promise<PreparedRequest> {
  return signRequest(t, opPath, {
    client_orderid: `b-${t.endpointId}-${n}-${nonce().slice(0, 8)}`,
    cvv2: '123',
  });
}

async function send(
  origin: string,
  t: Trainee,
  opPath: string,
  signed?: PreparedRequest,
): Promise<{ ms: number; ok: boolean; why?: string }> {
  const req = signed ?? (await sign(t, opPath, t.sent));
  const headers: Record<string, string> = { ...req.headers, origin, cookie: t.cookie };
  t.sent += 1;
  const t0 = performance.now();
  try {
    const res = await fetch(`${origin}/proxy/local/${req.path}`, {
      method: 'POST',
      headers,
      body: req.body,
    });
    const envelope = (await res.json()) as { status?: number; body?: string; error?: { code?: string } };
    const ms = performance.now() - t0;
    if (res.status !== 200)
      return { ms, ok: false, why: `proxy ${res.status} ${envelope.error?.code ?? ''}` };
    if (envelope.status !== 200) return { ms, ok: false, why: `sandbox ${envelope.status}` };
    const type = /"type":"((validation-)?error)"/.exec(envelope.body ?? '');
    if (type) {
      const code = /"error-code":"([^"]*)"/.exec(envelope.body ?? '')?.[1] ?? '';
      return { ms, ok: false, why: `${opPath} ${type[1]} ${code}` };
    }
    if (opPath === 'v2/payout') t.payouts.push(Date.now());
    return { ms, ok: true };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return {
      ms: performance.now() - t0,
      ok: false,
      why: `fetch ${cause?.code ?? cause?.message ?? String(e)}`,
    };
  }
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

type Rows = { trainees: Array<{ name: string; results: Array<{ id: string; attempts: number }> }> };

/**
 * Follows the trainer page's event stream; calls back with each event's rows (a snapshot's every
 * row, a delta's changed ones) and the event's size.
 */
async function followTrainer(
  origin: string,
  cookie: string,
  onRows: (s: Rows, bytes: number, kind: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await fetch(`${origin}/classroom/trainer/events`, { headers: { cookie }, signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = frame.split('\n');
        const data = lines.find((l) => l.startsWith('data: '));
        const kind = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
        if (data) onRows(JSON.parse(data.slice(6)) as Rows, data.length, kind);
      }
    }
  } catch {
    // Aborted at the end of the run.
  }
}

interface Figures {
  base: number[];
  times: number[];
  errors: number;
  /** Each error's kind (the proxy's or sandbox's status and code, or the fetch failure) and count. */
  reasons: Map<string, number>;
  joinMs: number;
  /** Signing every request of the run beforehand. */
  signMs: number;
  delays: number[];
  unseen: number;
  snapshots: number;
  snapshotBytes: number;
  deltas: number;
  deltaBytes: number;
  mem: Mem[];
  loadCpuMs: number;
}

async function measureRoom(root: string | undefined): Promise<Figures> {
  const server = await startServer(root);
  const origin = `http://127.0.0.1:${server.port}`;
  try {
    const login = await fetch(`${origin}/classroom/trainer-login?token=${server.token}`, {
      redirect: 'manual',
    });
    const trainerCookie = login.headers.get('set-cookie')!.split(';')[0]!;

    // Baseline: one trainee, requests one after the other, nobody else in the room.
    const solo = await join(origin, 'baseline', TRAINEES);
    const base: number[] = [];
    for (let i = 0; i < 60; i++) base.push((await send(origin, solo, OPS[i % 3]!)).ms);
    base.sort((a, b) => a - b);

    const trainees: Trainee[] = [];
    const joinT0 = performance.now();
    for (let i = 0; i < TRAINEES; i++) trainees.push(await join(origin, `trainee ${i + 1}`, i));
    const joinMs = (performance.now() - joinT0) / TRAINEES;

    const byName = new Map(trainees.map((t) => [t.name, t]));
    const delays: number[] = [];
    let snapshots = 0;
    let snapshotBytes = 0;
    let deltas = 0;
    let deltaBytes = 0;
    const abort = new AbortController();
    const stream = followTrainer(
      origin,
      trainerCookie,
      (s, bytes, kind) => {
        const now = Date.now();
        if (kind === 'delta') {
          deltas += 1;
          deltaBytes += bytes;
        } else {
          snapshots += 1;
          snapshotBytes = bytes;
        }
        for (const row of s.trainees) {
          const t = byName.get(row.name);
          const shown = row.results.find((r) => r.id === 'payout-hmac')?.attempts ?? 0;
          if (!t) continue;
          for (; t.payoutsShown < Math.min(shown, t.payouts.length); t.payoutsShown++)
            delays.push(Math.max(0, now - t.payouts[t.payoutsShown]!));
        }
      },
      abort.signal,
    );

    // Each trainee's requests of the run, signed before it starts (the OAuth timestamps stay well
    // inside the sandbox's window), so the load generator's core goes to sending: the server still
    // verifies every signature.
    const signT0 = performance.now();
    const presigned = await Promise.all(
      trainees.map(async (t, i) => {
        const list: PreparedRequest[] = [];
        for (let n = 0; n <= SECONDS; n++) list.push(await sign(t, OPS[(i + n) % 3]!, n));
        return list;
      }),
    );
    const signMs = performance.now() - signT0;

    const times: number[] = [];
    let errors = 0;
    const reasons = new Map<string, number>();
    const mem = [await memory(server)];
    const cpu0 = process.cpuUsage();
    const until = Date.now() + SECONDS * 1000;
    // Each trainee sends once a second, the room spread evenly over the second.
    await Promise.all(
      trainees.map(async (t, i) => {
        await new Promise((r) => setTimeout(r, (i * 1000) / trainees.length));
        let n = 0;
        while (Date.now() < until) {
          const started = Date.now();
          const r = await send(origin, t, OPS[(i + n) % 3]!, presigned[i]![n++]);
          times.push(r.ms);
          if (process.env.BENCH_CLASSROOM_SLOW && r.ms > 2000)
            console.log(
              `slow: trainee ${i} request ${n} sent at +${started - (until - SECONDS * 1000)} ms took ${r.ms.toFixed(0)} ms`,
            );
          if (!r.ok) {
            errors += 1;
            reasons.set(r.why ?? '?', (reasons.get(r.why ?? '?') ?? 0) + 1);
          }
          await new Promise((res) => setTimeout(res, Math.max(0, 1000 - (Date.now() - started))));
        }
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    mem.push(await memory(server));
    await new Promise((r) => setTimeout(r, 2000));
    abort.abort();
    await stream;
    const unseen = trainees.reduce((n, t) => n + t.payouts.length - t.payoutsShown, 0);
    times.sort((a, b) => a - b);
    delays.sort((a, b) => a - b);
    return {
      base,
      times,
      errors,
      reasons,
      joinMs,
      signMs,
      delays,
      unseen,
      snapshots,
      snapshotBytes,
      deltas,
      deltaBytes,
      mem,
      loadCpuMs: (cpu.user + cpu.system) / 1000,
    };
  } finally {
    const exited = new Promise<void>((r) => server.proc.once('exit', () => r()));
    server.proc.kill('SIGTERM');
    await exited;
  }
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const fmt = (n: number) => `${n.toFixed(1)} ms`;

function rows(label: string, f: Figures): string[] {
  const b = pct(f.base, 50);
  const cores = (ms: number) => (ms / 1000 / SECONDS).toFixed(2);
  return [
    `| ${label}: one trainee alone, median of 60 | ${fmt(b)} | 1.00× |`,
    `| ${label}: room answer time, median / p95 (goal < 50 ms) / p99 | ${fmt(pct(f.times, 50))} / **${fmt(pct(f.times, 95))}** / ${fmt(pct(f.times, 99))} | p95 ${(pct(f.times, 95) / b).toFixed(2)}× |`,
    `| ${label}: requests answered / errors (goal 0) | ${f.times.length} / ${f.errors} | ${(f.times.length / SECONDS).toFixed(0)} req/s |`,
    `| ${label}: errors by kind | ${[...f.reasons].map(([k, n]) => `${k}: ${n}`).join('; ') || 'none'} | |`,
    `| ${label}: trainer view update delay, median / p95 / max of ${f.delays.length} payouts (goal < 1 s) | ${fmt(pct(f.delays, 50))} / **${fmt(pct(f.delays, 95))}** / ${fmt(f.delays[f.delays.length - 1] ?? NaN)} | ${f.unseen} never shown |`,
    `| ${label}: trainer snapshots received, last one's size | ${f.snapshots} (${(f.snapshots / SECONDS).toFixed(1)}/s), ${(f.snapshotBytes / 1024).toFixed(0)} KB | |`,
    `| ${label}: trainer deltas received, mean size | ${f.deltas} (${(f.deltas / SECONDS).toFixed(1)}/s), ${(f.deltaBytes / Math.max(1, f.deltas) / 1024).toFixed(0)} KB | |`,
    `| ${label}: server memory rss / heap, start → end | ${mb(f.mem[0]!.rss)} / ${mb(f.mem[0]!.heapUsed)} → ${mb(f.mem[1]!.rss)} / ${mb(f.mem[1]!.heapUsed)} | |`,
    `| ${label}: CPU, server / load generator (cores busy) | ${cores(f.mem[1]!.cpuMs - f.mem[0]!.cpuMs)} / ${cores(f.loadCpuMs)} | |`,
    `| ${label}: join, per trainee | ${fmt(f.joinMs)} | |`,
    `| ${label}: signing the run's requests beforehand (not timed) | ${(f.signMs / 1000).toFixed(1)} s | |`,
  ];
}

export async function run(): Promise<void> {
  const before = BEFORE ? await measureRoom(BEFORE) : undefined;
  const after = await measureRoom(undefined);
  console.log(
    `${TRAINEES} trainees × ${SECONDS} s, one signed request per trainee per second, trainer stream open`,
  );
  console.log('');
  console.log('| measure | value | note |');
  console.log('|---|---|---|');
  if (before) for (const r of rows('before', before)) console.log(r);
  for (const r of rows(before ? 'after' : 'room', after)) console.log(r);
}
