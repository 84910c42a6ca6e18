import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestedThreeDs } from '../../classroom/attempt-fit.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

/*
 * Only requests that fit an exercise count as attempts at it (issue 32 §4): a plain sale, or a sale
 * refused for a wrong control, is no attempt at "a 3-D Secure 2 sale, finished".
 */

let room: Room;
beforeAll(async () => {
  room = await startRoom();
});
afterAll(async () => {
  await room?.close();
});

async function attempts(t: Trainee): Promise<Record<string, number>> {
  await room.app.classroom.settled();
  const v = await t.view();
  return Object.fromEntries(v.exercises.map((e) => [e.id, e.attempts]));
}

describe('attempts count only for the exercises they fit', () => {
  it('a plain sale and a wrong-control sale count for the sale exercise, not the 3-D Secure 2 one', async () => {
    const t = await new Trainee(room, 'fit-plain').join();
    const plain = await t.control('v2/sale', cardParams());
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const wrong = await t.control('v2/sale', cardParams(), { controlKey: 'NOT-THE-KEY-0000' });
    expect(wrong.body['error-code'] ?? wrong.body['error-reason']).toBeDefined();
    const counts = await attempts(t);
    expect(counts['sale-control']).toBe(2);
    expect(counts['sale-3ds2']).toBe(0);
    // The trainer's table says the same.
    const row = room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === t.id)!;
    expect(row.results.find((r) => r.id === 'sale-3ds2')!.attempts).toBe(0);
  });

  it('a sale that asks for 3-D Secure 2 counts for both', async () => {
    const t = await new Trainee(room, 'fit-3ds').join();
    const ack = await t.control(
      'v2/sale',
      cardParams({ cvv2: '321', threeds_version: '2', redirect_url: 'http://127.0.0.1:9/return' }),
    );
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const counts = await attempts(t);
    expect(counts['sale-3ds2']).toBe(1);
    expect(counts['sale-control']).toBe(1);
  });
});

describe('requestedThreeDs reads a body as the sandbox does', () => {
  it.each([
    ['amount=1.00', null],
    ['threeds_version=2', '2'],
    ['threeds_version=2.2.0', '2'],
    ['threeds_version=1.0.2', '1.0.2'],
    ['browserColorDepth=24&amount=1', '2'],
    ['customer_browser_language=en', '2'],
  ] as const)('%s → %s', (body, v) => {
    expect(requestedThreeDs(body)).toBe(v);
  });
});
