/**
 * Issue 27 §4: callbacks after a kill -9 and a restart. A receiver refuses every callback (503)
 * while the first sandbox process runs; the process is killed with SIGKILL, a second one starts
 * on the same file and the receiver answers 200 from then on. Nothing was answered 200 before
 * the crash, so at-least-once allows no callback to be answered 200 twice: each one must be.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, minorUnits, onEvent, onFileChanges, orderId, saleParams, sha1, waitFor } from './support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Proc {
  child: ChildProcessWithoutNullStreams;
  base: string;
}

function startProcess(env: Record<string, string>): Promise<Proc> {
  // Node itself with tsx's loader, not the tsx CLI: the CLI runs the script in a child process,
  // which a SIGKILL of the CLI would leave running.
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: '127.0.0.1', SANDBOX_PORT: '0' },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening: (http:\/\/\S+\/paynet)/.exec(out);
      if (m) resolve({ child, base: m[1]! });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
}

function exited(p: Proc, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill(signal);
  });
}

describe('callbacks across a kill -9 and a restart', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-restart-'));
  const db = path.join(dir, 'sandbox.sqlite');
  const env = {
    DATA_DIR: dir,
    SANDBOX_DB: db,
    SANDBOX_FINALIZE_DELAY_MS: process.env.X_FIN ?? '20',
    SANDBOX_CALLBACK_BASE_DELAY_MS: process.env.X_BASE ?? '20',
    SANDBOX_CALLBACK_ATTEMPTS: '100',
    SANDBOX_CALLBACK_TIMEOUT_MS: process.env.X_TO ?? '2000',
  };
  let accepting = false;
  /** Refused attempts per callback (before the crash), and 200 answers per callback (after). */
  const refused = new Map<string, number>();
  const accepted = new Map<string, number>();
  let inbox: Server;
  let inboxUrl: string;
  let proc: Proc | undefined;

  beforeAll(async () => {
    inbox = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const key = `${q.get('orderid')}/${q.get('serial_number')}`;
      const seen = accepting ? accepted : refused;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (accepting) res.writeHead(200).end('OK');
      else if (process.env.X_MODE === 'reset') req.socket.destroy();
      else if (process.env.X_MODE === 'hold') return;
      else res.writeHead(503).end('not yet');
    });
    await new Promise<void>((r) => inbox.listen(0, '127.0.0.1', r));
    inboxUrl = `http://127.0.0.1:${(inbox.address() as AddressInfo).port}/cb`;
  });

  afterAll(async () => {
    if (proc) await exited(proc, 'SIGTERM');
    await new Promise((r) => inbox?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each callback 200 once after the restart (none acknowledged twice)', async () => {
    proc = await startProcess(env);
    const first = proc;
    const demo = (await (await fetch(`${first.base.replace(/\/paynet$/, '')}/demo-merchant`)).json()) as {
      controlKey: string;
      endpointIds: string[];
    };
    const endpoint = demo.endpointIds[0]!;
    const total = 100;
    const orders: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = w; i < total; i += 4) {
          const p = saleParams({ client_orderid: orderId('restart'), server_callback_url: inboxUrl });
          const control = sha1(
            `${endpoint}${p.client_orderid}${minorUnits(p.amount!)}${p.email}${demo.controlKey}`,
          );
          const res = await fetch(`${first.base}/api/v2/sale/${endpoint}`, {
            method: 'POST',
            headers: { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' },
            body: formBody({ ...p, control }),
          });
          expect(res.status).toBe(200);
          orders.push(String(((await res.json()) as Record<string, unknown>)['paynet-order-id']));
        }
      }),
    );
    // Every order's callback refused a few times: the retries run when the crash comes.
    await waitFor(
      () =>
        orders.every((o) => [...refused.entries()].some(([k, n]) => k.startsWith(`${o}/`) && n >= Number(process.env.X_N ?? 3)))
          ? true
          : undefined,
      onEvent(inbox, 'request'),
      60_000,
    );
    await exited(first, 'SIGKILL');
    accepting = true;
    proc = await startProcess(env);

    const file = new Database(db, { readonly: true });
    try {
      await waitFor(
        () => {
          const row = file
            .prepare(`SELECT count(*) AS n FROM callbacks WHERE state != 'delivered' OR lease_owner IS NOT NULL`)
            .get() as { n: number };
          return row.n === 0 ? true : undefined;
        },
        onFileChanges(dir),
        60_000,
      );
      await exited(proc, 'SIGTERM');
      proc = undefined;
      expect((file.prepare('SELECT count(*) AS n FROM callbacks').get() as { n: number }).n).toBe(total);
    } finally {
      file.close();
    }
    const twice = [...accepted.entries()].filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    expect(accepted.size).toBe(total);
  }, 180_000);
});
