/**
 * Reaching gateways from a locked-down network (issue 9 §4), on loopback only: a CONNECT proxy
 * written here (with and without Proxy-Authorization), an HTTPS upstream with a certificate from a
 * CA this test makes with the openssl CLI and asking for a client certificate, and one with a
 * certificate for another host name.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../proxy/config.ts';
import { bypassesProxy } from '../../proxy/upstream-network.ts';
import { json, send, startConsole, type ErrorAnswer, type Running } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'pay-console-pki-'));
const file = (name: string) => join(dir, name);

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A key and a certificate signed by `ca` (or self-signed when `ca` is undefined), with extensions. */
function issue(name: string, subject: string, ext: string, ca: string | undefined): void {
  writeFileSync(file(`${name}.ext`), ext);
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  );
  if (ca) {
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-sha256',
      '-extfile',
      `${name}.ext`,
    );
  } else {
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-signkey',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
  }
}

function makePki(): void {
  for (const ca of ['ca', 'other-ca']) {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.pem`,
      '-days',
      '2',
      '-subj',
      `/CN=pay-console test ${ca}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  }
  const server =
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n';
  const client = 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n';
  issue('server', '/CN=localhost', `${server}subjectAltName=IP:127.0.0.1,DNS:localhost\n`, 'ca');
  issue('wrong-host', '/CN=gateway.example', `${server}subjectAltName=DNS:gateway.example\n`, 'ca');
  issue('client', '/CN=merchant-42', client, 'ca');
  issue('rogue-client', '/CN=rogue', client, 'other-ca');
}

interface Seen {
  connects: string[];
  forwards: string[];
  proxyAuth: Array<string | undefined>;
}

