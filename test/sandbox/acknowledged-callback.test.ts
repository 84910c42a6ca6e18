/**
 * Issue 27 §4: an acknowledged callback is never sent again by the process that sent it. The
 * handler answers 200, but the attempt's outcome cannot be written at once: another connection
 * (here the test's, as a second sandbox process sharing the file would) holds the write lock past
 * the busy timeout. Before the fix the write was given up, the claim's lease ran out, and the
 * callback was claimed and sent a second time, answered 200 twice. Now the outcome is written as
 * soon as the lock is free, and the handler hears the callback once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, minorUnits, onFileChanges, orderId, saleParams, sha1, waitFor } from './support.ts';
import { startSandboxProcess, stopSandboxProcess, type SandboxProcess } from './sandbox-process.ts';

describe('a callback the handler acknowledged while the file was locked', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-ack-'));
  const db = path.join(dir, 'sandbox.sqlite');
  const answered: string[] = [];
  let inbox: Server;
  let inboxUrl: string;
  let proc: SandboxProcess | undefined;
  let locker: Database.Database | undefined;

  beforeAll(async () => {
    inbox = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      answered.push(`${q.get('orderid')}/${q.get('serial_number')}`);
      // The lock is taken before the answer leaves: the sandbox's write of the outcome meets it.
      if (answered.length === 1) locker!.prepare('BEGIN IMMEDIATE').run();
      res.writeHead(200).end('OK');
    });
    await new Promise<void>((r) => inbox.listen(0, '127.0.0.1', r));
    inboxUrl = `http://127.0.0.1:${(inbox.address() as AddressInfo).port}/cb`;
  });

  afterAll(async () => {
    if (locker?.inTransaction) locker.prepare('ROLLBACK').run();
    locker?.close();
    if (proc) await stopSandboxProcess(proc);
    await new Promise((r) => inbox?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is recorded once the lock is free, and not sent again', async () => {
    proc = await startSandboxProcess({
      DATA_DIR: dir,
      SANDBOX_DB: db,
      SANDBOX_FINALIZE_DELAY_MS: '20',
      SANDBOX_CALLBACK_SCHEDULE: 'fast',
      SANDBOX_CALLBACK_BASE_DELAY_MS: '20',
      // A short lease (three timeouts), so that a claim given up runs out well within the test.
      SANDBOX_CALLBACK_TIMEOUT_MS: '300',
    });
    locker = new Database(db);
    const demo = (await (await fetch(`${proc.base.replace(/\/paynet$/, '')}/demo-merchant`)).json()) as {
      controlKey: string;
      endpointIds: string[];
    };
    const endpoint = demo.endpointIds[0]!;
    const p = saleParams({ client_orderid: orderId('ack'), server_callback_url: inboxUrl });
    const control = sha1(
      `${endpoint}${p.client_orderid}${minorUnits(p.amount!)}${p.email}${demo.controlKey}`,
    );
    const res = await fetch(`${proc.base}/api/v2/sale/${endpoint}`, {
      method: 'POST',
      headers: { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody({ ...p, control }),
    });
    expect(res.status).toBe(200);

    // The sandbox reports the write it could not make (the busy timeout, 5 s, passed)…
    await proc.printed(/sandbox callback: /);
    // …and once the lock is given back, the outcome is written: delivered, no claim left.
    locker.prepare('COMMIT').run();
    await waitFor(
      () => {
        const row = locker!.prepare(`SELECT state, lease_owner FROM callbacks`).get() as
          { state: string; lease_owner: string | null } | undefined;
        return row?.state === 'delivered' && row.lease_owner === null ? true : undefined;
      },
      onFileChanges(dir),
      60_000,
    );
    expect(answered).toHaveLength(1);
    expect(proc.output()).toMatch(/could not record the attempt's outcome \(.*locked.*\); trying again/);
  }, 90_000);
});
