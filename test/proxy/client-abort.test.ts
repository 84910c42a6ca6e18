import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type Running } from './helpers.ts';

/**
 * A gateway that never answers: it records each request's socket and resolves when that socket
 * closes, so the test waits on the event itself (no timing).
 */
interface Hanging {
  url: string;
  arrived: Promise<Socket>;
  closed: Promise<void>;
  close(): Promise<void>;
}

async function startHanging(): Promise<Hanging> {
  let onArrive!: (s: Socket) => void;
  let onClose!: () => void;
  const arrived = new Promise<Socket>((r) => (onArrive = r));
  const closed = new Promise<void>((r) => (onClose = r));
  const server = http.createServer((req) => {
    req.socket.once('close', onClose);
    req.resume();
    req.on('end', () => onArrive(req.socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    closed,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let hanging: Hanging;
let server: Running;

beforeAll(async () => {
  hanging = await startHanging();
  server = await startConsole({
    // Far longer than the test: only the browser going away may end the upstream call.
    PROXY_TIMEOUT_MS: '600000',
    PROXY_TARGETS: JSON.stringify([{ name: 'hang', baseUrl: hanging.url, kind: 'sandbox' }]),
  });
});

afterAll(async () => {
  // The gateway first: a call left open (a failure of this test) must not keep the server up.
  await hanging.close();
  await server.close();
});

describe('the proxy when the console goes away', () => {
  it('closes the upstream socket once the browser aborts its request', async () => {
    const client = http.request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/proxy/hang/api/v2/status/1111',
      headers: {
        host: `127.0.0.1:${server.port}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/vnd.pay+json',
      },
      agent: false,
    });
    client.on('error', () => undefined);
    client.end('login=demo&client_orderid=inv-1');

    const upstreamSocket = await hanging.arrived;
    expect(upstreamSocket.destroyed).toBe(false);
    // What a browser does on Cancel (or on closing the tab): it drops the connection.
    client.destroy();
    await hanging.closed;
    expect(upstreamSocket.destroyed).toBe(true);
  });
});