/** A tiny HTTP proxy: CONNECT tunnels, absolute-form forwarding, optional Basic credentials. */
async function startProxy(
  credentials?: string,
  /** CONNECT targets (host:port) the proxy's policy blocks with 403. */
  blocked: string[] = [],
): Promise<{ url: string; port: number; seen: Seen; close(): Promise<void> }> {
  const seen: Seen = { connects: [], forwards: [], proxyAuth: [] };
  const expected = credentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined;
  const allowed = (h: http.IncomingHttpHeaders) => !expected || h['proxy-authorization'] === expected;
  const server = http.createServer((req, res) => {
    seen.forwards.push(req.url ?? '');
    seen.proxyAuth.push(req.headers['proxy-authorization']);
    if (!allowed(req.headers)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  const sockets = new Set<net.Socket>();
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    seen.connects.push(req.url ?? '');
    seen.proxyAuth.push(req.headers['proxy-authorization']);
    if (!allowed(req.headers)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    if (blocked.includes(req.url ?? '')) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTTPS upstream; with `requireClient`, it asks for a client certificate from the test CA and refuses others. */
async function startTlsUpstream(
  certName: string,
  requireClient: boolean,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = https.createServer(
    {
      key: readFileSync(file(`${certName}.key`)),
      cert: readFileSync(file(`${certName}.pem`)),
      ...(requireClient
        ? { ca: readFileSync(file('ca.pem')), requestCert: true, rejectUnauthorized: true }
        : {}),
    },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.writeHead(200, { 'content-type': 'application/vnd.pay+json' });
      res.end(JSON.stringify({ type: 'status-response', client: peer?.subject?.CN ?? null, path: req.url }));
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let mtls: { url: string; close(): Promise<void> };
let wrongHost: { url: string; close(): Promise<void> };
let closedPort: number;

beforeAll(async () => {
  makePki();
  mtls = await startTlsUpstream('server', true);
  wrongHost = await startTlsUpstream('wrong-host', false);
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
}, 60_000);

afterAll(async () => {
  await mtls.close();
  await wrongHost.close();
});

/** Writes a targets file in the PKI directory (relative certificate paths resolve from there). */
function targetsFile(targets: unknown[]): string {
  const path = join(dir, `targets-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(targets));
  return path;
}

const GATEWAY = (baseUrl: string, extra: Record<string, string> = {}) => ({
  name: 'gw',
  baseUrl: `${baseUrl}/paynet`,
  kind: 'sandbox',
  caFile: 'ca.pem',
  certFile: 'client.pem',
  keyFile: 'client.key',
  ...extra,
});

async function withConsole<T>(env: Record<string, string>, fn: (s: Running) => Promise<T>): Promise<T> {
  const s = await startConsole(env);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

async function proxied(s: Running, target = 'gw') {
  const a = await send(
    s.port,
    'POST',
    `/proxy/${target}/api/v2/status/1`,
    {
      accept: 'application/vnd.pay+json',
      'content-type': 'application/x-www-form-urlencoded',
    },
    'login=x',
  );
  return a;
}

/** The named failure (502) a console started with `env` answers to one proxied request. */
async function proxyFailure(env: Record<string, string>): Promise<ErrorAnswer['error'] & { body: string }> {
  return withConsole(env, async (s) => {
    const a = await proxied(s);
    expect(a.status).toBe(502);
    return { ...json<ErrorAnswer>(a).error, body: a.body };
  });
}

/** The mutual-TLS gateway reached through `proxyUrl` (HTTPS_PROXY). */
const throughProxy = (proxyUrl: string) => ({
  PROXY_TARGETS_FILE: targetsFile([GATEWAY(mtls.url)]),
  HTTPS_PROXY: proxyUrl,
});

describe('mutual TLS with a company CA (targets file)', () => {
  it('reaches an HTTPS gateway that requires a client certificate, trusting the CA from caFile', async () => {
    await withConsole({ PROXY_TARGETS_FILE: targetsFile([GATEWAY(mtls.url)]) }, async (s) => {
      const a = await proxied(s);
      expect(a.status, a.body).toBe(200);
      const env = json<{ status: number; body: string }>(a);
      expect(env.status).toBe(200);
      expect(JSON.parse(env.body)).toMatchObject({ client: 'merchant-42', path: '/paynet/api/v2/status/1' });
    });
  });

  it('names an untrusted certificate (no caFile) and says to add one', async () => {
    const { caFile: _ca, ...noCa } = GATEWAY(mtls.url);
    const e = await proxyFailure({ PROXY_TARGETS_FILE: targetsFile([noCa]) });
    expect(e.code).toBe('UPSTREAM_CERT_UNTRUSTED');
    expect(e.message).toContain('caFile');
    expect(e.message).toContain('"gw"');
  });

  it('names a certificate for another host name', async () => {
    const { certFile: _c, keyFile: _k, ...noClient } = GATEWAY(wrongHost.url);
    const e = await proxyFailure({ PROXY_TARGETS_FILE: targetsFile([noClient]) });
    expect(e.code).toBe('UPSTREAM_CERT_HOSTNAME');
    expect(e.message).toContain('gateway.example');
  });

  it('names a missing client certificate', async () => {
    const { certFile: _c, keyFile: _k, ...noClient } = GATEWAY(mtls.url);
    const e = await proxyFailure({ PROXY_TARGETS_FILE: targetsFile([noClient]) });
    expect(e.code).toBe('UPSTREAM_CLIENT_CERT_REJECTED');
    expect(e.message).toContain('certFile');
  });

  it('names a client certificate the gateway rejects', async () => {
    const e = await proxyFailure({
      PROXY_TARGETS_FILE: targetsFile([
        GATEWAY(mtls.url, { certFile: 'rogue-client.pem', keyFile: 'rogue-client.key' }),
      ]),
    });
    expect(e.code).toBe('UPSTREAM_CLIENT_CERT_REJECTED');
    expect(e.message).toContain('rejected the client certificate');
  });
});

describe('HTTPS_PROXY / HTTP_PROXY / NO_PROXY', () => {
  it('tunnels an https target through the proxy with CONNECT, mutual TLS inside', async () => {
    const proxy = await startProxy();
    try {
      await withConsole(throughProxy(proxy.url), async (s) => {
        const a = await proxied(s);
        expect(a.status, a.body).toBe(200);
        expect(JSON.parse(json<{ body: string }>(a).body)).toMatchObject({ client: 'merchant-42' });
        expect(proxy.seen.connects).toEqual([new URL(mtls.url).host]);
      });
    } finally {
      await proxy.close();
    }
  });

  it('sends Proxy-Authorization from the credentials in the proxy URL', async () => {
    const proxy = await startProxy('corp user:p@ss:w%rd');
    try {
      const url = `http://${encodeURIComponent('corp user')}:${encodeURIComponent('p@ss:w%rd')}@127.0.0.1:${proxy.port}`;
      await withConsole(
        { PROXY_TARGETS_FILE: targetsFile([GATEWAY(mtls.url)]), https_proxy: url },
        async (s) => {
          const a = await proxied(s);
          expect(a.status, a.body).toBe(200);
          expect(proxy.seen.proxyAuth[0]).toBe(
            `Basic ${Buffer.from('corp user:p@ss:w%rd').toString('base64')}`,
          );
        },
      );
    } finally {
      await proxy.close();
    }
  });

  it('names a proxy that asks for credentials (407), without showing any password', async () => {
    const proxy = await startProxy('corp:secret');
    try {
      const e = await proxyFailure(throughProxy(proxy.url));
      expect(e.code).toBe('PROXY_AUTH_REQUIRED');
      expect(e.message).toContain('http://user:password@');
      const wrong = await proxyFailure(throughProxy(`http://corp:not-the-password@127.0.0.1:${proxy.port}`));
      expect(wrong.code).toBe('PROXY_AUTH_REQUIRED');
      expect(wrong.message).toContain('refused the user name and password');
      expect(wrong.body).not.toContain('not-the-password');
    } finally {
      await proxy.close();
    }
  });

  it('names a proxy that refuses connections', async () => {
    const e = await proxyFailure(throughProxy(`http://u:hidden@127.0.0.1:${closedPort}`));
    expect(e.code).toBe('PROXY_REFUSED');
    expect(e.message).toContain(`127.0.0.1:${closedPort}`);
    expect(e.body).not.toContain('hidden');
  });

  it('names a proxy that will not open the tunnel (403 to CONNECT)', async () => {
    const proxy = await startProxy(undefined, [new URL(mtls.url).host]);
    try {
      const e = await proxyFailure(throughProxy(proxy.url));
      expect(e.code).toBe('PROXY_TUNNEL_FAILED');
      expect(e.message).toContain('403');
      expect(e.message).toContain(new URL(mtls.url).host);
    } finally {
      await proxy.close();
    }
  });

  it('names a proxy whose host name does not resolve', async () => {
    const e = await proxyFailure(throughProxy('http://proxy.pay-console-test.invalid:3128'));
    expect(e.code).toBe('PROXY_UNREACHABLE');
  });

  it('forwards a plain http target through HTTP_PROXY, and names a 407 there too', async () => {
    const upstream = http.createServer((_req, res) => res.end('{"type":"status-response"}'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const open = await startProxy();
    const locked = await startProxy('a:b');
    try {
      const targets = JSON.stringify([{ name: 'plain', baseUrl: `${upstreamUrl}/paynet`, kind: 'sandbox' }]);
      await withConsole({ PROXY_TARGETS: targets, HTTP_PROXY: open.url }, async (s) => {
        const a = await proxied(s, 'plain');
        expect(json<{ status: number }>(a).status).toBe(200);
        expect(open.seen.forwards).toEqual([`${upstreamUrl}/paynet/api/v2/status/1`]);
      });
      await withConsole({ PROXY_TARGETS: targets, HTTP_PROXY: locked.url }, async (s) => {
        const a = await proxied(s, 'plain');
        expect(json<ErrorAnswer>(a).error.code).toBe('PROXY_AUTH_REQUIRED');
      });
    } finally {
      await open.close();
      await locked.close();
      upstream.closeAllConnections();
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  });

  it('goes direct for hosts in NO_PROXY, and never proxies the local target', async () => {
    const proxy = await startProxy();
    try {
      await withConsole(
        {
          PROXY_TARGETS_FILE: targetsFile([GATEWAY(mtls.url)]),
          HTTPS_PROXY: proxy.url,
          HTTP_PROXY: proxy.url,
          NO_PROXY: 'example.com, 127.0.0.1',
        },
        async (s) => {
          expect((await proxied(s)).status).toBe(200);
          expect(json<{ status: number }>(await proxied(s, 'local')).status).toBe(400);
        },
      );
      expect(proxy.seen.connects).toEqual([]);
      expect(proxy.seen.forwards).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('matches NO_PROXY like curl: names, subdomains, ports, *', () => {
    const u = (s: string) => new URL(s);
    expect(bypassesProxy(u('https://gate.example.com/x'), 'example.com')).toBe(true);
    expect(bypassesProxy(u('https://gate.example.com/x'), '.example.com')).toBe(true);
    expect(bypassesProxy(u('https://gate.example.com/x'), '*.example.com')).toBe(true);
    expect(bypassesProxy(u('https://badexample.com/x'), 'example.com')).toBe(false);
    expect(bypassesProxy(u('https://gate.example.com/x'), 'example.com:8443')).toBe(false);
    expect(bypassesProxy(u('https://gate.example.com:8443/x'), 'example.com:8443')).toBe(true);
    expect(bypassesProxy(u('https://gate.example.com/x'), '*')).toBe(true);
    expect(bypassesProxy(u('https://gate.example.com/x'), '')).toBe(false);
  });
});

describe('settings', () => {
  const load = (env: Record<string, string>) => () => loadConfig(env, dir);

  it.each([
    [
      [GATEWAY(mtls?.url ?? 'https://x', { caFile: 'missing.pem' })],
      /target "gw": caFile .*missing\.pem cannot be read \(ENOENT\)/,
    ],
    [[GATEWAY('https://x', { caFile: 'client.key' })], /caFile .* is not a PEM certificate bundle/],
    [
      [GATEWAY('https://x', { keyFile: 'rogue-client.key' })],
      /cannot be used together .*key belongs to the certificate/,
    ],
    [[{ ...GATEWAY('https://x'), keyFile: undefined }], /certFile and keyFile go together/],
    [[GATEWAY('http://x')], /need an https:\/\/ baseUrl/],
    [[{ ...GATEWAY('https://x'), cafile: 'ca.pem' }], /cafile/],
  ])('refuses a bad targets file with a clear message (%#)', (targets, message) => {
    expect(load({ PROXY_TARGETS_FILE: targetsFile(targets) })).toThrow(ConfigError);
    expect(load({ PROXY_TARGETS_FILE: targetsFile(targets) })).toThrow(message);
  });

  it('refuses a proxy URL that is not one, without echoing credentials', () => {
    expect(load({ HTTPS_PROXY: 'proxy.corp:3128' })).toThrow(
      /HTTPS_PROXY must be an http:\/\/ or https:\/\/ proxy URL|HTTPS_PROXY must be a proxy URL/,
    );
    expect(load({ HTTP_PROXY: 'socks5://u:secret@127.0.0.1:1080' })).toThrow(/HTTP_PROXY must be an http/);
    expect(load({ HTTP_PROXY: 'socks5://u:secret@127.0.0.1:1080' })).not.toThrow(/secret/);
  });

  it('reads lowercase names first, like curl', () => {
    const c = loadConfig(
      { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', no_proxy: 'a.example' },
      dir,
    );
    expect(c.network).toEqual({ httpsProxy: 'http://lower:2/', noProxy: 'a.example' });
  });
});
