/**
 * The local sandbox for the export tests: started in this process with the sandbox's own fastify
 * plugin on an ephemeral loopback port, an in-memory database and the demo merchant; a fresh RSA
 * key pair (Node's crypto) is registered for it so that RSA-SHA256 requests can be signed here.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { sandboxPlugin } from '../../sandbox/plugin.ts';
import { installRouteAccess, SANDBOX_POLICY } from '../../sandbox/route-access.ts';

export interface DemoMerchant {
  login: string;
  controlKey: string;
  endpointIds: string[];
  endpointGroupIds: string[];
}

export interface LocalSandbox {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>/sandbox/paynet` */
  baseUrl: string;
  demo: DemoMerchant;
  /** The private key (PKCS#8 PEM) whose public key is registered for the demo merchant. */
  privateKeyPem: string;
  keyFile: string;
  dir: string;
  close(): Promise<void>;
}

export async function startLocalSandbox(): Promise<LocalSandbox> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pay-exports-'));
  const app = Fastify({ logger: false });
  installRouteAccess(app, SANDBOX_POLICY);
  await app.register(sandboxPlugin, {
    prefix: '/sandbox',
    dbPath: ':memory:',
    dataDir: dir,
    finalizeDelayMs: 500,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const res = await fetch(`${origin}/sandbox/demo-merchant`);
  if (res.status !== 200)
    throw new Error(`GET /sandbox/demo-merchant answered ${res.status}: ${await res.text()}`);
  const demo = (await res.json()) as DemoMerchant;
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const put = await fetch(`${origin}/sandbox/merchants/${encodeURIComponent(demo.login)}/public-key`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ publicKeyPem: pair.publicKey }),
  });
  if (put.status !== 200)
    throw new Error(`Registering the test public key answered ${put.status}: ${await put.text()}`);
  const keyFile = path.join(dir, 'merchant-private.pem');
  writeFileSync(keyFile, pair.privateKey, { mode: 0o600 });
  return {
    app,
    baseUrl: `${origin}/sandbox/paynet`,
    demo,
    privateKeyPem: pair.privateKey,
    keyFile,
    dir,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program without blocking the event loop (the sandbox answers from this same process).
 * The environment is the given one only, plus PATH and HOME: no secret leaks in from the caller.
 */
export function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
  timeoutMs = 60_000,
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          LANG: 'C.UTF-8',
          ...env,
        },
        cwd,
        timeout: timeoutMs,
        maxBuffer: 4 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : -1
          : 0;
        resolve({ code, stdout, stderr: stderr || (error && code === -1 ? error.message : '') });
      },
    );
  });
}

/** The HTTP status and JSON body a snippet printed (`HTTP <status>` then the body). */
export function parseSnippetOutput(stdout: string): { status: number; body: Record<string, unknown> } {
  const m = /^HTTP (\d{3})\r?\n([\s\S]*)$/.exec(stdout.trimStart());
  if (!m) throw new Error(`The snippet did not print "HTTP <status>" first: ${stdout.slice(0, 300)}`);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(m[2]!.trim()) as Record<string, unknown>;
  } catch {
    throw new Error(`The snippet printed a body that is not JSON: ${m[2]!.slice(0, 300)}`);
  }
  return { status: Number(m[1]), body };
}

/** Whether a command is on PATH (checked before the sandbox starts, so a blocking call is fine). */
export function available(command: string): Promise<boolean> {
  return run('bash', ['-c', `command -v ${command}`], {}).then((r) => r.code === 0);
}
