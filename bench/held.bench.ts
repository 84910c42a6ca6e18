/**
 * One trainee holding answers against a room (issue 27 §1): `npm run classroom`'s server in its own
 * process, an abuser in another (lib/held-abuser-child.ts: 64 loops, each a signed sale on a new
 * connection as soon as the last is answered or 20 ms later, up to 1,000 open, half with `X-Sandbox-Scenario:
 * processed-timeout;delay-ms=600000`, the trainer having chosen that same scenario for this
 * trainee), and here 60 trainees sending one signed request a second through the proxy, each on a
 * new connection (a browser's worst case: every request goes through the server's accept loop).
 * Prints the 60's answer times (median, p95, p99) with the room alone first (the baseline, same
 * run) and then beside the abuser, their errors, what the abuser got, and the trainer page's
 * answers meanwhile.
 *
 * BENCH_HELD_TRAINEES (default 60) and BENCH_HELD_SECONDS (default 30 per phase) size the run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { benchNonce as nonce, signRequest, type SigningTarget } from './lib/sign-request.ts';

export const title = 'Classroom: one trainee holding answers, 60 trainees served (separate processes)';

const TRAINEES = Number(process.env.BENCH_HELD_TRAINEES ?? 60);
const SECONDS = Number(process.env.BENCH_HELD_SECONDS ?? 30);
const ABUSER_LOOPS = 64;

function forkChild(file: string): ChildProcess {
  return fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function message<T extends { type: string }>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const on = (m: T & { message?: string }) => {
      if (m.type === 'failed') reject(new Error(m.message));
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.once('exit', (code) => reject(new Error(`a bench child exited (${code})`)));
  });
}

interface Trainee extends SigningTarget {
  id: string;
  cookie: string;
  sent: number;
}

async function join(origin: string, name: string): Promise<Trainee> {
  const { generateKeyPairSync } = await import('node:crypto');
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const res = await fetch(`${origin}/classroom/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ name, publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }) }),
  });
  if (res.status !== 201) throw new Error(`join failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Record<string, string>;
  return {
    id: body.traineeId!,
    cookie: res.headers.get('set-cookie')!.split(';')[0]!,
    baseUrl: `${origin}/sandbox/paynet`,
    login: body.login!,
    controlKey: body.controlKey!,
    endpointId: body.endpointId!,
    sent: 0,
  };
}

/** One request on a new connection; its time to the whole answer and whether it was taken. */
function send(
  origin: URL,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  method = 'POST',
): Promise<{ ms: number; status: number; text: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      { host: origin.hostname, port: origin.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            ms: performance.now() - t0,
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', () => resolve({ ms: performance.now() - t0, status: 0, text: '' }));
    req.end(body);
  });
}

async function traineeRequest(origin: string, t: Trainee): Promise<{ ms: number; ok: boolean }> {
  const r = await signRequest(t, 'v2/sale', {
    client_orderid: `h-${t.endpointId}-${t.sent++}-${nonce().slice(0, 8)}`,
    cvv2: '123',
  });
  const a = await send(
    new URL(origin),
    `/proxy/local/${r.path}`,
    { ...r.headers, origin, cookie: t.cookie },
    r.body,
  );
  const ok =
    a.status === 200 && /"status":200/.test(a.text) && !/\\"type\\":\\"(validation-)?error/.test(a.text);
  return { ms: a.ms, ok };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** The room for `seconds`: each trainee once a second, spread over the second. */
async function roomPhase(origin: string, trainees: Trainee[], seconds: number) {
  const times: number[] = [];
  let errors = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    trainees.map(async (t, i) => {
      await new Promise((r) => setTimeout(r, (i * 1000) / trainees.length));
      while (Date.now() < until) {
        const started = Date.now();
        const r = await traineeRequest(origin, t);
        times.push(r.ms);
        if (!r.ok) errors += 1;
        await new Promise((res) => setTimeout(res, Math.max(0, 1000 - (Date.now() - started))));
      }
    }),
  );
  return { times: times.sort((a, b) => a - b), errors };
}

/** The trainer page's state, every 500 ms on a new connection, while `running`. */
async function trainerPolls(origin: string, cookie: string, running: () => boolean) {
  const times: number[] = [];
  let errors = 0;
  while (running()) {
    const a = await send(new URL(origin), '/classroom/trainer/state', { cookie }, undefined, 'GET');
    times.push(a.ms);
    if (a.status !== 200) errors += 1;
    await new Promise((r) => setTimeout(r, 500));
  }
  return { times: times.sort((a, b) => a - b), errors };
}

