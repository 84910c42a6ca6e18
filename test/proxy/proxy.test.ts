import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProxyEnvelopeSchema,
  ProxyErrorBodySchema,
  ProxyTargetSchema,
  ProxyTargetsSchema,
} from '../../src/contracts/proxy.ts';
import {
  json,
  send,
  startConsole,
  startUpstream,
  type ErrorAnswer,
  type Running,
  type Upstream,
} from './helpers.ts';

interface Envelope {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  elapsedMs: number;
  url: string;
}

/** Headers the HTTP client itself (Node's fetch) sends; everything else must come from the console. */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'user-agent',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
]);

let upstream: Upstream;
let slow: Upstream;
let server: Running;
let closedPort: number;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.url.endsWith('/redirect')) {
      res.writeHead(302, { location: 'http://example.invalid/elsewhere', 'set-cookie': 'a=b' });
      res.end();
      return;
    }
    res.writeHead(201, {
      'content-type': 'application/vnd.pay+json; charset=utf-8',
      'set-cookie': 'session=secret; HttpOnly',
      'x-upstream': 'yes',
    });
    res.end('{"type":"async-response","paynet-order-id":"42"}');
  });
  slow = await startUpstream((_req, res) => {
    setTimeout(() => res.end('late'), 2000);
  });
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  server = await startConsole({
    PROXY_TIMEOUT_MS: '300',
    PROXY_BODY_LIMIT: '1024',
    PROXY_TARGETS: JSON.stringify([
      { name: 'echo', baseUrl: `${upstream.url}/paynet`, kind: 'sandbox' },
      { name: 'slow', baseUrl: slow.url, kind: 'sandbox' },
      { name: 'refused', baseUrl: `http://127.0.0.1:${closedPort}/paynet`, kind: 'production' },
      { name: 'nodns', baseUrl: 'https://gateway.pay-console-test.invalid/paynet', kind: 'production' },
    ]),
  });
});

afterAll(async () => {
  await server.close();
  await upstream.close();
  await slow.close();
});

const FORM = 'login=demo&client_orderid=inv%201&amount=10.42&email=a%40b.c&note=%C3%A9%20%2B';
const AUTH =
  'OAuth oauth_consumer_key="demo", oauth_nonce="abc", oauth_signature="x%2By%3D", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1", oauth_version="1.0"';

describe('GET /proxy/targets', () => {
  it('lists local first, then the configured targets, with name, baseUrl and kind only', async () => {
    const answer = await send(server.port, 'GET', '/proxy/targets');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const targets = json<{ name: string; baseUrl: string; kind: string }[]>(answer);
    expect(targets[0]).toEqual({ name: 'local', baseUrl: `${server.origin}/sandbox/paynet`, kind: 'local' });
    expect(targets.map((t) => t.name)).toEqual(['local', 'echo', 'slow', 'refused', 'nodns']);
    expect(targets[1]).toEqual({ name: 'echo', baseUrl: `${upstream.url}/paynet`, kind: 'sandbox' });
    for (const t of targets) expect(Object.keys(t).sort()).toEqual(['baseUrl', 'kind', 'name']);
  });
});

