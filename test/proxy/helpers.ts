import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../proxy/config.ts';
import { buildServer, type ConsoleServer } from '../../proxy/server.ts';

/** A tiny built console: index.html with a module script, and one asset. */
export function makeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pay-console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>pay-console fixture</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("fixture");\n');
  return dir;
}

export interface Running {
  app: ConsoleServer;
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

/** The real server on an ephemeral loopback port, with an in-memory sandbox. */
export async function startConsole(env: Record<string, string> = {}): Promise<Running> {
  const fullEnv = {
    PORT: '0',
    HOST: '127.0.0.1',
    DIST_DIR: makeDist(),
    SANDBOX_DB: ':memory:',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'pay-console-data-')),
    ...env,
  };
  const config = loadConfig(fullEnv);
  const app = await buildServer(config, { env: fullEnv });
  await app.listen({ host: config.host, port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, origin: `http://127.0.0.1:${port}`, close: () => app.close() };
}

export interface Captured {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

export interface Upstream {
  url: string;
  port: number;
  requests: Captured[];
  close(): Promise<void>;
}

/** A plain Node HTTP server that records every request and answers with `respond`. */
export async function startUpstream(
  respond: (req: Captured, res: http.ServerResponse) => void = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/vnd.pay+json' });
    res.end('{"type":"status-response","status":"approved"}');
  },
): Promise<Upstream> {
  const requests: Captured[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const captured: Captured = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      };
      requests.push(captured);
      respond(captured, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request with exactly the given headers (node:http, so Host and Origin can be anything). */
export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: `127.0.0.1:${port}`, ...headers },
        agent: false,
        // Node refuses to send an empty Host header; send none at all instead.
        ...(headers.host === ''
          ? {
              setHost: false,
              headers: Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'host')),
            }
          : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export function json<T = unknown>(answer: Answer): T {
  return JSON.parse(answer.body) as T;
}

export interface ErrorAnswer {
  error: { code: string; message: string };
}
