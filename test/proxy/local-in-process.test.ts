/**
 * The built-in `local` target served in process (issue 9 §2): no second HTTP connection, and the
 * same answers as over loopback HTTP (the old hop, still available as `localTransport: 'http'`),
 * including where the sandbox rebuilds the signed URL from the Host header.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../proxy/config.ts';
import { buildServer } from '../../proxy/server.ts';
import { json, makeDist, send, type Running } from './helpers.ts';
import { signControl, signOAuth, type Params } from './signers.ts';
import { generateKeyPairSync } from 'node:crypto';

async function start(
  localTransport: 'in-process' | 'http',
  env: Record<string, string> = {},
  sandbox: { bodyLimit?: number } = {},
): Promise<Running> {
  const fullEnv = {
    PORT: '0',
    HOST: '127.0.0.1',
    DIST_DIR: makeDist(),
    SANDBOX_DB: ':memory:',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'pay-console-data-')),
    PROXY_BODY_LIMIT: '4096',
    ...env,
  };
  const app = await buildServer(loadConfig(fullEnv), { env: fullEnv, localTransport, sandbox });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, origin: `http://127.0.0.1:${port}`, close: () => app.close() };
}

interface Envelope {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  elapsedMs: number;
  url: string;
}

let inProcess: Running;
let overHttp: Running;

beforeAll(async () => {
  inProcess = await start('in-process');
  overHttp = await start('http');
});
afterAll(async () => {
  await inProcess.close();
  await overHttp.close();
});

async function merchantOf(s: Running) {
  return json<{ login: string; controlKey: string; endpointIds: string[] }>(
    await send(s.port, 'GET', '/sandbox/demo-merchant'),
  );
}

/** Sends one request through /proxy/local and returns the envelope with this server's origin and the date made neutral. */
async function viaProxy(
  s: Running,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; envelope?: Omit<Envelope, 'elapsedMs'>; error?: unknown }> {
  const a = await send(s.port, 'POST', `/proxy/local/${path}`, { ...headers, origin: s.origin }, body);
  // What differs between two servers and two signings: the port, the nonce, the time, the signature.
  const text = a.body
    .replaceAll(s.origin, 'ORIGIN')
    .replaceAll(`127.0.0.1:${s.port}`, 'HOST')
    .replaceAll(`127.0.0.1%3A${s.port}`, 'HOST')
    .replace(/(oauth_nonce(?:=|%3D))[0-9a-f]{32}/g, '$1NONCE')
    .replace(/(oauth_timestamp(?:=|%3D))\d+/g, '$1TIME')
    .replace(/(received-signature\\":\\")[^\\]+/g, '$1SIG');
  const parsed = JSON.parse(text) as Envelope & { error?: unknown };
  if (a.status !== 200) return { status: a.status, error: parsed.error };
  const { elapsedMs: _e, ...envelope } = parsed;
  delete envelope.headers.date;
  return { status: a.status, envelope };
}

const FORM_HEADERS = {
  accept: 'application/vnd.pay+json',
  'content-type': 'application/x-www-form-urlencoded',
};