interface Counts {
  sent: number;
  inFlight: number;
  byStatus: Record<string, number>;
  resets: number;
}

export async function run(): Promise<void> {
  const server = forkChild('./lib/classroom-server-child.ts');
  const ready = await message<{ type: string; port: number; token: string }>(server, 'ready');
  const origin = `http://127.0.0.1:${ready.port}`;
  const abuser = forkChild('./lib/held-abuser-child.ts');
  try {
    await message(abuser, 'ready');
    const login = await fetch(`${origin}/classroom/trainer-login?token=${ready.token}`, {
      redirect: 'manual',
    });
    const trainerCookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const trainees: Trainee[] = [];
    for (let i = 0; i < TRAINEES; i++) trainees.push(await join(origin, `trainee ${i + 1}`));
    const bad = await join(origin, 'abuser');

    // The baseline: the room alone.
    const base = await roomPhase(origin, trainees, SECONDS);

    // The trainer chose a held scenario for the abuser (the worst a room can get); it holds as fast as it can.
    const chosen = await fetch(`${origin}/classroom/trainer/scenarios/trainees/${bad.id}`, {
      method: 'PUT',
      headers: { cookie: trainerCookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ choice: [{ name: 'processed-timeout', delayMs: 600_000 }] }),
    });
    // A server from before the trainer's scenario control honours the abuser's header alone.
    if (chosen.status !== 200)
      console.log(`(the trainer's choice was not taken: ${chosen.status}; the abuser relies on its header)`);
    abuser.send({
      type: 'start',
      origin,
      target: {
        baseUrl: bad.baseUrl,
        login: bad.login,
        controlKey: bad.controlKey,
        endpointId: bad.endpointId,
      },
      cookie: bad.cookie,
      concurrency: ABUSER_LOOPS,
    });
    const counts = async () => {
      abuser.send({ type: 'counts' });
      return message<Counts & { type: string }>(abuser, 'counts');
    };
    // Ramp: the abuser has sent for 3 s before the room is measured.
    await new Promise((r) => setTimeout(r, 3000));
    const before = await counts();
    let running = true;
    const trainerRun = trainerPolls(origin, trainerCookie, () => running);
    const abused = await roomPhase(origin, trainees, SECONDS);
    running = false;
    const trainer = await trainerRun;
    const after = await counts();

    const fmt = (n: number) => `${n.toFixed(2)} ms`;
    const b50 = pct(base.times, 50);
    console.log(
      `${TRAINEES} trainees × ${SECONDS} s, one signed v2/sale per trainee per second through the proxy, each on a new connection; then the same beside one abuser (${ABUSER_LOOPS} loops, new connection per request)`,
    );
    console.log('');
    console.log('| measure | room alone (baseline) | beside the abuser | ratio |');
    console.log('|---|---|---|---|');
    for (const [label, p] of [
      ['answer time, median', 50],
      ['answer time, p95 (goal < 50 ms)', 95],
      ['answer time, p99', 99],
    ] as const)
      console.log(
        `| ${label} | ${fmt(pct(base.times, p))} | ${fmt(pct(abused.times, p))} | ${(pct(abused.times, p) / b50).toFixed(2)}× the baseline median |`,
      );
    console.log(`| requests answered | ${base.times.length} | ${abused.times.length} | |`);
    console.log(`| errors: refused, reset or not taken (goal 0) | ${base.errors} | ${abused.errors} | |`);
    console.log(
      `| trainer page (GET state every 500 ms), median / p95, errors | | ${fmt(pct(trainer.times, 50))} / ${fmt(pct(trainer.times, 95))}, ${trainer.errors} | |`,
    );
    const sent = after.sent - before.sent;
    const statuses = Object.entries(after.byStatus)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    console.log(
      `| abuser: requests sent during the room's phase; answers in all by status; resets; open at the end | | ${sent} (${(sent / SECONDS).toFixed(0)}/s); ${statuses}; ${after.resets}; ${after.inFlight} | |`,
    );
  } finally {
    for (const c of [abuser, server]) {
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      if (c === abuser) c.send({ type: 'stop' });
      else c.kill('SIGTERM');
      await exited;
    }
  }
}
