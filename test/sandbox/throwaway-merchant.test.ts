/**
 * `POST /sandbox/merchants` (issue 31 §2, a capsule's replay): a fresh merchant with keys of its
 * own, over real HTTP on a loopback port. Its control key signs a sale the sandbox accepts (signed
 * here with node:crypto), each call makes another merchant, a body other than {"purpose":"replay"}
 * is refused with what to send, and a request naming a host other than this machine is refused.
 */
import { createPublicKey } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { formBody, saleParams, sha1 } from './support.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

let app: FastifyInstance;
let origin: string;
let port: number;
beforeAll(async () => {
  app = await createSandboxApp({
    dbPath: ':memory:',
    dataDir: mkdtempSync(path.join(tmpdir(), 'sandbox-throwaway-')),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await app.close();
});

const make = (body: unknown) =>
  fetch(`${origin}/sandbox/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

interface Made {
  login: string;
  controlKey: string;
  endpointId: string;
  endpointGroupId: string;
  privateKeyPkcs8Pem: string;
  publicKeyPem: string;
}

describe('POST /sandbox/merchants', () => {
  it('makes a merchant whose own control key signs a sale the sandbox accepts', async () => {
    const res = await make({ purpose: 'replay' });
    expect(res.status).toBe(201);
    const m = (await res.json()) as Made;
    expect(m.login).toMatch(/^replay-\d+$/);
    expect(m.controlKey.length).toBeGreaterThanOrEqual(8);
    const spki = (pem: string) =>
      createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('hex');
    expect(spki(m.privateKeyPkcs8Pem)).toBe(spki(m.publicKeyPem));

    const params = saleParams();
    const control = sha1(`${m.endpointId}${params.client_orderid}1042${params.email}${m.controlKey}`);
    const sale = await fetch(`${origin}/sandbox/paynet/api/v2/sale/${m.endpointId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody({ ...params, control }),
    });
    const text = await sale.text();
    expect(sale.status, text).toBe(200);
    expect(text).toMatch(/(?:^|[&\n])type=async-response(?:[&\n]|$)/);
  });

  it('makes another merchant on every call', async () => {
    const a = (await (await make({ purpose: 'replay' })).json()) as Made;
    const b = (await (await make({ purpose: 'replay' })).json()) as Made;
    expect(a.login).not.toBe(b.login);
    expect(a.endpointId).not.toBe(b.endpointId);
    expect(a.controlKey).not.toBe(b.controlKey);
  });

  it.each([[{}], [{ purpose: 'trainee' }], [{ purpose: 'replay', login: 'demo-merchant' }]])(
    'refuses the body %j with what to send',
    async (body) => {
      const res = await make(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        type: 'validation-error',
        'error-message': expect.stringContaining('{"purpose": "replay"}'),
      });
    },
  );

  it('refuses a request naming a host other than this machine', async () => {
    const status = await new Promise<number>((done, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/sandbox/merchants',
          headers: { host: 'console.example.invalid', 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.on('error', fail);
      req.end(JSON.stringify({ purpose: 'replay' }));
    });
    expect(status).toBe(403);
  });
});