describe('the local target in process', () => {
  it('opens no second connection to this server (the HTTP hop did)', async () => {
    const count = async (s: Running) => {
      let connections = 0;
      const onConnection = () => connections++;
      s.app.server.on('connection', onConnection);
      const a = await send(s.port, 'POST', '/proxy/local/api/v2/status/1111', FORM_HEADERS, 'login=x');
      s.app.server.off('connection', onConnection);
      expect(a.status).toBe(200);
      return connections;
    };
    expect(await count(inProcess)).toBe(1);
    expect(await count(overHttp)).toBe(2);
  });

  it('answers exactly as over HTTP: refusals, signature checks against the Host, successes', async () => {
    const cases: Array<(s: Running) => Promise<[string, Record<string, string>, string | undefined]>> = [
      async () => ['api/v2/status/1111', FORM_HEADERS, undefined],
      async () => ['api/v2/status/1111', { ...FORM_HEADERS, accept: 'text/html' }, 'login=x'],
      async () => ['api/v2/nothing/1111', FORM_HEADERS, 'a=1'],
      async () => ['api/v2/sale/9999', FORM_HEADERS, 'a=1'],
      async () => ['api/v2/status/1111', { ...FORM_HEADERS, 'content-type': 'text/plain' }, 'a=1'],
      async (s) => {
        const m = await merchantOf(s);
        const params: Params = [
          ['login', m.login],
          ['client_orderid', 'inv-1'],
          ['orderid', '424242'],
        ];
        const req = signControl('v2/status', params, {
          ...m,
          endpointId: m.endpointIds[0]!,
          controlKey: 'wrong',
        });
        return [req.path, req.headers, req.body];
      },
      async (s) => {
        // OAuth over the URL: the sandbox rebuilds it from the Host it sees; a wrong key shows its base string.
        const m = await merchantOf(s);
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
        const params: Params = [
          ['client-order-id', 'pe-1'],
          ['sending-card-ref-id', '1'],
        ];
        const req = signOAuth(
          `${s.origin}/sandbox/paynet`,
          'v2/pan-eligibility/send',
          params,
          { ...m, endpointId: m.endpointIds[0]!, controlKey: 'wrong', privateKey },
          'HMAC-SHA1',
        );
        return [req.path, req.headers, req.body];
      },
      async () => ['api/v2/status/1111', FORM_HEADERS, `a=${'x'.repeat(5000)}`],
    ];
    for (const make of cases) {
      const [pathA, headersA, bodyA] = await make(inProcess);
      const [pathB, headersB, bodyB] = await make(overHttp);
      const a = await viaProxy(inProcess, pathA, headersA, bodyA);
      const b = await viaProxy(overHttp, pathB, headersB, bodyB);
      expect(a, `${pathA} ${bodyA?.slice(0, 40)}`).toEqual(b);
    }
  });

  it("hands operation calls straight to the sandbox, without a second pass through this server's router", async () => {
    const inject = vi.spyOn(inProcess.app, 'inject');
    try {
      const a = await send(
        inProcess.port,
        'POST',
        '/proxy/local/api/v2/status/1111',
        FORM_HEADERS,
        'login=x',
      );
      expect(a.status).toBe(200);
      expect(inject).not.toHaveBeenCalled();
      // Not an operation call: through the router, whose not-found answer it gets.
      const b = await send(inProcess.port, 'POST', '/proxy/local/elsewhere', FORM_HEADERS, 'a=1');
      expect(json<{ status: number }>(b).status).toBe(404);
      expect(inject).toHaveBeenCalledTimes(1);
    } finally {
      inject.mockRestore();
    }
  });

  it("keeps the sandbox's own body limit when it is below the proxy's", async () => {
    const small = await start('in-process', {}, { bodyLimit: 1024 });
    const big = await start('http', {}, { bodyLimit: 1024 });
    try {
      const body = `login=${'x'.repeat(2000)}`;
      const a = await viaProxy(small, 'api/v2/status/1111', FORM_HEADERS, body);
      expect(a.envelope?.status).toBe(413);
      expect(a).toEqual(await viaProxy(big, 'api/v2/status/1111', FORM_HEADERS, body));
    } finally {
      await small.close();
      await big.close();
    }
  });

  it('verifies OAuth signatures made over the local base URL, as over HTTP', async () => {
    for (const s of [inProcess, overHttp]) {
      const m = await merchantOf(s);
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const put = await send(
        s.port,
        'PUT',
        `/sandbox/merchants/${encodeURIComponent(m.login)}/public-key`,
        { 'content-type': 'application/json' },
        JSON.stringify({ publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) }),
      );
      expect(put.status).toBe(200);
      const req = signOAuth(
        `${s.origin}/sandbox/paynet`,
        'v4/payout-check',
        [
          ['client_orderid', `pc-${s.port}`],
          ['amount', '10.00'],
          ['currency', 'USD'],
          ['order_desc', 'x'],
          ['ipaddress', '127.0.0.1'],
          ['account_number', '12345678'],
          ['bank_name', 'Bank'],
        ],
        { ...m, endpointId: m.endpointIds[0]!, privateKey },
        'RSA-SHA256',
      );
      const r = await viaProxy(s, req.path, req.headers, req.body);
      expect(r.envelope?.body).toContain('"type":"async-response"');
      expect(r.envelope?.status).toBe(200);
    }
  });
});
