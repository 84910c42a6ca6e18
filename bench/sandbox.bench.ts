/**
 * The local sandbox's throughput per signature scheme, measured with autocannon against the real
 * server (the same one `npm start` runs) on an ephemeral loopback port in this process. Requests are
 * signed beforehand with the core's buildRequest: `control` status queries, OAuth HMAC-SHA1
 * pan-eligibility/send and OAuth RSA-SHA256 (2048-bit key) v4/payout-check, each OAuth request with
 * its own nonce and merchant order id, so every one is verified and booked for real (SQLite file).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { exampleValues, findOperation } from '../src/catalog/index.ts';
import {
  buildRequest,
  importSigningKey,
  secureNonceSource,
  webCryptoPort,
  type InputParam,
} from '../src/core/index.ts';
import { loadConfig } from '../proxy/config.ts';
import { buildServer, type ConsoleServer } from '../proxy/server.ts';

export const title = 'Sandbox throughput per signature scheme (autocannon)';

const crypto = webCryptoPort();
const nonce = secureNonceSource();

export interface BenchServer {
  app: ConsoleServer;
  origin: string;
  /** http://127.0.0.1:<port>/sandbox/paynet */
  baseUrl: string;
  login: string;
  controlKey: string;
  endpointId: string;
  privateKey: CryptoKey;
  close(): Promise<void>;
}

/** The console server with its sandbox (SQLite file in a temp dir), and a 2048-bit key registered for the demo merchant. */
export async function startBenchServer(): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-console-bench-'));
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DIST_DIR: join(dir, 'no-dist'),
    DATA_DIR: dir,
    SANDBOX_DB: join(dir, 'sandbox.sqlite'),
    SANDBOX_FINALIZE_DELAY_MS: '0',
  };
  const app = await buildServer(loadConfig(env), { env });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const demo = (await (await fetch(`${origin}/sandbox/demo-merchant`)).json()) as {
    login: string;
    controlKey: string;
    endpointIds: string[];
  };
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const put = await fetch(`${origin}/sandbox/merchants/${encodeURIComponent(demo.login)}/public-key`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }) }),
  });
  if (put.status !== 200)
    throw new Error(`registering the bench key failed: ${put.status} ${await put.text()}`);
  const key = await importSigningKey(
    String(pair.privateKey.export({ type: 'pkcs8', format: 'pem' })),
    crypto,
  );
  return {
    app,
    origin,
    baseUrl: `${origin}/sandbox/paynet`,
    login: demo.login,
    controlKey: demo.controlKey,
    endpointId: demo.endpointIds[0]!,
    privateKey: key.key,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PreparedRequest {
  /** Path after the sandbox base URL, like api/v2/status/1111. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** One request signed by the core, as the console would send it. */
export async function signRequest(
  s: BenchServer,
  opPath: string,
  overrides: Record<string, string | undefined>,
): Promise<PreparedRequest> {
  const op = findOperation(opPath);
  if (!op) throw new Error(`unknown operation ${opPath}`);
  const values: Record<string, string | undefined> = { ...exampleValues(op), login: s.login, ...overrides };
  delete values.server_callback_url;
  if (!op.fields.some((f) => f.name === 'login') && overrides.login === undefined) delete values.login;
  const params: InputParam[] = Object.entries(values)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, value]) => ({ name, value, source: 'form' }));
  const built = await buildRequest({
    operation: op,
    baseUrl: s.baseUrl,
    endpoint: { kind: 'endpoint', id: s.endpointId },
    params,
    credentials: { login: s.login, controlKey: s.controlKey, privateKey: s.privateKey },
    crypto,
    clock: Date.now,
    nonce,
  });
  if (built.problems.length > 0)
    throw new Error(`${opPath}: ${built.problems.map((p) => p.message).join(' ')}`);
  const headers: Record<string, string> = {};
  for (const h of built.headers) headers[h.name.toLowerCase()] = h.value;
  return { path: built.url.slice(s.baseUrl.length + 1), headers, body: built.bodyText };
}

