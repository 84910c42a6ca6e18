import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { serverLimitsFromEnv, type ServerLimits } from '../../sandbox/server-limits.ts';
import { send, startConsole, type Running } from './helpers.ts';

/** A raw client: writes `head` at once, then `drip` one byte per tick until the server answers or closes. */
function dribble(port: number, head: string, drip: string): { answer: Promise<string>; socket: net.Socket } {
  const socket = net.connect(port, '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let got = '';
    let i = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (socket.writable) socket.write(drip[i++ % drip.length]!);
      }, 40);
    });
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(got);
    });
  });
  return { answer, socket };
}

const SLOW = {
  SERVER_REQUEST_TIMEOUT_MS: '600',
  SERVER_HEADERS_TIMEOUT_MS: '300',
  SERVER_MAX_CONNECTIONS: '4',
};

async function connectionsOf(server: FastifyInstance['server']): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  );
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

describe('server limits: settings', () => {
  it('reads the SERVER_* variables, with defaults', () => {
    expect(serverLimitsFromEnv({})).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 256,
    });
    expect(serverLimitsFromEnv(SLOW).maxConnections).toBe(4);
  });
  it.each([
    [{ SERVER_REQUEST_TIMEOUT_MS: 'soon' }, /SERVER_REQUEST_TIMEOUT_MS must be a whole number/],
    [{ SERVER_MAX_CONNECTIONS: '0' }, /SERVER_MAX_CONNECTIONS must be a whole number from 1/],
    [
      { SERVER_REQUEST_TIMEOUT_MS: '1000', SERVER_HEADERS_TIMEOUT_MS: '2000' },
      /SERVER_HEADERS_TIMEOUT_MS must not be larger/,
    ],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => serverLimitsFromEnv(env)).toThrow(message);
  });
});

/** The same checks on both servers: the console's (`npm start`) and the sandbox alone (`npm run sandbox`). */
function slowSenderSuite(
  name: string,
  start: () => Promise<{ port: number; server: FastifyInstance['server']; close(): Promise<void> }>,
  okPath: { method: string; path: string },
  bodyPath: string,
) {
  describe(`${name}: slow senders (issue 9 §3.6)`, () => {
    let s: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      s = await start();
    });
    afterAll(async () => {
      await s.close();
    });

    it('answers 408 to a body sent one byte at a time, and serves others meanwhile', async () => {
      const slow = dribble(
        s.port,
        `POST ${bodyPath} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n`,
        'a=1&',
      );
      const other = await send(s.port, okPath.method, okPath.path);
      expect(other.status).toBe(200);
      const answer = await slow.answer;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('REQUEST_TIMEOUT');
      expect((await send(s.port, okPath.method, okPath.path)).status).toBe(200);
    });

    it('answers 408 to headers sent one byte at a time', async () => {
      const slow = dribble(
        s.port,
        `GET / HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n`,
        'X-Slow: aaaaaaaaaaaaaa',
      );
      expect((await send(s.port, okPath.method, okPath.path)).status).toBe(200);
      expect(await slow.answer).toMatch(/^HTTP\/1\.1 408 /);
    });

    it('caps open connections, and serves again once they close', async () => {
      const idle: net.Socket[] = [];
      for (let i = 0; i < 4; i++) {
        const socket = net.connect(s.port, '127.0.0.1');
        socket.on('error', () => undefined);
        idle.push(socket);
      }
      await until(async () => (await connectionsOf(s.server)) === 4);
      const refused = await send(s.port, okPath.method, okPath.path).then(
        () => 'answered',
        (e: NodeJS.ErrnoException) => e.code ?? 'error',
      );
      expect(refused).not.toBe('answered');
      for (const socket of idle) socket.destroy();
      await until(async () => (await connectionsOf(s.server)) === 0);
      expect((await send(s.port, okPath.method, okPath.path)).status).toBe(200);
    });
  });
}

slowSenderSuite(
  'console server',
  async () => {
    const r: Running = await startConsole(SLOW);
    return { port: r.port, server: r.app.server, close: () => r.close() };
  },
  { method: 'GET', path: '/proxy/targets' },
  '/callbacks/slow',
);

slowSenderSuite(
  'sandbox server',
  async () => {
    const app = await createSandboxApp(
      { dbPath: ':memory:' },
      { limits: serverLimitsFromEnv(SLOW) as ServerLimits },
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    return {
      port: (app.server.address() as AddressInfo).port,
      server: app.server,
      close: () => app.close(),
    };
  },
  { method: 'GET', path: '/sandbox/demo-merchant' },
  '/sandbox/paynet/api/v2/sale/1111',
);