describe('POST /proxy/<target>/<path>', () => {
  it('forwards the body bytes and exactly Accept, Content-Type and Authorization, and returns the answer', async () => {
    upstream.requests.length = 0;
    const answer = await send(
      server.port,
      'POST',
      '/proxy/echo/api/v2/sale/1234',
      {
        accept: 'application/vnd.pay+json',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: AUTH,
        cookie: 'console-session=should-not-leave',
        origin: server.origin,
        referer: `${server.origin}/ops/v2/sale`,
        'x-forwarded-for': '10.0.0.1',
        'x-custom': 'no',
        'user-agent': 'browser/1.0',
      },
      FORM,
    );
    expect(answer.status).toBe(200);
    const env = json<Envelope>(answer);
    expect(env.status).toBe(201);
    expect(env.body).toBe('{"type":"async-response","paynet-order-id":"42"}');
    expect(env.headers['content-type']).toBe('application/vnd.pay+json; charset=utf-8');
    expect(env.headers['x-upstream']).toBe('yes');
    expect(env.headers['set-cookie']).toBeUndefined();
    expect(env.url).toBe(`${upstream.url}/paynet/api/v2/sale/1234`);
    expect(typeof env.elapsedMs).toBe('number');
    expect(env.elapsedMs).toBeGreaterThanOrEqual(0);

    expect(upstream.requests).toHaveLength(1);
    const got = upstream.requests[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/paynet/api/v2/sale/1234');
    expect(got.body.equals(Buffer.from(FORM))).toBe(true);
    expect(got.headers.accept).toBe('application/vnd.pay+json');
    expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(got.headers.authorization).toBe(AUTH);
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(FORM)));
    for (const name of Object.keys(got.headers)) {
      if (['accept', 'content-type', 'authorization'].includes(name)) continue;
      expect(TRANSPORT_HEADERS.has(name), `unexpected upstream header ${name}`).toBe(true);
    }
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers.origin).toBeUndefined();
    expect(got.headers.referer).toBeUndefined();
    expect(got.headers['x-forwarded-for']).toBeUndefined();
    expect(got.headers['user-agent']).not.toBe('browser/1.0');
    expect(got.headers.host).toBe(`127.0.0.1:${upstream.port}`);
  });

  it('forwards binary bytes unchanged and sends no Authorization when none was given', async () => {
    upstream.requests.length = 0;
    const bytes = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x0d, 0x0a, 0x80]);
    const answer = await send(
      server.port,
      'POST',
      '/proxy/echo/api/v4/payout-check/7',
      { 'content-type': 'application/octet-stream' },
      bytes,
    );
    expect(answer.status).toBe(200);
    const got = upstream.requests[0]!;
    expect(got.body.equals(bytes)).toBe(true);
    expect(got.headers.authorization).toBeUndefined();
    expect(got.headers['content-type']).toBe('application/octet-stream');
  });

  it('returns a 3xx as it is, without following it', async () => {
    upstream.requests.length = 0;
    const env = json<Envelope>(
      await send(server.port, 'POST', '/proxy/echo/redirect', { accept: 'x/y' }, 'a=1'),
    );
    expect(env.status).toBe(302);
    expect(env.headers.location).toBe('http://example.invalid/elsewhere');
    expect(env.headers['set-cookie']).toBeUndefined();
    expect(upstream.requests).toHaveLength(1);
  });

  it('refuses an unconfigured target with 404 naming the known ones', async () => {
    const answer = await send(server.port, 'POST', '/proxy/evil/api/v2/sale/1', {}, 'a=1');
    expect(answer.status).toBe(404);
    const err = json<ErrorAnswer>(answer).error;
    expect(err.code).toBe('TARGET_UNKNOWN');
    expect(err.message).toContain('local, echo, slow, refused, nodns');
  });

  it.each([
    ['/proxy/echo/../admin', 'PATH_TRAVERSAL'],
    ['/proxy/echo/api/../../x', 'PATH_TRAVERSAL'],
    ['/proxy/echo/%2e%2e/x', 'PATH_TRAVERSAL'],
    ['/proxy/echo/%2E%2E/x', 'PATH_TRAVERSAL'],
    ['/proxy/echo/api/%252e%252e/x', 'PATH_TRAVERSAL'],
    ['/proxy/echo/./api', 'PATH_TRAVERSAL'],
    ['/proxy/echo/api%2f..%2fx', 'PATH_TRAVERSAL'],
    ['/proxy/echo/api%5cx', 'PATH_TRAVERSAL'],
    ['/proxy/echo//evil.example/x', 'PATH_INVALID'],
    ['/proxy/echo/api\\x', 'PATH_INVALID'],
    ['/proxy/echo/api/v2/sale/1?url=http://evil.example/', 'QUERY_NOT_ALLOWED'],
    ['/proxy/echo/x?', 'QUERY_NOT_ALLOWED'],
    ['/proxy/echo/%zz', 'PATH_INVALID'],
  ])('refuses %s (%s) and sends nothing upstream', async (path, code) => {
    upstream.requests.length = 0;
    const answer = await send(server.port, 'POST', path, { 'content-type': 'text/plain' }, 'a=1');
    expect(answer.status).toBe(400);
    expect(json<ErrorAnswer>(answer).error.code).toBe(code);
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers 413 with a JSON error for a body over PROXY_BODY_LIMIT', async () => {
    upstream.requests.length = 0;
    const answer = await send(
      server.port,
      'POST',
      '/proxy/echo/api/v2/sale/1',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'a='.padEnd(2048, 'x'),
    );
    expect(answer.status).toBe(413);
    const err = json<ErrorAnswer>(answer).error;
    expect(err.code).toBe('BODY_TOO_LARGE');
    expect(err.message).toContain('PROXY_BODY_LIMIT');
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers 504 when the upstream is slower than PROXY_TIMEOUT_MS', async () => {
    const answer = await send(server.port, 'POST', '/proxy/slow/api/v2/status/1', {}, 'a=1');
    expect(answer.status).toBe(504);
    const err = json<ErrorAnswer>(answer).error;
    expect(err.code).toBe('UPSTREAM_TIMEOUT');
    expect(err.message).toContain('300 ms');
  });

  it('answers 502 naming a refused connection', async () => {
    const answer = await send(server.port, 'POST', '/proxy/refused/api/v2/status/1', {}, 'a=1');
    expect(answer.status).toBe(502);
    const err = json<ErrorAnswer>(answer).error;
    expect(err.code).toBe('UPSTREAM_REFUSED');
    expect(err.message).toMatch(/refused the connection/);
    expect(err.message).toContain(`127.0.0.1:${closedPort}`);
  });

  it('answers 502 naming a DNS failure', async () => {
    const answer = await send(server.port, 'POST', '/proxy/nodns/api/v2/status/1', {}, 'a=1');
    expect(answer.status).toBe(502);
    const err = json<ErrorAnswer>(answer).error;
    expect(err.code).toBe('UPSTREAM_DNS');
    expect(err.message).toContain('gateway.pay-console-test.invalid');
    expect(err.message).toMatch(/could not be resolved/);
  });

  it('answers 405 for another method on a proxy path and 404 JSON elsewhere under /proxy', async () => {
    const get = await send(server.port, 'GET', '/proxy/echo/api/v2/sale/1');
    expect(get.status).toBe(405);
    expect(json<ErrorAnswer>(get).error.code).toBe('METHOD_NOT_ALLOWED');
    const other = await send(server.port, 'GET', '/proxy/nothing');
    expect(other.status).toBe(404);
    expect(json<ErrorAnswer>(other).error.code).toBe('NOT_FOUND');
  });
});

