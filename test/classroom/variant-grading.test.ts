import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmedCauseOfCapture } from '../../classroom/diagnose-attempt.ts';
import { nodeCryptoPort } from '../../src/node/node-crypto-port.ts';
import { cardParams, startRoom, Trainee, type Answer, type Room } from './support.ts';

/*
 * Per-trainee variants graded over HTTP (issue 32 §1): each trainee's broken capture is their own,
 * the answer that passes is their capture's mistake (a neighbour's is wrong for them), and the
 * trainer sees each variant with its expected answer.
 */

const QUESTION = 'own-broken-capture';
let room: Room;
beforeAll(async () => {
  room = await startRoom();
});
afterAll(async () => {
  await room?.close();
});

async function settle(t: Trainee, ack: Answer) {
  room.clock.advance(1500);
  return (await t.status(ack.body)).body;
}

const answer = (t: Trainee, choice: string) =>
  room.app.inject({
    method: 'POST',
    url: '/classroom/answer',
    headers: {
      host: `127.0.0.1:${room.port}`,
      origin: room.origin,
      cookie: t.cookie,
      'content-type': 'application/json',
    },
    payload: JSON.stringify({ exerciseId: QUESTION, choice }),
  });

async function myCapture(t: Trainee): Promise<string> {
  const r = await t.get('/classroom/me');
  const v = JSON.parse(r.body) as { exercises: Array<{ id: string; capture: string | null }> };
  return v.exercises.find((e) => e.id === QUESTION)!.capture!;
}

describe('a question whose capture varies per trainee', () => {
  it('grades each trainee against their own capture; the trainer sees each variant', async () => {
    // Enough trainees that two of them have captures broken in different ways.
    const trainees = await Promise.all(
      Array.from({ length: 6 }, (_, i) => new Trainee(room, `var-${i}`).join()),
    );
    const mistakes = new Map<Trainee, string>();
    for (const t of trainees) {
      const text = await myCapture(t);
      const cause = await confirmedCauseOfCapture(text, 'TEACH-0000-1111-2222-3333', nodeCryptoPort());
      expect(cause).toBeDefined();
      mistakes.set(t, cause!);
    }
    expect(new Set(await Promise.all(trainees.map((t) => myCapture(t)))).size).toBe(trainees.length);
    const a = trainees[0]!;
    const b = trainees.find((t) => mistakes.get(t) !== mistakes.get(a));
    expect(b, 'two trainees with different mistakes').toBeDefined();

    // The trainer's snapshot names each trainee's variant and the answer that passes it.
    const snap = room.app.classroom.trainerSnapshot();
    for (const t of [a, b!]) {
      const v = snap.trainees.find((x) => x.id === t.id)!.variants!.find((x) => x.exerciseId === QUESTION)!;
      expect(v.expected).toContain(`(${mistakes.get(t)})`);
    }

    // B names A's mistake: wrong for B.
    const ackB = await b!.control('v2/preauth', cardParams({ amount: '10.00' }));
    expect((await settle(b!, ackB)).status).toBe('approved');
    expect((await answer(b!, mistakes.get(a)!)).statusCode).toBe(200);
    const capture = (t: Trainee, ack: Answer) =>
      t.control('v2/capture', [
        ['login', t.login],
        ['client_orderid', String(ack.body['merchant-order-id'])],
        ['orderid', String(ack.body['paynet-order-id'])],
      ]);
    expect((await capture(b!, ackB)).status).toBe(200);
    expect(await b!.state(QUESTION)).toBe('open');
    // A names their own, then captures: done.
    const ackA = await a.control('v2/preauth', cardParams({ amount: '10.00' }));
    expect((await settle(a, ackA)).status).toBe('approved');
    expect((await answer(a, mistakes.get(a)!)).statusCode).toBe(200);
    expect((await capture(a, ackA)).status).toBe(200);
    expect(await a.state(QUESTION)).toBe('done');
  });

  it('draws the same variant after a restart', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'classroom-variant-'));
    const first = await startRoom({ dataDir });
    let t: Trainee;
    let before: string;
    try {
      t = await new Trainee(first, 'var-restart').join();
      before = await myCapture(t);
    } finally {
      await first.close();
    }
    const second = await startRoom({ dataDir });
    try {
      const again = Object.assign(new Trainee(second, 'var-restart'), { cookie: t.cookie });
      expect(await myCapture(again)).toBe(before);
    } finally {
      await second.close();
    }
  });
});
