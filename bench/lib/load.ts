/**
 * autocannon runs shared by the server benches. `load` runs in whatever process calls it; the
 * sandbox bench calls it from a separate load-generator process (load-worker.ts) so the server
 * under test has its CPU to itself.
 */
import autocannon from 'autocannon';

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
  median: number;
  p95: number;
  p99: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
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
  const times: number[] = [];
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
        ...(list
          ? {
              requests: [
                {
                  setupRequest: (req) => {
                    const r = list[Math.min(next++, list.length - 1)]!;
                    return { ...req, method: 'POST', headers: r.headers, body: r.body };
                  },
                },
              ],
            }
          : {}),
      },
      (err, result) => {
        if (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
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
        times.sort((a, b) => a - b);
        resolve({
          label,
          requests: times.length,
          rps: times.length / result.duration,
          median: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
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