describe('Host and Origin checks', () => {
  it.each(['evil.example', 'evil.example:80', `127.0.0.1.nip.io:0`, '127.0.0.1:1', 'localhost'])(
    'refuses Host %j with 421 on every path',
    async (host) => {
      for (const [method, path] of [
        ['GET', '/'],
        ['GET', '/proxy/targets'],
        ['POST', '/proxy/echo/api/v2/sale/1'],
        ['GET', '/callbacks/demo'],
        ['GET', '/sandbox/demo-merchant'],
      ] as const) {
        const answer = await send(server.port, method, path, { host }, method === 'POST' ? 'a=1' : undefined);
        expect(answer.status).toBe(421);
        expect(json<ErrorAnswer>(answer).error.code).toBe('HOST_NOT_ALLOWED');
      }
    },
  );

  it('refuses a request without Host (Node answers 400 before routing)', async () => {
    const answer = await send(server.port, 'GET', '/proxy/targets', { host: '' });
    expect(answer.status).toBe(400);
  });

  it('accepts localhost and [::1] on its own port', async () => {
    for (const host of [`localhost:${server.port}`, `[::1]:${server.port}`, `LOCALHOST:${server.port}`]) {
      expect((await send(server.port, 'GET', '/proxy/targets', { host })).status).toBe(200);
    }
  });

  it('refuses a foreign Origin on /proxy (even GET) and on state-changing requests', async () => {
    upstream.requests.length = 0;
    const origin = 'https://evil.example';
    const post = await send(server.port, 'POST', '/proxy/echo/api/v2/sale/1', { origin }, 'a=1');
    expect(post.status).toBe(403);
    expect(json<ErrorAnswer>(post).error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await send(server.port, 'GET', '/proxy/targets', { origin })).status).toBe(403);
    expect((await send(server.port, 'POST', '/callbacks/demo', { origin }, '')).status).toBe(403);
    expect((await send(server.port, 'GET', '/proxy/targets', { origin: 'null' })).status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it('accepts the console origin on 127.0.0.1 and localhost, and no Origin at all', async () => {
    for (const origin of [server.origin, `http://localhost:${server.port}`]) {
      expect((await send(server.port, 'POST', '/proxy/echo/api/v2/sale/1', { origin }, 'a=1')).status).toBe(
        200,
      );
    }
    expect((await send(server.port, 'POST', '/proxy/echo/api/v2/sale/1', {}, 'a=1')).status).toBe(200);
  });

  // Not /callbacks/* either: a foreign Origin is refused there on every method (issue 9 §3.3).
  it('lets a page GET pass with a foreign Origin outside /proxy and /callbacks (read-only)', async () => {
    const answer = await send(server.port, 'GET', '/', { origin: 'https://evil.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('ALLOWED_HOSTS and ALLOWED_ORIGINS', () => {
  it('extends the accepted Host and Origin values', async () => {
    const other = await startConsole({
      ALLOWED_HOSTS: 'console.example.test:8443',
      ALLOWED_ORIGINS: 'https://console.example.test:8443',
    });
    try {
      const ok = await send(other.port, 'GET', '/proxy/targets', {
        host: 'console.example.test:8443',
        origin: 'https://console.example.test:8443',
      });
      expect(ok.status).toBe(200);
      const bad = await send(other.port, 'GET', '/proxy/targets', { host: 'console.example.test:8444' });
      expect(bad.status).toBe(421);
    } finally {
      await other.close();
    }
  });
});

describe('the wire contract (src/contracts/proxy.ts), read by the proxy and the browser alike', () => {
  const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort();
  it('the targets list, an envelope and an error parse with it, with no field beside its own', async () => {
    const targets = ProxyTargetsSchema.parse(json(await send(server.port, 'GET', '/proxy/targets')));
    for (const t of targets) expect(Object.keys(t).sort()).toEqual(keysOf(ProxyTargetSchema));

    const sent = await send(server.port, 'POST', '/proxy/echo/api/v2/sale/1234', {}, FORM);
    const raw = json<Record<string, unknown>>(sent);
    expect(ProxyEnvelopeSchema.safeParse(raw).success).toBe(true);
    expect(Object.keys(raw).sort()).toEqual(keysOf(ProxyEnvelopeSchema));

    const refused = await send(server.port, 'POST', '/proxy/evil/api/v2/sale/1', {}, 'a=1');
    expect(ProxyErrorBodySchema.parse(json(refused)).error.code).toBe('TARGET_UNKNOWN');
  });
});
