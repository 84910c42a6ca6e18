/**
 * A room on loopback (issue 11, Scale): `npm run classroom`'s server in its own process; here, N
 * simulated trainees (default 60) each join with a key pair of their own, then send one signed
 * request a second through the proxy with their session cookie (v2/sale with control, v2/payout
 * with HMAC-SHA1, v4/payout-check with RSA-SHA256, in turn), while a trainer page's event stream is
 * open. Prints the answer times (median, p95, p99) against a baseline measured first in the same
 * run (one trainee, requests one after the other, the room idle), errors, the server's memory over
 * the run, and how long the trainer page takes to show a passed check (each trainee's first
 * accepted payout passes "payout-hmac": from its answer to the snapshot that marks it done).
 *
 * BENCH_CLASSROOM_TRAINEES (default 60) and BENCH_CLASSROOM_SECONDS (default 60; the issue's figure
 * is 600) size the run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { webCryptoPort } from '../src/core/index.ts';
import { importSigningKey } from '../src/core/keys/key-containers.ts';
import { benchNonce as nonce, signRequest, type SigningTarget } from './lib/sign-request.ts';

export const title = 'Classroom: a room of trainees on loopback (server and load in separate processes)';

const crypto = webCryptoPort();
const TRAINEES = Number(process.env.BENCH_CLASSROOM_TRAINEES ?? 60);
const SECONDS = Number(process.env.BENCH_CLASSROOM_SECONDS ?? 60);

interface Child {
  proc: ChildProcess;
  port: number;
  token: string;
}

function startServer(): Promise<Child> {
  const proc = fork(fileURLToPath(new URL('./lib/classroom-server-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (m: { type: string; port?: number; token?: string; message?: string }) =>
      m.type === 'ready' ? resolve({ proc, port: m.port!, token: m.token! }) : reject(new Error(m.message)),
    );
    proc.once('exit', (code) => reject(new Error(`the classroom child exited (${code})`)));
  });
}

function memory(c: Child): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    const on = (m: { type: string; rss: number; heapUsed: number }) => {
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
  payoutAnsweredAt: number | null;
}

async function join(origin: string, name: string): Promise<Trainee> {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const res = await fetch(`${origin}/classroom/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ name, publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }) }),
  });
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
    payoutAnsweredAt: null,
  };
}

const OPS = ['v2/sale', 'v2/payout', 'v4/payout-check'] as const;

/** Signs with the console's own core, as the trainee's browser does; answers the proxy's answer. */
async function send(origin: string, t: Trainee, opPath: string): Promise<{ ms: number; ok: boolean }> {
  const req = await signRequest(t, opPath, {
    client_orderid: `b-${t.endpointId}-${t.sent}-${nonce().slice(0, 8)}`,
    cvv2: '123',
  });
  const headers: Record<string, string> = { ...req.headers, origin, cookie: t.cookie };
  t.sent += 1;
  const t0 = performance.now();
  try {
    const res = await fetch(`${origin}/proxy/local/${req.path}`, {
      method: 'POST',
      headers,
      body: req.body,
    });
    const envelope = (await res.json()) as { status?: number; body?: string };
    const ms = performance.now() - t0;
    const ok =
      res.status === 200 &&
      envelope.status === 200 &&
      !/"type":"(validation-)?error"/.test(envelope.body ?? '');
    if (ok && opPath === 'v2/payout' && t.payoutAnsweredAt === null) t.payoutAnsweredAt = Date.now();
    return { ms, ok };
  } catch {
    return { ms: performance.now() - t0, ok: false };
  }
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Follows the trainer page's event stream; calls back with each snapshot's time of arrival. */
async function followTrainer(
  origin: string,
  cookie: string,
  onSnapshot: (s: {
    trainees: Array<{ name: string; results: Array<{ id: string; state: string }> }>;
  }) => void,
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
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (data) onSnapshot(JSON.parse(data.slice(6)));
      }
    }
  } catch {
    // Aborted at the end of the run.
  }
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

