/**
 * The abuser of bench/held.bench.ts, in a process of its own: one trainee holding answers as fast as
 * it can. `concurrency` loops each send a signed sale on a new connection and, once it is answered
 * or 20 ms later (a held one is not waited for), the next; half carry `X-Sandbox-Scenario: processed-timeout;delay-ms=600000` (the
 * issue's attack), the others rely on the held scenario the trainer chose for this trainee. Reports
 * its counts over IPC when asked; exits on `stop`.
 */
import http from 'node:http';
import { benchNonce as nonce, signRequest, type SigningTarget } from './sign-request.ts';

interface Start {
  type: 'start';
  origin: string;
  target: Omit<SigningTarget, 'privateKey'>;
  cookie: string;
  concurrency: number;
}

const counts = { sent: 0, inFlight: 0, byStatus: {} as Record<string, number>, resets: 0 };
let stopped = false;
/** Requests the abuser keeps open at most (well above the server's connection cap of 256). */
const MAX_OPEN = 1000;

function once(origin: URL, path: string, headers: Record<string, string>, body: string): Promise<void> {
  return new Promise((resolve) => {
    counts.sent += 1;
    counts.inFlight += 1;
    const done = (key: string | null) => {
      counts.inFlight -= 1;
      if (key === null) counts.resets += 1;
      else counts.byStatus[key] = (counts.byStatus[key] ?? 0) + 1;
      resolve();
    };
    const req = http.request(
      { host: origin.hostname, port: origin.port, method: 'POST', path, headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => done(String(res.statusCode)));
        res.on('error', () => done(null));
      },
    );
    req.on('error', () => done(null));
    req.end(body);
  });
}

async function loop(s: Start, i: number): Promise<void> {
  const origin = new URL(s.origin);
  let k = 0;
  while (!stopped) {
    const r = await signRequest(s.target, 'v2/sale', {
      client_orderid: `abuse-${i}-${k}-${nonce().slice(0, 8)}`,
      cvv2: '123',
    });
    const headers: Record<string, string> = { ...r.headers, cookie: s.cookie };
    if (k % 2 === 0) headers['x-sandbox-scenario'] = 'processed-timeout;delay-ms=600000';
    k += 1;
    // A held request is not waited for: the next one goes once this one is answered or 20 ms
    // have passed, up to MAX_OPEN requests open at once.
    const answered = once(origin, `/sandbox/paynet/${r.path}`, headers, r.body);
    await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 20))]);
    while (!stopped && counts.inFlight >= MAX_OPEN) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

process.on('message', (m: Start | { type: 'counts' } | { type: 'stop' }) => {
  if (m.type === 'start') for (let i = 0; i < m.concurrency; i++) void loop(m, i);
  else if (m.type === 'counts') process.send?.({ type: 'counts', ...counts });
  else {
    stopped = true;
    process.exit(0);
  }
});
process.send?.({ type: 'ready' });
