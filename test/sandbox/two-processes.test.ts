/**
 * Two real sandbox processes on one data directory (what `npm start` beside `npm run sandbox`
 * does): under concurrent load on both, no request fails with a 5xx (write transactions take the
 * lock up front and wait for it), and every callback is delivered exactly once (each attempt is
 * claimed in the database by one process).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formBody,
  minorUnits,
  onEvent,
  onFileChanges,
  orderId,
  saleParams,
  sha1,
  waitFor,
} from './support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

interface Proc {
  child: ChildProcessWithoutNullStreams;
  base: string;
  output: () => string;
}

function startProcess(env: Record<string, string>): Promise<Proc> {
  const child = spawn(TSX, ['sandbox/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: '127.0.0.1', SANDBOX_PORT: '0' },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /listening: (http:\/\/\S+\/paynet)/.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        resolve({ child, base: m[1]!, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
}

function stop(p: Proc): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGTERM');
  });
}

describe('two processes on one data directory', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-two-'));
  const db = path.join(dir, 'sandbox.sqlite');
  const received = new Map<string, number>();
  let inbox: Server;
  let inboxUrl: string;
  let a: Proc;
  let b: Proc;

  beforeAll(async () => {
    inbox = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const key = `${q.get('orderid')}/${q.get('serial_number')}`;
      received.set(key, (received.get(key) ?? 0) + 1);
      res.writeHead(200).end('OK');
    });
    await new Promise<void>((r) => inbox.listen(0, '127.0.0.1', r));
    inboxUrl = `http://127.0.0.1:${(inbox.address() as AddressInfo).port}/cb`;
    const env = {
      DATA_DIR: dir,
      SANDBOX_DB: db,
      SANDBOX_FINALIZE_DELAY_MS: '30',
      SANDBOX_CALLBACK_SCHEDULE: 'fast',
      SANDBOX_CALLBACK_BASE_DELAY_MS: '100',
    };
    a = await startProcess(env);
    b = await startProcess(env); // the demo merchant file exists now: both serve the same merchant
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a && stop(a), b && stop(b)]);
    await new Promise((r) => inbox?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every sale of both under load (no 5xx) and calls each back exactly once', async () => {
    const demo = (await (await fetch(`${a.base.replace(/\/paynet$/, '')}/demo-merchant`)).json()) as {
      login: string;
      controlKey: string;
      endpointIds: string[];
    };
    const endpoint = demo.endpointIds[0]!;
    const total = 240;
    const statuses: number[] = [];
    const orders: Array<{ id: string; client: string; base: string }> = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < total; i = next++) {
        const base = i % 2 === 0 ? a.base : b.base;
        const p = saleParams({ client_orderid: orderId('two'), server_callback_url: inboxUrl });
        const control = sha1(
          `${endpoint}${p.client_orderid}${minorUnits(p.amount!)}${p.email}${demo.controlKey}`,
        );
        const res = await fetch(`${base}/api/v2/sale/${endpoint}`, {
          method: 'POST',
          headers: {
            accept: 'application/vnd.pay+json',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: formBody({ ...p, control }),
        });
        statuses.push(res.status);
        const body = (await res.json()) as Record<string, unknown>;
        if (res.status === 200)
          orders.push({ id: String(body['paynet-order-id']), client: p.client_orderid!, base });
        // A status read on the other process: both finalise and write at once.
        const other = base === a.base ? b.base : a.base;
        const statusControl = sha1(
          `${demo.login}${p.client_orderid}${String(body['paynet-order-id'])}${demo.controlKey}`,
        );
        const st = await fetch(`${other}/api/v2/status/${endpoint}`, {
          method: 'POST',
          headers: {
            accept: 'application/vnd.pay+json',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: formBody({
            login: demo.login,
            client_orderid: p.client_orderid!,
            orderid: String(body['paynet-order-id']),
            control: statusControl,
          }),
        });
        statuses.push(st.status);
        await st.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));

    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(orders).toHaveLength(total);

    // Every order's callback arrives (the deadline only bounds a failure)…
    await waitFor(
      () =>
        orders.every((o) => [...received.keys()].some((k) => k.startsWith(`${o.id}/`))) ? true : undefined,
      onEvent(inbox, 'request'),
      30_000,
    );
    // …and once the database says every attempt is done, stop both: no delivery can still be under way.
    // Re-read on each write to the folder: a commit's log write can come just before its index
    // update, and the checkpoint that copies it into the file (every 500 ms) is a later write.
    const file = new Database(db, { readonly: true });
    try {
      await waitFor(
        () => {
          const row = file
            .prepare(
              `SELECT count(*) AS n FROM callbacks WHERE state != 'delivered' OR lease_owner IS NOT NULL`,
            )
            .get() as { n: number };
          return row.n === 0 ? true : undefined;
        },
        onFileChanges(dir),
        30_000,
      );
      await Promise.all([stop(a), stop(b)]);
      const rows = file.prepare(`SELECT attempts FROM callbacks`).all() as Array<{ attempts: number }>;
      expect(rows).toHaveLength(total);
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
    } finally {
      file.close();
    }
    const duplicates = [...received.entries()].filter(([, n]) => n > 1);
    expect(duplicates).toEqual([]);
    expect(received.size).toBe(total);
  }, 120_000);
});