export async function run(): Promise<void> {
  const server = await startServer();
  const origin = `http://127.0.0.1:${server.port}`;
  try {
    const login = await fetch(`${origin}/classroom/trainer-login?token=${server.token}`, {
      redirect: 'manual',
    });
    const trainerCookie = login.headers.get('set-cookie')!.split(';')[0]!;

    // Baseline: one trainee, requests one after the other, nobody else in the room.
    const solo = await join(origin, 'baseline');
    const base: number[] = [];
    for (let i = 0; i < 60; i++) base.push((await send(origin, solo, OPS[i % 3]!)).ms);
    base.sort((a, b) => a - b);

    const trainees: Trainee[] = [];
    const joinT0 = performance.now();
    for (let i = 0; i < TRAINEES; i++) trainees.push(await join(origin, `trainee ${i + 1}`));
    const joinMs = (performance.now() - joinT0) / TRAINEES;

    const shown = new Map<string, number>();
    const abort = new AbortController();
    const stream = followTrainer(
      origin,
      trainerCookie,
      (s) => {
        const now = Date.now();
        for (const t of s.trainees)
          if (!shown.has(t.name) && t.results.some((r) => r.id === 'payout-hmac' && r.state === 'done'))
            shown.set(t.name, now);
      },
      abort.signal,
    );

    const times: number[] = [];
    let errors = 0;
    const mem = [await memory(server)];
    const until = Date.now() + SECONDS * 1000;
    // Each trainee sends once a second, the room spread evenly over the second.
    await Promise.all(
      trainees.map(async (t, i) => {
        await new Promise((r) => setTimeout(r, (i * 1000) / trainees.length));
        let k = i;
        while (Date.now() < until) {
          const started = Date.now();
          const r = await send(origin, t, OPS[k++ % 3]!);
          times.push(r.ms);
          if (!r.ok) errors += 1;
          await new Promise((res) => setTimeout(res, Math.max(0, 1000 - (Date.now() - started))));
        }
      }),
    );
    mem.push(await memory(server));
    await new Promise((r) => setTimeout(r, 1500));
    abort.abort();
    await stream;

    times.sort((a, b) => a - b);
    const reflect = trainees
      .filter((t) => t.payoutAnsweredAt !== null && shown.has(t.name))
      .map((t) => shown.get(t.name)! - t.payoutAnsweredAt!)
      .sort((a, b) => a - b);
    const fmt = (n: number) => `${n.toFixed(2)} ms`;
    console.log(
      `${TRAINEES} trainees × ${SECONDS} s, one signed request per trainee per second, trainer stream open`,
    );
    console.log('');
    console.log('| measure | value | ratio to baseline median |');
    console.log('|---|---|---|');
    console.log(`| baseline answer time, one trainee alone (median of 60) | ${fmt(pct(base, 50))} | 1.00× |`);
    console.log(
      `| room answer time, median | ${fmt(pct(times, 50))} | ${(pct(times, 50) / pct(base, 50)).toFixed(2)}× |`,
    );
    console.log(
      `| room answer time, p95 (goal < 50 ms) | ${fmt(pct(times, 95))} | ${(pct(times, 95) / pct(base, 50)).toFixed(2)}× |`,
    );
    console.log(
      `| room answer time, p99 | ${fmt(pct(times, 99))} | ${(pct(times, 99) / pct(base, 50)).toFixed(2)}× |`,
    );
    console.log(`| requests answered | ${times.length} | |`);
    console.log(`| errors (refused or failed; goal 0) | ${errors} | |`);
    console.log(`| join, per trainee (client key generation included) | ${fmt(joinMs)} | |`);
    console.log(
      `| trainer page shows a passed check, median / p95 / max of ${reflect.length} (goal < 1 s) | ${reflect.length ? `${fmt(pct(reflect, 50))} / ${fmt(pct(reflect, 95))} / ${fmt(reflect[reflect.length - 1]!)}` : 'none seen'} | |`,
    );
    console.log(
      `| server memory rss / heap, start → end | ${mb(mem[0]!.rss)} / ${mb(mem[0]!.heapUsed)} → ${mb(mem[1]!.rss)} / ${mb(mem[1]!.heapUsed)} | |`,
    );
  } finally {
    const exited = new Promise<void>((r) => server.proc.once('exit', () => r()));
    server.proc.kill('SIGTERM');
    await exited;
  }
}
