/**
 * Issue 27 §1 in classroom mode, from outside (HTTP against a started classroom server): a
 * trainee's `X-Sandbox-Scenario` is refused, the trainer chooses scenarios per room or per trainee
 * and the choice applies to the trainee's requests as a merchant's does, and held answers count per
 * trainee (a room shares one address here, as on loopback), so one trainee holding their maximum
 * leaves the others served. Held answers wait on a sleep the test releases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signControl, type Params } from '../proxy/signers.ts';
import { Holds } from '../security/held-sleep.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function read(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, headers: res.headers, body };
}

describe('classroom: scenarios are the trainer’s, held answers count per trainee', () => {
  const holds = new Holds();
  let room: Room;
  let ann: Trainee;
  let bob: Trainee;
  let trainerCookie: string;

  beforeAll(async () => {
    room = await startRoom({
      env: { SANDBOX_HELD_PER_CLIENT: '2' },
      sandbox: { scenarioSleep: holds.sleep },
    });
    ann = await new Trainee(room, 'Ann').join();
    bob = await new Trainee(room, 'Bob').join();
    const login = await fetch(
      `${room.origin}/classroom/trainer-login?token=${room.app.classroom.trainerToken()}`,
      { redirect: 'manual' },
    );
    trainerCookie = login.headers.get('set-cookie')!.split(';')[0]!;
  });
  afterAll(async () => {
    holds.releaseAll();
    await room?.close();
  });

  /** A trainee's signed operation, straight to the sandbox over HTTP with their session cookie. */
  function direct(t: Trainee, opPath: string, params: Params, extra: Record<string, string> = {}) {
    const s = signControl(opPath, params, {
      login: t.login,
      controlKey: t.controlKey,
      endpointId: t.endpointId,
    });
    return fetch(`${room.origin}/sandbox/paynet/${s.path}`, {
      method: 'POST',
      headers: { ...s.headers, cookie: t.cookie, ...extra },
      body: s.body,
    });
  }

  function trainerPut(path: string, body: unknown): Promise<Reply> {
    return fetch(`${room.origin}/classroom/trainer/scenarios/${path}`, {
      method: 'PUT',
      headers: { cookie: trainerCookie, origin: room.origin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(read);
  }

  async function finalStatus(t: Trainee, ack: Record<string, unknown>): Promise<unknown> {
    room.clock.advance(1500);
    const r = await read(
      await direct(t, 'v2/status', [
        ['login', t.login],
        ['client_orderid', String(ack['merchant-order-id'])],
        ['orderid', String(ack['paynet-order-id'])],
      ]),
    );
    expect(r.status).toBe(200);
    return r.body.status;
  }

  it('refuses a trainee’s X-Sandbox-Scenario with a JSON error that says the trainer chooses', async () => {
    for (const value of ['processed-timeout;delay-ms=600000', 'final-error', '']) {
      const r = await read(await direct(ann, 'v2/sale', cardParams(), { 'x-sandbox-scenario': value }));
      expect(r.status).toBe(403);
      expect(r.body['error-reason'] ?? r.body['error-code']).toBe('SCENARIO_TRAINER_ONLY');
      expect(String(r.body['error-message'])).toMatch(/trainer chooses scenarios/);
    }
    expect(holds.count).toBe(0);
    // Without the header the same request is taken.
    expect((await read(await direct(ann, 'v2/sale', cardParams()))).status).toBe(200);
  });

  it('lets only the trainer choose, per trainee and for the room; the choice applies to the trainee’s orders', async () => {
    // A trainee cannot reach the trainer's scenario control.
    const asTrainee = await fetch(`${room.origin}/classroom/trainer/scenarios/room`, {
      method: 'PUT',
      headers: { cookie: ann.cookie, origin: room.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ choice: [{ name: 'final-error' }] }),
    }).then(read);
    expect(asTrainee.status).toBe(403);

    const room1 = await trainerPut('room', { choice: [{ name: 'final-filtered' }] });
    expect(room1.status).toBe(200);
    const own = await trainerPut(`trainees/${ann.id}`, { choice: [{ name: 'final-error' }] });
    expect(own.status).toBe(200);
    const view = own.body as { trainees: Array<{ id: string; inForce: Array<{ name: string }> }> };
    expect(view.trainees.find((t) => t.id === ann.id)!.inForce).toEqual([{ name: 'final-error' }]);
    expect(view.trainees.find((t) => t.id === bob.id)!.inForce).toEqual([{ name: 'final-filtered' }]);

    const annAck = await read(await direct(ann, 'v2/sale', cardParams()));
    const bobAck = await read(await direct(bob, 'v2/sale', cardParams()));
    expect(await finalStatus(ann, annAck.body)).toBe('error');
    expect(await finalStatus(bob, bobAck.body)).toBe('filtered');

    // A trainee who joins later follows the room's choice.
    const cy = await new Trainee(room, 'Cy').join();
    const cyAck = await read(await direct(cy, 'v2/sale', cardParams()));
    expect(await finalStatus(cy, cyAck.body)).toBe('filtered');

    // Back to the happy path: Ann follows the room again, the room has none.
    expect((await trainerPut(`trainees/${ann.id}`, { choice: null })).status).toBe(200);
    expect((await trainerPut('room', { choice: [] })).status).toBe(200);
    const again = await read(await direct(ann, 'v2/sale', cardParams()));
    expect(await finalStatus(ann, again.body)).toBe('approved');
    // A bad choice is a clear 400.
    const bad = await trainerPut('room', { choice: [{ name: 'no-such-scenario' }] });
    expect(bad.status).toBe(400);
    expect((bad.body.error as { message: string }).message).toMatch(/^Send \{"choice": \[/);
  });

  it('counts held answers per trainee: one trainee at their maximum leaves another served', async () => {
    expect(
      (await trainerPut(`trainees/${ann.id}`, { choice: [{ name: 'latency', delayMs: 600_000 }] })).status,
    ).toBe(200);
    // Two held answers: each settles when its sleep starts.
    for (let i = 0; i < 2; i++) {
      const held = holds.nextHold();
      void direct(ann, 'v2/sale', cardParams()).catch(() => undefined);
      await held;
    }
    const third = await read(await direct(ann, 'v2/sale', cardParams()));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(String(third.body['error-message'])).toContain('SANDBOX_HELD_PER_CLIENT=2');
    // Bob, on the same address, is answered at once.
    const bobs = await read(await direct(bob, 'v2/sale', cardParams()));
    expect(bobs.status).toBe(200);
    expect(holds.count).toBe(2);
    // And the trainer's page still answers.
    const state = await fetch(`${room.origin}/classroom/trainer/state`, {
      headers: { cookie: trainerCookie },
    });
    expect(state.status).toBe(200);
  });
});
