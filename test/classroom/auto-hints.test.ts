import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha1Hex, signControl } from '../proxy/signers.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

/*
 * Hints that pick themselves (issue 32 §2): after N refused requests (the trainer's setting) the
 * hint matching the trainee's diagnosed mistake unlocks, pushed on their live stream; it costs
 * points; the trainer sees who got which; "Skip" marks the exercise done and assisted.
 */

let room: Room;
beforeAll(async () => {
  room = await startRoom();
});
afterAll(async () => {
  await room?.close();
});

function post(url: string, cookie: string, payload: unknown) {
  return room.app.inject({
    method: 'POST',
    url,
    headers: {
      host: `127.0.0.1:${room.port}`,
      origin: room.origin,
      cookie,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(payload),
  });
}
const trainerCookie = () => `pc_trainer=${room.app.classroom.trainerToken()}`;

/** A sale whose control has the amount in major units (a mistake the diagnosis engine confirms). */
async function majorUnitsSale(t: Trainee) {
  const params = cardParams();
  const get = (n: string) => params.find(([k]) => k === n)![1];
  const wrong = sha1Hex(`${t.endpointId}${get('client_orderid')}10.42${get('email')}${t.controlKey}`);
  const signed = signControl('v2/sale', params, t);
  signed.body = signed.body.replace(/control=[0-9a-f]{40}/, `control=${wrong}`);
  return t.sendSigned(signed);
}

interface View {
  points: number;
  exercises: Array<{
    id: string;
    state: string;
    assisted: boolean;
    ownHints: Array<{ mistakeId: string; text: string; cost: number }>;
  }>;
}

/** Follows the trainee's live stream (real HTTP) and resolves with the first view that passes `want`. */
function nextView(t: Trainee, want: (v: View) => boolean): { view: Promise<View>; close: () => void } {
  const abort = new AbortController();
  const view = (async () => {
    const res = await fetch(`${room.origin}/classroom/events`, {
      headers: { cookie: t.cookie, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (data) {
          const v = JSON.parse(data) as View;
          if (want(v)) return v;
        }
      }
    }
  })();
  return { view, close: () => abort.abort() };
}

const sale = (v: View) => v.exercises.find((e) => e.id === 'sale-control')!;

describe('hints that pick themselves', () => {
  it('unlock the hint for the trainee’s own mistake after N refusals, pushed live, at a cost', async () => {
    const set = await post('/classroom/trainer/auto-hints', trainerCookie(), {
      exerciseId: 'sale-control',
      after: 2,
      cost: 3,
    });
    expect(set.statusCode, set.body).toBe(200);
    const t = await new Trainee(room, 'auto-ann').join();
    await majorUnitsSale(t);
    await room.app.classroom.settled();
    expect(sale(JSON.parse((await t.get('/classroom/me')).body) as View).ownHints).toEqual([]);

    const live = nextView(t, (v) => sale(v).ownHints.length > 0);
    try {
      await majorUnitsSale(t);
      const v = await live.view;
      expect(sale(v).ownHints).toEqual([
        expect.objectContaining({ mistakeId: 'amount-major-units', cost: 3 }),
      ]);
      expect(sale(v).ownHints[0]!.text).toMatch(/minor units/);
      expect(v.points).toBe(-3);
    } finally {
      live.close();
    }
    const row = room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === t.id)!;
    expect(row.hints).toEqual([
      {
        exerciseId: 'sale-control',
        mistakeId: 'amount-major-units',
        label: 'Amount not in minor units',
        cost: 3,
      },
    ]);
    // Another trainee's mistakes unlock nothing for them until their own refusals do.
    const bob = await new Trainee(room, 'auto-bob').join();
    expect(room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === bob.id)!.hints).toEqual([]);
  });

  it('Skip marks the exercise done and assisted, worth no points', async () => {
    const t = await new Trainee(room, 'skip-ann').join();
    const res = await post('/classroom/skip', t.cookie, { exerciseId: 'payout-hmac' });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json<View>();
    const ex = v.exercises.find((e) => e.id === 'payout-hmac')!;
    expect(ex).toMatchObject({ state: 'done', assisted: true });
    expect(v.points).toBe(0);
    expect(room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === t.id)!.assisted).toEqual([
      'payout-hmac',
    ]);
    expect((await post('/classroom/skip', t.cookie, { exerciseId: 'payout-hmac' })).statusCode).toBe(409);
    // Only the trainee skips: the trainer's cookie is refused here.
    expect((await post('/classroom/skip', trainerCookie(), { exerciseId: 'payout-hmac' })).statusCode).toBe(
      401,
    );
  });

  it('the setting is the trainer’s, and validated', async () => {
    const t = await new Trainee(room, 'auto-eve').join();
    expect(
      (await post('/classroom/trainer/auto-hints', t.cookie, { exerciseId: 'sale-control', after: 1 }))
        .statusCode,
    ).toBe(403);
    const bad = await post('/classroom/trainer/auto-hints', trainerCookie(), {
      exerciseId: 'sale-control',
      after: 0,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION' } });
  });
});
