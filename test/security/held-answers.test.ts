/**
 * Issue 27 §1, from outside: HTTP against a started sandbox. One client holding answers (a
 * delaying scenario) gets at most SANDBOX_HELD_PER_CLIENT of them; more are answered at once (429,
 * Retry-After, the setting named) and their connections closed, so another client is still served
 * while the first holds its maximum, the server's connection cap included. Held answers wait on a
 * sleep the test releases itself: nothing here depends on timing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { SERVER_LIMIT_DEFAULTS } from '../../sandbox/server-limits.ts';
import { signControl } from '../proxy/signers.ts';
import { cardParams } from '../classroom/support.ts';
import { testMerchants } from '../sandbox/support.ts';
import { Holds } from './held-sleep.ts';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** One request on a connection of its own, from `localAddress`. */
function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
  localAddress = '127.0.0.1',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path, headers, agent: false, localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { text };
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const acme = testMerchants().acme;
const sale = () => signControl('v2/sale', cardParams(), { ...acme, endpointId: acme.endpointIds[0]! });

describe('held answers per client (SANDBOX_HELD_PER_CLIENT)', () => {
  const holds = new Holds();
  let app: FastifyInstance;
  let port: number;
  const CAP = 8;
  const BUDGET = 2;

  beforeAll(async () => {
    app = await createSandboxApp(
      {
        dbPath: ':memory:',
        finalizeDelayMs: 1000,
        heldPerClient: BUDGET,
        scenarioSleep: holds.sleep,
        merchants: [{ ...acme }],
      },
      { limits: { ...SERVER_LIMIT_DEFAULTS, maxConnections: CAP } },
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    holds.releaseAll();
    await app?.close();
  });

  /** Sends a held sale and settles when it is held, answered or refused at connect. */
  async function holdOrAnswer(localAddress = '127.0.0.1'): Promise<'held' | Reply | Error> {
    const s = sale();
    const held = holds.nextHold();
    const answered = post(
      port,
      `/sandbox/paynet/${s.path}`,
      { ...s.headers, 'x-sandbox-scenario': 'latency;delay-ms=600000' },
      s.body,
      localAddress,
    ).catch((e: Error) => e);
    return Promise.race([held, answered]);
  }

  it('answers a client beyond its budget at once: 429, Retry-After, the setting named, the connection closed', async () => {
    const outcomes: Array<'held' | Reply | Error> = [];
    // Four times the cap, one after the other, each on a new connection: as an abuser would.
    for (let i = 0; i < CAP * 4; i++) outcomes.push(await holdOrAnswer());
    expect(outcomes.filter((o) => o === 'held')).toHaveLength(BUDGET);
    const refused = outcomes.filter((o): o is Reply => typeof o === 'object' && !(o instanceof Error));
    expect(refused).toHaveLength(CAP * 4 - BUDGET);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.headers.connection).toBe('close');
      expect(r.body['error-reason']).toBe('HELD_ANSWERS_LIMIT');
      expect(String(r.body['error-message'])).toContain('SANDBOX_HELD_PER_CLIENT=2');
    }
    // A delay of 600 s: retry once the first held answer ends, not before.
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(500);
  });

  it('still serves another client, at connect too, while the first holds its maximum', async () => {
    // Another address: a held answer of its own, and a plain one answered at once.
    expect(await holdOrAnswer('127.0.0.2')).toBe('held');
    const s = sale();
    const plain = await post(port, `/sandbox/paynet/${s.path}`, s.headers, s.body, '127.0.0.2');
    expect(plain.status).toBe(200);
    expect(plain.body.type).toBe('async-response');
    // The first client's own plain requests are not held, so not refused either.
    const own = sale();
    expect((await post(port, `/sandbox/paynet/${own.path}`, own.headers, own.body)).status).toBe(200);
    expect(holds.count).toBe(BUDGET + 1);
  });

  it('frees a slot once a held answer is given', async () => {
    holds.releaseAll();
    // The released answers go out (their slots are given back before they are sent): the client
    // may hold again.
    expect(await holdOrAnswer()).toBe('held');
  });
});
