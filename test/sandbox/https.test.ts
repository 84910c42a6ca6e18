/**
 * Issue 20: `npm run sandbox` with SANDBOX_HTTPS=1 serves HTTPS with a certificate it makes on
 * first start (a local CA and a server certificate for localhost, 127.0.0.1, ::1). From outside:
 * node's https client trusting only that CA, a client that hard-codes
 * `https://localhost:<port>/paynet/api/...` (control and OAuth RSA-SHA256 over the https URL),
 * `openssl verify` and `curl --cacert` when present.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, createSign, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import OAuth from 'oauth-1.0a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { ensureSandboxCertificate, type SandboxTls } from '../../sandbox/tls-certificate.ts';
import { orderId, payoutParams, saleParams, testMerchants } from './support.ts';

const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');
const has = (cmd: string) => !spawnSync(cmd, ['--version']).error;

interface Reply {
  status: number;
  type: string | undefined;
  body: string;
}

function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  ca: Buffer | undefined,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: 'POST',
        // Only the sandbox's CA: node's built-in roots are replaced by it.
        ...(ca ? { ca } : {}),
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the standalone sandbox over HTTPS', () => {
  const merchant = testMerchants().acme;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-tls-'));
  let tls: SandboxTls;
  let ca: Buffer;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    tls = ensureSandboxCertificate(dataDir);
    ca = readFileSync(tls.caPath);
    app = await createSandboxApp(
      { dbPath: ':memory:', dataDir, finalizeDelayMs: 0, merchants: [merchant] },
      { https: { key: tls.key, cert: tls.cert } },
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('makes the CA and server certificate once, keeps the keys private, and reuses them', () => {
    expect(tls.created).toBe(true);
    const again = ensureSandboxCertificate(dataDir);
    expect(again.created).toBe(false);
    expect(again.caFingerprint256).toBe(tls.caFingerprint256);
    expect(again.cert).toBe(tls.cert);
    // The fingerprint printed at start is the CA file's, as openssl prints it.
    expect(new X509Certificate(ca).fingerprint256).toBe(tls.caFingerprint256);
    for (const file of ['sandbox-ca-key.pem', 'server-key.pem'])
      expect(statSync(path.join(dataDir, 'tls', file)).mode & 0o077, file).toBe(0);
    const server = new X509Certificate(tls.cert);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkIP('::1')).toBe('::1');
    expect(server.verify(new X509Certificate(ca).publicKey)).toBe(true);
    expect(new X509Certificate(ca).ca).toBe(true);
  });

  it('answers a client that hard-codes https://localhost/paynet/api/v2, trusting only the printed CA', async () => {
    const params = { login: merchant.login, client_orderid: orderId('tls'), orderid: '1' };
    const control = sha1(`${merchant.login}${params.client_orderid}1${merchant.controlKey}`);
    const url = `https://localhost:${port}/paynet/api/v2/status/${merchant.endpointIds[0]}`;
    const r = await post(url, new URLSearchParams({ ...params, control }).toString(), {}, ca);
    // Signature good; no such order: the gateway's default answer, a 200 with the refusal.
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/html;charset=utf-8');
    expect(r.body).toContain('type=validation-error\n');
    expect(r.body).toContain('&error-reason=ORDER_NOT_FOUND\n');
    // The same client without the CA is refused by TLS: the trust is what makes it work.
    await expect(post(url, 'a=b', {}, undefined)).rejects.toThrow(
      /self[- ]signed|unable to verify|certificate/i,
    );
  });

  it('checks an OAuth RSA-SHA256 signature over the https URL the client used', async () => {
    const params = payoutParams();
    const url = `https://localhost:${port}/paynet/api/v4/payout-check/${merchant.endpointIds[0]}`;
    const oauthFor = (signedUrl: string) => {
      const oauth = new OAuth({
        consumer: { key: merchant.login, secret: '' },
        signature_method: 'RSA-SHA256',
        hash_function: (base: string) =>
          createSign('RSA-SHA256').update(base).sign(merchant.privateKeyPem, 'base64'),
      });
      oauth.getNonce = () => randomBytes(16).toString('hex');
      return oauth.toHeader(oauth.authorize({ url: signedUrl, method: 'POST', data: params })).Authorization;
    };
    const json = { accept: 'application/vnd.pay+json' };
    const good = await post(
      url,
      new URLSearchParams(params).toString(),
      { ...json, authorization: oauthFor(url) },
      ca,
    );
    expect(good.status, good.body).toBe(200);
    expect(JSON.parse(good.body)).toMatchObject({ type: 'async-response' });
    // Signed over http:// but sent over https: the base string differs, so it is refused.
    const wrongScheme = await post(
      url,
      new URLSearchParams({ ...params, client_orderid: orderId('po') }).toString(),
      { ...json, authorization: oauthFor(url.replace('https:', 'http:')) },
      ca,
    );
    expect(wrongScheme.status).toBe(403);
    expect(JSON.parse(wrongScheme.body)).toMatchObject({ 'error-reason': 'INVALID_SIGNATURE' });
  });

  it.skipIf(!has('openssl'))('openssl verifies the server certificate against the CA', () => {
    const out = execFileSync(
      'openssl',
      ['verify', '-CAfile', tls.caPath, path.join(dataDir, 'tls', 'server.pem')],
      {
        encoding: 'utf8',
      },
    );
    expect(out.trim()).toMatch(/server\.pem: OK$/);
  });

  it.skipIf(!has('curl'))('curl --cacert reaches it at https://localhost', async () => {
    const sale = saleParams();
    const control = sha1(`1111${sale.client_orderid}1042${sale.email}${merchant.controlKey}`);
    // Asynchronous: the sandbox answers in this very process.
    const { stdout: out } = await promisify(execFile)(
      'curl',
      [
        '-sS',
        '--cacert',
        tls.caPath,
        '-H',
        'Accept: application/vnd.pay+json',
        '--data',
        new URLSearchParams({ ...sale, control }).toString(),
        `https://localhost:${port}/paynet/api/v2/sale/1111`,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toMatchObject({
      type: 'async-response',
      'merchant-order-id': sale.client_orderid,
    });
  });
});