/** Sends one request and checks it is answered 200 with the expected `type` (before timing anything). */
export async function expectAnswer(
  url: string,
  req: PreparedRequest,
  type: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers: req.headers, body: req.body });
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

/** A sale and its card reference, for the operations that need one (pan-eligibility). */
export async function approvedCardRef(
  s: BenchServer,
): Promise<{ saleId: string; orderId: string; cardRefId: string }> {
  const saleId = `bench-sale-${nonce().slice(0, 12)}`;
  const sale = await expectAnswer(
    `${s.baseUrl}/api/v2/sale/${s.endpointId}`,
    await signRequest(s, 'v2/sale', { client_orderid: saleId, cvv2: '123' }),
    'async-response',
  );
  const orderId = String(sale['paynet-order-id']);
  const statusReq = await signRequest(s, 'v2/status', { client_orderid: saleId, orderid: orderId });
  await expectAnswer(`${s.baseUrl}/${statusReq.path}`, statusReq, 'status-response');
  const ref = await expectAnswer(
    `${s.baseUrl}/api/v2/create-card-ref/${s.endpointId}`,
    await signRequest(s, 'v2/create-card-ref', { client_orderid: saleId, orderid: orderId }),
    'create-card-ref-response',
  );
  return { saleId, orderId, cardRefId: String(ref['card-ref-id']) };
}

async function presign(
  count: number,
  make: (i: number) => Promise<PreparedRequest>,
): Promise<PreparedRequest[]> {
  const out: PreparedRequest[] = [];
  for (let i = 0; i < count; i++) out.push(await make(i));
  return out;
}

export async function run(): Promise<void> {
  const s = await startBenchServer();
  try {
    const { saleId, orderId, cardRefId } = await approvedCardRef(s);
    const status = await signRequest(s, 'v2/status', { client_orderid: saleId, orderid: orderId });
    const statusUrl = `${s.baseUrl}/${status.path}`;
    await expectAnswer(statusUrl, status, 'status-response');

    const run = Date.now().toString(36);
    const hmacCount = 6000;
    const rsaCount = 3000;
    const t0 = performance.now();
    const hmac = await presign(hmacCount + 300, (i) =>
      signRequest(s, 'v2/pan-eligibility/send', {
        'client-order-id': `bench-pe-${run}-${i}`,
        'sending-card-ref-id': cardRefId,
      }),
    );
    const t1 = performance.now();
    const rsa = await presign(rsaCount + 300, (i) =>
      signRequest(s, 'v4/payout-check', { client_orderid: `bench-pc-${run}-${i}` }),
    );
    const t2 = performance.now();
    console.log(
      `pre-signed ${hmac.length} HMAC-SHA1 requests in ${((t1 - t0) / 1000).toFixed(1)} s and ${rsa.length} RSA-SHA256 (2048) in ${((t2 - t1) / 1000).toFixed(1)} s (core, Web Crypto)`,
    );
    const hmacUrl = `${s.baseUrl}/${hmac[0]!.path}`;
    const rsaUrl = `${s.baseUrl}/${rsa[0]!.path}`;
    await expectAnswer(hmacUrl, hmac[0]!, 'async-response');
    await expectAnswer(rsaUrl, rsa[0]!, 'async-response');

    // Warm-up (JIT, connections), then the measured runs.
    await load('warm-up', statusUrl, status, { durationSec: 1 });
    await load('warm-up', hmacUrl, hmac.slice(1, 300));
    await load('warm-up', rsaUrl, rsa.slice(1, 300));
    const rows = [
      await load('control (SHA-1): v2/status', statusUrl, status, { durationSec: 8 }),
      await load('OAuth HMAC-SHA1: v2/pan-eligibility/send', hmacUrl, hmac.slice(300)),
      await load('OAuth RSA-SHA256: v4/payout-check', rsaUrl, rsa.slice(300)),
    ];
    console.log(
      '\n10 connections, one Node process (server and load generator share it); each OAuth request has its own nonce and order id.\n',
    );
    console.log(formatLoadTable(rows));
  } finally {
    await s.close();
  }
}
