/**
 * Every guard decides on the route the router serves (issue 18). For the three servers a user
 * starts (`npm start`, `npm run sandbox`, `npm run classroom`), every route is read from the
 * server's own route table; each request a guard refuses in its plain spelling is sent again in
 * every re-spelling of its path (each character percent-encoded in upper and lower case, double
 * encoding, `//`, `/./`, `/../`, `;x=y` segments, a trailing slash, `%2F` for each `/`). Each must
 * get the same refusal or a 400: never a 2xx, never a 5xx. Over real HTTP, so the bytes of the path
 * reach the server as written.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { routeTable, type RouteEntry } from '../../sandbox/route-access.ts';
import { startRoom, Trainee, type Room } from '../classroom/support.ts';
import { startConsole, type Running } from '../proxy/helpers.ts';
import { closeRawAgent, sendRaw as send } from './raw-http.ts';

/** Every re-spelling of a plain path the guards must not be fooled by. */
export function respellings(plain: string): string[] {
  const out = new Set<string>();
  const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
  for (let i = 1; i < plain.length; i++) {
    const c = plain[i]!;
    const before = plain.slice(0, i);
    const after = plain.slice(i + 1);
    if (c === '/') {
      out.add(`${before}//${after}`);
      out.add(`${before}/./${after}`);
      out.add(`${before}/x/../${after}`);
      out.add(`${before}%2F${after}`);
      out.add(`${before}%2f${after}`);
      out.add(`${before};x=y/${after}`);
      continue;
    }
    out.add(`${before}%${hex(c).toUpperCase()}${after}`);
    out.add(`${before}%${hex(c).toLowerCase()}${after}`);
    out.add(`${before}%25${hex(c).toUpperCase()}${after}`);
  }
  out.add(`${plain}/`);
  out.add(`${plain};x=y`);
  out.add(`/.${plain}`);
  out.delete(plain);
  return [...out];
}

interface Identity {
  name: string;
  headers: Record<string, string>;
}

interface Target {
  port: number;
  table: readonly RouteEntry[];
  identities: Identity[];
  /** A concrete path for a route pattern (its parameters filled in). */
  fill(url: string): string;
  /** The body a request of this method to this route carries (a valid one, so a bypass would act). */
  body(url: string, method: string): { body?: string; headers: Record<string, string> };
}

const PUBLIC_KEY_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();

function fillWith(values: Record<string, string>, star: (url: string) => string) {
  return (url: string) =>
    url.replace(/:([A-Za-z]+)/g, (_m, name: string) => values[name] ?? 'x').replace(/\*$/, () => star(url));
}

function bodyFor(url: string, method: string): { body?: string; headers: Record<string, string> } {
  if (method === 'GET' || method === 'HEAD') return { headers: {} };
  if (url.endsWith('/public-key'))
    return {
      body: JSON.stringify({ publicKeyPem: PUBLIC_KEY_PEM }),
      headers: { 'content-type': 'application/json' },
    };
  if (url.includes('/paynet/api/') || url.startsWith('/proxy/'))
    return {
      body: 'login=x&client_orderid=1',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/vnd.pay+json',
      },
    };
  return { body: '{}', headers: { 'content-type': 'application/json' } };
}

/** Sends every plain request with every identity, then every re-spelling of each one refused. */
async function checkSpellings(t: Target): Promise<{ refused: number; sent: number }> {
  let refused = 0;
  let sent = 0;
  const failures: string[] = [];
  for (const route of t.table) {
    if (route.method === 'OPTIONS') continue;
    const plain = t.fill(route.url);
    const { body, headers } = t.body(route.url, route.method);
    for (const who of t.identities) {
      const h = { ...headers, ...who.headers };
      const first = await send(t.port, route.method, plain, h, body);
      sent++;
      if (first.status >= 500) failures.push(`${route.method} ${plain} as ${who.name}: ${first.status}`);
      if (first.status !== 401 && first.status !== 403 && first.status !== 421) continue;
      refused++;
      for (const spelled of respellings(plain)) {
        const r = await send(t.port, route.method, spelled, h, body);
        sent++;
        const same = r.status === first.status && r.code === first.code;
        if (!same && r.status !== 400)
          failures.push(
            `${route.method} ${spelled} as ${who.name}: ${r.status} ${r.code ?? ''} (plain: ${first.status} ${first.code ?? ''})`,
          );
      }
    }
  }
  expect(failures.slice(0, 20)).toEqual([]);
  return { refused, sent };
}

const star = (defaults: { endpoint: string }) => (url: string) =>
  url.startsWith('/proxy/')
    ? `paynet/api/v2/sale/${defaults.endpoint}`
    : url.endsWith('/paynet/api/*')
      ? `v2/sale/${defaults.endpoint}`
      : url === '/*'
        ? 'ops/v2/sale'
        : 'anything/here';

