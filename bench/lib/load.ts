/**
 * autocannon runs shared by the server benches. `load` runs in whatever process calls it; the
 * sandbox bench calls it from a separate load-generator process (load-worker.ts) so the server
 * under test has its CPU to itself.
 */
import autocannon from 'autocannon';
import { asError } from '../../src/core/errors.ts';

export interface PreparedRequest {
  /** Path after the sandbox base URL, like api/v2/status/1111. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  label: string;
  requests: number;
  rps: number;
  /** The run's window: first request sent to last answer. */
  seconds: number;
  median: number;
  p95: number;
  p99: number;
  max: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** One answer as the load generator saw it: when it arrived and how long it took (both in ms). */
export interface Answered {
  doneAt: number;
  latencyMs: number;
}

/**
 * Requests per second over the run's own window: from the first request sent to the last answer.
 * autocannon's `duration` cannot serve: it checks for the end only on its 1-second tick, so a run
 * of a fixed number of requests counted whole seconds (7,000 sales in 5.1 s read as 6.02 s).
 */
export function throughputOf(answers: readonly Answered[]): { rps: number; seconds: number } {
  if (answers.length === 0) return { rps: 0, seconds: 0 };
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const a of answers) {
    first = Math.min(first, a.doneAt - a.latencyMs);
    last = Math.max(last, a.doneAt);
  }
  const seconds = (last - first) / 1000;
  return { rps: seconds > 0 ? answers.length / seconds : Number.POSITIVE_INFINITY, seconds };
}

/**
 * One autocannon run. `requests` is either one request sent again and again, or a list used once
 * each (then `amount` is its length). Latency percentiles come from every response's own time.
 */
export function load(
  label: string,
  url: string,
  requests: PreparedRequest | readonly PreparedRequest[],
  opts: { durationSec?: number; connections?: number } = {},
): Promise<LoadResult> {
  const answers: Answered[] = [];
  const list = Array.isArray(requests) ? (requests as readonly PreparedRequest[]) : undefined;
  const single = list ? undefined : (requests as PreparedRequest);
  let next = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: opts.connections ?? 10,
        ...(list ? { amount: list.length } : { duration: opts.durationSec ?? 8 }),
        method: 'POST',
        ...(single ? { headers: single.headers, body: single.body } : {}),
        // Each connection gets its own share of the list, built into request bytes before the run:
        // a `setupRequest` per request made autocannon build every request while it measured
        // (about 100 µs each in its process against 18 µs for a repeated one), on the same cores
        // as the server, so the write rows were held back by the load generator.
        ...(list
          ? {
              setupClient: (client) => {
                // autocannon's own split of `amount` among the connections (not in its types).
                const quota = (client as unknown as { opts: { responseMax: number } }).opts.responseMax;
                const share = list.slice(next, next + quota);
                next += share.length;
                client.setRequests(share.map((r) => ({ method: 'POST', headers: r.headers, body: r.body })));
              },
            }
          : {}),
      },
      (err, result) => {
        if (err) {
          reject(asError(err));
          return;
        }
        const bad = result.non2xx + result.errors + result.timeouts;
        if (bad > 0) {
          reject(
            new Error(
              `${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
            ),
          );
          return;
        }
        const times = answers.map((a) => a.latencyMs).sort((a, b) => a - b);
        resolve({
          label,
          requests: times.length,
          ...throughputOf(answers),
          median: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
          max: times.at(-1) ?? NaN,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      answers.push({ doneAt: performance.now(), latencyMs: responseTime });
    });
  });
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

export function formatLoadTable(rows: readonly LoadResult[]): string {
  const head = ['', 'requests', 'req/s', 'median', 'p95', 'p99'];
  const body = rows.map((r) => [
    r.label,
    String(r.requests),
    Math.round(r.rps).toLocaleString('en-US'),
    ms(r.median),
    ms(r.p95),
    ms(r.p99),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** Sends one request and checks it is answered 200 with the expected `type` (before timing anything). */
export async function expectAnswer(
  url: string,
  req: PreparedRequest,
  type: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: req.headers,
    body: req.body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body = JSON.parse(text) as Record<string, unknown>;
  // Through the proxy the answer is wrapped in an envelope.
  if (typeof body.body === 'string' && typeof body.status === 'number') {
    if (body.status !== 200) throw new Error(`${url}: upstream answered ${body.status}: ${body.body}`);
    body = JSON.parse(body.body) as Record<string, unknown>;
  }
  if (res.status !== 200 || body.type !== type)
    throw new Error(`${url}: expected 200 ${type}, got ${res.status} ${text}`);
  return body;
}
