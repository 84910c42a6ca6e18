/**
 * Issue 27 §4: callbacks across a kill -9 and a restart. A receiver refuses every callback (503)
 * while the first sandbox process runs, then holds a few attempts unanswered, so that they are in
 * flight when the process is killed with SIGKILL. A second process starts on the same file and
 * the receiver answers 200 from then on. Nothing was answered 200 before the crash, so
 * at-least-once allows each callback to be answered 200 once after it: not twice, and none lost
 * (the attempts in flight at the crash are sent again once their claim has expired).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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
import {
  startSandboxProcess as startProcess,
  stopSandboxProcess as exited,
  type SandboxProcess as Proc,
} from './sandbox-process.ts';

/** Attempts held unanswered when the first process is killed: in flight at the crash. */
const HELD = 10;
const TOTAL = 100;

describe('callbacks across a kill -9 and a restart', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-restart-'));
  const db = path.join(dir, 'sandbox.sqlite');
  const env = {
    DATA_DIR: dir,
    SANDBOX_DB: db,
    SANDBOX_FINALIZE_DELAY_MS: '20',
    SANDBOX_CALLBACK_SCHEDULE: 'fast',
    SANDBOX_CALLBACK_BASE_DELAY_MS: '20',
    SANDBOX_CALLBACK_ATTEMPTS: '100',
    SANDBOX_CALLBACK_TIMEOUT_MS: '5000',
  };
  let phase: 'refuse' | 'hold' | 'accept' = 'refuse';
  /** Connections of the killed process: whatever still arrives on them is not the new process's. */
  const oldSockets = new WeakSet<Socket>();
  const refused = new Map<string, number>();
  const held: string[] = [];
  /** 200 answers per callback, to the restarted process. */
  const accepted = new Map<string, number>();
  let inbox: Server;
  let inboxUrl: string;
  let proc: Proc | undefined;

  beforeAll(async () => {
    inbox = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const key = `${q.get('orderid')}/${q.get('serial_number')}`;
      if (phase === 'accept' && !oldSockets.has(req.socket)) {
        accepted.set(key, (accepted.get(key) ?? 0) + 1);
        res.writeHead(200).end('OK');
      } else if (phase === 'hold' && held.length < HELD) {
        held.push(key); // never answered: the attempt is in flight when the process dies
        inbox.emit('held');
      } else {
        refused.set(key, (refused.get(key) ?? 0) + 1);
        res.writeHead(503).end('not yet');
      }
    });
    inbox.on('connection', (s: Socket) => {
      if (phase !== 'accept') oldSockets.add(s);
    });
    await new Promise<void>((r) => inbox.listen(0, '127.0.0.1', r));
    inboxUrl = `http://127.0.0.1:${(inbox.address() as AddressInfo).port}/cb`;
  });

  afterAll(async () => {
    if (proc) await exited(proc, 'SIGTERM');
    await new Promise((r) => inbox?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each callback 200 once after the restart: none twice, none lost', async () => {
    proc = await startProcess(env);
    const first = proc;
    const demo = (await (await fetch(`${first.base.replace(/\/paynet$/, '')}/demo-merchant`)).json()) as {
      controlKey: string;
      endpointIds: string[];
    };
    const endpoint = demo.endpointIds[0]!;
    const orders: string[] = [];
    for (let i = 0; i < TOTAL; i++) {
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
    // Every order's callback refused twice: the retries run when the crash comes…
    await waitFor(() => (keysRefusedTwice(orders) ? true : undefined), onEvent(inbox, 'request'), 60_000);
    // …and a few attempts are in flight, held by the receiver.
    phase = 'hold';
    await waitFor(() => (held.length === HELD ? true : undefined), onEvent(inbox, 'held'), 60_000);
    await exited(first, 'SIGKILL');
    phase = 'accept';
    proc = await startProcess(env);

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
        90_000,
      );
      await exited(proc, 'SIGTERM');
      proc = undefined;
      expect((file.prepare('SELECT count(*) AS n FROM callbacks').get() as { n: number }).n).toBe(TOTAL);
    } finally {
      file.close();
    }
    expect([...accepted.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(accepted.size).toBe(TOTAL);
    for (const key of held) expect(accepted.get(key)).toBe(1);
  }, 180_000);

  function keysRefusedTwice(orders: string[]): boolean {
    const byOrder = new Map<string, number>();
    for (const [k, n] of refused) byOrder.set(k.split('/')[0]!, n);
    return orders.every((o) => (byOrder.get(o) ?? 0) >= 2);
  }
});