describe('guards hold for every spelling of every route', { timeout: 180_000 }, () => {
  let room: Room;
  let ann: Trainee;
  let bob: Trainee;
  let console_: Running;
  let sandbox: FastifyInstance;
  let sandboxPort: number;
  const inbox = 's-ann-inbox-0001';

  beforeAll(async () => {
    room = await startRoom();
    ann = await new Trainee(room, 'Ann').join();
    bob = await new Trainee(room, 'Bob').join();
    // Ann reads her inbox first: it is hers from then on.
    const claim = await send(room.port, 'GET', `/callbacks/${inbox}/list`, { cookie: ann.cookie }, undefined);
    expect(claim.status).toBe(200);
    console_ = await startConsole();
    sandbox = await createSandboxApp({
      dbPath: ':memory:',
      dataDir: mkdtempSync(path.join(tmpdir(), 'spellings-')),
    });
    await sandbox.listen({ host: '127.0.0.1', port: 0 });
    sandboxPort = (sandbox.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    closeRawAgent();
    await room?.close();
    await console_?.close();
    await sandbox?.close();
  });

  it('reads every route of each server from its own table, each with a declared access', () => {
    for (const app of [room.app, console_.app, sandbox]) {
      const table = routeTable(app);
      expect(table.length).toBeGreaterThan(5);
      for (const r of table) expect(r.access, `${r.method} ${r.url}`).toBeTruthy();
    }
    const urls = routeTable(room.app).map((r) => r.url);
    for (const u of [
      '/sandbox/demo-merchant',
      '/sandbox/merchants/:login/public-key',
      '/callbacks/:inbox/list',
    ])
      expect(urls).toContain(u);
  });

  it('npm run classroom: two trainees, no session, another trainee’s session, a foreign page', async () => {
    const host = `127.0.0.1:${room.port}`;
    const { refused } = await checkSpellings({
      port: room.port,
      table: routeTable(room.app),
      identities: [
        { name: 'nobody', headers: { host } },
        { name: 'nobody from the console', headers: { host, origin: room.origin } },
        { name: 'Bob', headers: { host, cookie: bob.cookie, origin: room.origin } },
        { name: 'Bob without Origin', headers: { host, cookie: bob.cookie } },
        { name: 'a foreign page', headers: { host, origin: 'http://evil.example' } },
      ],
      fill: fillWith(
        { login: ann.login, inbox, token: 'no-such-token', target: 'local' },
        star({ endpoint: ann.endpointId }),
      ),
      body: bodyFor,
    });
    // The demo merchant, key registration, trainer routes, Ann's inbox and endpoint, at least.
    expect(refused).toBeGreaterThan(40);
  });

  it('answers no request a user can send with a 5xx: every route, as allowed callers, with odd bodies', async () => {
    const odd: Array<{ body?: string; headers: Record<string, string> }> = [
      { headers: {} },
      { body: '', headers: { 'content-type': 'application/json' } },
      { body: '{"publicKeyPem":', headers: { 'content-type': 'application/json' } },
      {
        body: '{"publicKeyPem":"-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----"}',
        headers: { 'content-type': 'application/json' },
      },
      { body: 'a=%zz&&=', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { body: '\u0000\u00ff', headers: { 'content-type': 'text/plain' } },
    ];
    const trainer = `pc_trainer=${room.app.classroom.trainerToken()}`;
    const servers = [
      {
        port: room.port,
        app: room.app,
        who: [
          { cookie: ann.cookie, origin: room.origin },
          { cookie: trainer, origin: room.origin },
        ],
        fill: fillWith(
          { login: ann.login, inbox, token: 'no-such-token', target: 'local' },
          star({ endpoint: ann.endpointId }),
        ),
      },
      {
        port: console_.port,
        app: console_.app,
        who: [{}],
        fill: fillWith(
          { login: 'demo-merchant', inbox: 'demo', token: 'no-such-token', target: 'local' },
          star({ endpoint: '1111' }),
        ),
      },
      {
        port: sandboxPort,
        app: sandbox,
        who: [{}],
        fill: fillWith({ login: 'demo-merchant', token: 'no-such-token' }, star({ endpoint: '1111' })),
      },
    ];
    const failures: string[] = [];
    for (const s of servers)
      for (const route of routeTable(s.app)) {
        if (route.method === 'GET' || route.method === 'HEAD' || route.method === 'OPTIONS') continue;
        for (const who of s.who)
          for (const o of odd) {
            const r = await send(
              s.port,
              route.method,
              s.fill(route.url),
              { host: `127.0.0.1:${s.port}`, ...who, ...o.headers },
              o.body,
            );
            if (r.status >= 500)
              failures.push(
                `${route.method} ${s.fill(route.url)} ${o.body ?? ''}: ${r.status} ${r.code ?? ''}`,
              );
          }
      }
    expect(failures).toEqual([]);
  });

  it('npm start: a foreign page, and a request for the keys through a name that is not loopback', async () => {
    const host = `127.0.0.1:${console_.port}`;
    const { refused } = await checkSpellings({
      port: console_.port,
      table: routeTable(console_.app),
      identities: [
        { name: 'a foreign page', headers: { host, origin: 'http://evil.example' } },
        { name: 'a non-loopback Origin', headers: { host, origin: 'http://192.0.2.1' } },
      ],
      fill: fillWith(
        { login: 'demo-merchant', inbox: 'demo', token: 'no-such-token', target: 'local' },
        star({ endpoint: '1111' }),
      ),
      body: bodyFor,
    });
    expect(refused).toBeGreaterThan(10);
  });

  it('npm run sandbox: the keys asked for by a name that is not loopback (DNS rebinding)', async () => {
    const { refused } = await checkSpellings({
      port: sandboxPort,
      table: routeTable(sandbox),
      identities: [
        { name: 'a rebinding name', headers: { host: `pay.example:${sandboxPort}` } },
        {
          name: 'a foreign page',
          headers: { host: `127.0.0.1:${sandboxPort}`, origin: 'http://evil.example' },
        },
      ],
      fill: fillWith({ login: 'demo-merchant', token: 'no-such-token' }, star({ endpoint: '1111' })),
      body: bodyFor,
    });
    expect(refused).toBeGreaterThanOrEqual(4);
  });
});
