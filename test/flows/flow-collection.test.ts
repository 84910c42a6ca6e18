/**
 * Issue 33: the guided flows as editable collections. Each flow is written as the console's
 * collections file, read back by the file reader `paysign run` uses, and the settle and payout
 * flows are run by the model's CollectionRun against the real sandbox in process (HTTP over a
 * loopback port), signed by the core with Web Crypto (RSA for the v4 payout), every step's
 * assertions checked. Stop and re-run of one step are checked on the same run.
 */
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { secureNonceSource, webCryptoPort, type BuiltRequest } from '../../src/core/index.ts';
import { readRunCollection } from '../../src/exports/run-collection-file.ts';
import { FLOWS } from '../../src/features/flows/flow-definitions.ts';
import { flowAsCollection, flowCollectionsFile } from '../../src/features/flows/flow-collection.ts';
import { PAYOUT_CHECK_PAY, PREAUTH_CAPTURE_RETURN } from '../../src/features/flows/flows-settle.ts';
import { CollectionRun, type RunPorts } from '../../src/model/collection-run.ts';
import { environmentSource, LOCAL_SANDBOX_ENVIRONMENT } from '../../src/model/environment.ts';
import type { Transport } from '../../src/model/exchange.ts';

const CONTROL_KEY = 'FLOW-COLLECTION-KEY-0000';
const LOGIN = 'flow-collection-shop';
let sandbox: FastifyInstance;
let baseUrl = '';
let privateKey: webcrypto.CryptoKey;
let publicKeyPem = '';

beforeAll(async () => {
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  publicKeyPem = pair.publicKey;
  privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    pair.privateKey,
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  sandbox = await createSandboxApp({
    dbPath: ':memory:',
    dataDir: mkdtempSync(path.join(tmpdir(), 'flow-collection-')),
    finalizeDelayMs: 0,
    callbackRetry: { schedule: 'fast', attempts: 1 },
    merchants: [
      { login: LOGIN, controlKey: CONTROL_KEY, endpointIds: ['1111'], publicKeyPem: pair.publicKey },
    ],
  });
  await sandbox.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(sandbox.server.address() as AddressInfo).port}/sandbox/paynet`;
});
afterAll(async () => {
  await sandbox?.close();
});

const transport: Transport = async (request: BuiltRequest, signal) => {
  const res = await fetch(request.url, {
    method: request.method,
    headers: request.headers.map((h) => [h.name, h.value] as [string, string]),
    body: request.bodyText,
    ...(signal ? { signal } : {}),
  });
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body: await res.text(),
    elapsedMs: 0,
  };
};

function ports(onSleep?: () => void): RunPorts {
  const place = { origin: 'http://127.0.0.1:9', inboxUrl: 'http://127.0.0.1:9/callbacks/x', login: LOGIN };
  return {
    env: {
      place,
      baseUrl,
      endpoint: { kind: 'endpoint', id: '1111' },
      credentials: { login: LOGIN, controlKey: CONTROL_KEY, privateKey: privateKey as CryptoKey },
      runtime: { crypto: webCryptoPort(), nonce: secureNonceSource(), clock: () => Date.now() },
    },
    transport,
    sleep: (ms, signal) =>
      new Promise((done) => {
        const t = setTimeout(done, ms);
        signal.addEventListener('abort', () => (clearTimeout(t), done()), { once: true });
        onSleep?.();
      }),
    environment: environmentSource(LOCAL_SANDBOX_ENVIRONMENT, {
      baseUrl,
      login: LOGIN,
      year: new Date().getUTCFullYear(),
    }),
  };
}

const asRun = (flow: (typeof FLOWS)[number]) =>
  readRunCollection(JSON.stringify(flowCollectionsFile(flow, '2026-12-06T00:00:00Z')));

describe('the guided flows as collections', () => {
  it('every flow is written as a file the runner reads back; steps a server cannot do are named', () => {
    for (const flow of FLOWS) {
      const { collection, left } = flowAsCollection(flow);
      const run = asRun(flow);
      expect(run.steps.map((s) => s.name)).toEqual(collection.requests.map((r) => r.name));
      expect(run.steps.length + left.length).toBeLessThanOrEqual(flow.steps.length);
      // No card number or CVV is written: they are variables.
      expect(JSON.stringify(collection)).not.toMatch(/4444444444444448/);
    }
    expect(flowAsCollection(PREAUTH_CAPTURE_RETURN).left).toEqual([]);
  });

  it('preauth → partial capture → partial return runs, each step approved, orderid carried', async () => {
    const run = new CollectionRun(asRun(PREAUTH_CAPTURE_RETURN), ports());
    const done = await run.run();
    expect(done.steps.map((s) => [s.name, s.state, s.status])).toEqual([
      ['Preauth', 'passed', 'approved'],
      ['Partial capture', 'passed', 'approved'],
      ['Partial return', 'passed', 'approved'],
    ]);
    expect(done.saved.orderid).toMatch(/^\d+$/);
    expect(done.steps[1]!.uses.find((u) => u.variable === 'orderid')?.source.kind).toBe('answer');
    expect(done.steps[1]!.uses.find((u) => u.variable === 'captureAmount')?.shown).toBe('60.00');

    // Re-run of one step: sent again with this run's values (the same client_orderid: the sandbox
    // answers for the same order), the other steps' results kept.
    const again = await run.rerun(2);
    expect(again.steps.map((s) => s.state)).toEqual(['passed', 'passed', again.steps[2]!.state]);
    expect(again.steps[2]!.request?.params).toContainEqual({ name: 'orderid', value: done.saved.orderid });
  });

  it('payout check → pay (RSA-SHA256) runs', async () => {
    const done = await new CollectionRun(asRun(PAYOUT_CHECK_PAY), ports()).run();
    expect(done.steps.map((s) => s.state)).toEqual(['passed', 'passed']);
  });

  it('stop: the step in flight ends stopped and the rest are not sent', async () => {
    const collection = asRun(PREAUTH_CAPTURE_RETURN);
    // A preauth that never becomes final in time: the run waits, then is stopped while waiting.
    collection.steps[0] = {
      ...collection.steps[0]!,
      checks: { ...collection.steps[0]!.checks, expect: { status: 'approved' } },
    };
    let run: CollectionRun | undefined;
    // The first wait between status checks stops the run.
    const p = ports(() => run?.stop());
    // Status checks read "processing" until finalised: a sandbox that finalises in an hour.
    const slow = await createSandboxApp({
      dbPath: ':memory:',
      dataDir: mkdtempSync(path.join(tmpdir(), 'flow-collection-slow-')),
      finalizeDelayMs: 3_600_000,
      merchants: [{ login: LOGIN, controlKey: CONTROL_KEY, endpointIds: ['1111'], publicKeyPem }],
    });
    await slow.listen({ host: '127.0.0.1', port: 0 });
    try {
      const slowUrl = `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}/sandbox/paynet`;
      run = new CollectionRun(collection, {
        ...p,
        env: { ...p.env, baseUrl: slowUrl },
        poll: { delayMs: () => 60_000, limitMs: 600_000 },
      });
      const done = await run.run();
      expect(done.steps.map((s) => s.state)).toEqual(['stopped', 'stopped', 'stopped']);
      expect(done.steps[0]!.statusChecks).toBe(1);
      expect(done.steps[1]!.request).toBeUndefined();
    } finally {
      await slow.close();
    }
  });
});
