/**
 * Issue 27 §2, from outside (HTTP against a started classroom server and a service on another
 * loopback port, the "trainer's machine"): a trainee's `server_callback_url` may only name their own
 * callback inbox on the classroom's server, or a host the trainer allows in CLASSROOM_CALLBACK_HOSTS;
 * anything else is refused when the request is made, so nothing is ever sent there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signControl, type Params } from '../proxy/signers.ts';
import { onEvent, waitFor } from '../sandbox/support.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/** A service of the machine the classroom runs on: counts what reaches it. */
async function startService(): Promise<{ server: http.Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('OK');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

function direct(room: Room, t: Trainee, opPath: string, params: Params): Promise<Reply> {
  const s = signControl(opPath, params, {
    login: t.login,
    controlKey: t.controlKey,
    endpointId: t.endpointId,
  });
  return fetch(`${room.origin}/sandbox/paynet/${s.path}`, {
    method: 'POST',
    headers: { ...s.headers, cookie: t.cookie },
    body: s.body,
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
}

const sale = (callback: string) => cardParams({ server_callback_url: callback });

async function inboxOf(room: Room, t: Trainee, inbox: string): Promise<unknown[]> {
  const res = await fetch(`${room.origin}/callbacks/${inbox}/list`, { headers: { cookie: t.cookie } });
  expect(res.status).toBe(200);
  return (await res.json()) as unknown[];
}

describe('classroom: a trainee’s callbacks go to their own inbox only', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let room: Room;
  let ann: Trainee;
  let bob: Trainee;

  beforeAll(async () => {
    service = await startService();
    room = await startRoom();
    ann = await new Trainee(room, 'Ann').join();
    bob = await new Trainee(room, 'Bob').join();
  });
  afterAll(async () => {
    await room?.close();
    await new Promise((r) => service?.server.close(r));
  });

  it('refuses another port of this machine, another trainee’s inbox and other paths of the classroom', async () => {
    // Bob reads his inbox first: it is his.
    expect((await inboxOf(room, bob, 'bob-box')).length).toBe(0);
    const refused = [
      `http://127.0.0.1:${service.port}/hook`,
      `http://localhost:${service.port}/callbacks/ann-box`,
      `http://[::1]:${service.port}/`,
      `http://127.0.0.1:${room.port}/classroom/trainer/reset`,
      `http://127.0.0.1:${room.port}/callbacks/bob-box`,
      `http://127.0.0.1:${room.port}/callbacks/ann-box/list`,
      `https://127.0.0.1:${room.port}/callbacks/ann-box`,
    ];
    for (const url of refused) {
      const r = await direct(room, ann, 'v2/sale', sale(url));
      expect(r.status, url).toBe(400);
      expect(r.body['error-reason'], url).toBe('CALLBACK_URL_REFUSED');
      expect(String(r.body['error-message']), url).toMatch(/your own inbox .*CLASSROOM_CALLBACK_HOSTS/);
    }
  });

  it('delivers to the trainee’s own inbox, and nothing ever reaches the other port', async () => {
    const refused = await direct(room, ann, 'v2/sale', sale(`http://127.0.0.1:${service.port}/hook`));
    expect(refused.status).toBe(400);
    const ack = await direct(room, ann, 'v2/sale', sale(`http://127.0.0.1:${room.port}/callbacks/ann-box`));
    expect(ack.status).toBe(200);
    room.clock.advance(1500);
    // The sandbox finalises on its own timer; the callback arrives as a request to the server.
    const got = await waitFor(
      async () => {
        const list = await inboxOf(room, ann, 'ann-box');
        return list.length > 0 ? list : undefined;
      },
      onEvent(room.app.server, 'request'),
    );
    expect(JSON.stringify(got)).toContain(String(ack.body['paynet-order-id']));
    // The refused request made no order: nothing was, or will be, sent to the other port.
    expect(service.hits).toEqual([]);
    // Bob cannot read the inbox Ann's callbacks went to.
    const peek = await fetch(`${room.origin}/callbacks/ann-box/list`, { headers: { cookie: bob.cookie } });
    expect(peek.status).toBe(403);
  });
});

describe('classroom: hosts the trainer allows (CLASSROOM_CALLBACK_HOSTS)', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let room: Room;

  beforeAll(async () => {
    service = await startService();
    room = await startRoom({ env: { CLASSROOM_CALLBACK_HOSTS: `127.0.0.1:${service.port}` } });
  });
  afterAll(async () => {
    await room?.close();
    await new Promise((r) => service?.server.close(r));
  });

  it('sends a trainee’s callback to an allowed host:port, and still refuses its other ports', async () => {
    const cy = await new Trainee(room, 'Cy').join();
    const other = await direct(room, cy, 'v2/sale', sale(`http://127.0.0.1:${service.port + 1}/hook`));
    expect(other.status).toBe(400);
    const ack = await direct(room, cy, 'v2/sale', sale(`http://127.0.0.1:${service.port}/hook`));
    expect(ack.status).toBe(200);
    room.clock.advance(1500);
    await waitFor(() => (service.hits.length > 0 ? true : undefined), onEvent(service.server, 'request'));
    expect(service.hits[0]).toMatch(/^\/hook\?/);
  });

  it('refuses a malformed setting at start, naming it', async () => {
    await expect(startRoom({ env: { CLASSROOM_CALLBACK_HOSTS: 'http://x/' } })).rejects.toThrow(
      /CLASSROOM_CALLBACK_HOSTS/,
    );
  });
});
