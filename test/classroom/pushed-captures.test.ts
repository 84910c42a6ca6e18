/**
 * Issue 32 §3: the trainer pushes a broken capture to every trainee's debugger ("what is wrong with
 * this one?") and collects the answers live, each graded against the diagnosis engine's finding.
 * Everything over real HTTP (fetch to the listening server), the trainer's live table read from its
 * event stream.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TraineePushSchema,
  TrainerPushSchema,
  type TrainerPush,
} from '../../src/contracts/pushed-capture.ts';
import { startRoom, Trainee, type Room } from './support.ts';

let room: Room;
beforeEach(async () => {
  room = await startRoom();
});
afterEach(async () => {
  await room.close();
});

const trainer = () => `pc_trainer=${room.app.classroom.trainerToken()}`;

async function call(method: 'GET' | 'POST', url: string, cookie: string, body?: unknown) {
  const res = await fetch(`${room.origin}${url}`, {
    method,
    headers: {
      cookie,
      origin: room.origin,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Reads the trainer's stream until an event satisfies `until` (a visible state, no timing). */
async function trainerEventUntil(until: (p: TrainerPush) => boolean): Promise<TrainerPush> {
  const abort = new AbortController();
  const res = await fetch(`${room.origin}/classroom/trainer/push/events`, {
    headers: { cookie: trainer() },
    signal: abort.signal,
  });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (!data || !frame.includes('event: snapshot')) continue;
        const parsed = TrainerPushSchema.parse(JSON.parse(data.slice(6)));
        if (until(parsed)) return parsed;
      }
    }
  } finally {
    abort.abort();
  }
}

describe('a pushed capture', () => {
  it('reaches every trainee, and the trainer sees each answer graded by the engine’s finding', async () => {
    const ann = await new Trainee(room, 'Ann').join();
    const bob = await new Trainee(room, 'Bob').join();
    const none = await call('GET', '/classroom/pushed', ann.cookie);
    expect(none).toEqual({ status: 200, body: { push: null } });

    const pushed = await call('POST', '/classroom/trainer/push', trainer(), { mistake: 'uppercase-hex' });
    expect(pushed.status).toBe(201);
    const p = TrainerPushSchema.parse(pushed.body).push!;
    // The capture's control is SHA-1 written in upper case (what the mistake means), and the
    // engine's finding, which grades the answers, names it.
    expect(p.capture).toMatch(/control=[0-9A-F]{40}$/);
    expect(p.finding.id).toBe('uppercase-hex');
    expect(p.waiting.map((w) => w.name).sort()).toEqual(['Ann', 'Bob']);

    for (const t of [ann, bob]) {
      const seen = TraineePushSchema.parse((await call('GET', '/classroom/pushed', t.cookie)).body).push!;
      expect(seen.capture).toBe(p.capture);
      expect(seen.choices.map((c) => c.id)).toContain('uppercase-hex');
      // Nothing gives the answer away before the trainer closes the question.
      expect(seen.finding).toBeNull();
      expect(JSON.stringify(seen)).not.toContain('"right":true');
    }

    expect(
      (await call('POST', '/classroom/pushed/answer', ann.cookie, { pushId: p.id, choice: 'uppercase-hex' }))
        .status,
    ).toBe(200);
    const wrong = await call('POST', '/classroom/pushed/answer', bob.cookie, {
      pushId: p.id,
      choice: 'amount-major-units',
    });
    expect(wrong.status).toBe(200);
    expect(TraineePushSchema.parse(wrong.body).push!.answer).toEqual({
      id: 'amount-major-units',
      label: expect.any(String),
    });

    const live = await trainerEventUntil((v) => (v.push?.answers.length ?? 0) === 2);
    // Listed in the order trainees joined (the same instant here: any order).
    expect(live.push!.answers.map((a) => [a.name, a.choice.id, a.right]).sort()).toEqual([
      ['Ann', 'uppercase-hex', true],
      ['Bob', 'amount-major-units', false],
    ]);
    expect(live.push!.waiting).toEqual([]);

    // One answer per question.
    const again = await call('POST', '/classroom/pushed/answer', bob.cookie, {
      pushId: p.id,
      choice: 'uppercase-hex',
    });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'ALREADY_ANSWERED' } } });

    // Closed: each trainee sees the finding and whether they named it.
    expect((await call('POST', '/classroom/trainer/push/close', trainer())).status).toBe(200);
    const bobAfter = TraineePushSchema.parse((await call('GET', '/classroom/pushed', bob.cookie)).body).push!;
    expect(bobAfter).toMatchObject({ closed: true, finding: { id: 'uppercase-hex' }, right: false });
    const annAfter = TraineePushSchema.parse((await call('GET', '/classroom/pushed', ann.cookie)).body).push!;
    expect(annAfter.right).toBe(true);
  });

  it('grades against the engine’s finding for each mistake the generator makes', async () => {
    for (const mistake of ['amount-major-units', 'field-missing-from-formula'] as const) {
      const p = TrainerPushSchema.parse(
        (await call('POST', '/classroom/trainer/push', trainer(), { mistake })).body,
      ).push!;
      expect(p.finding.id).toBe(mistake);
      expect(p.choices.map((c) => c.id)).toContain(mistake);
    }
    // The amount in major units: the control is the SHA-1 of the formula with "12.34", not "1234".
    const p = TrainerPushSchema.parse(
      (await call('POST', '/classroom/trainer/push', trainer(), { mistake: 'amount-major-units' })).body,
    ).push!;
    const body = new URLSearchParams(p.capture.split('\r\n\r\n')[1]);
    const endpoint = /\/v2\/capture\/(\d+)/.exec(p.capture)![1]!;
    const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
    const terms = [body.get('login'), body.get('client_orderid'), body.get('orderid')].join('');
    expect(body.get('control')).toBe(
      sha1(`${terms}${body.get('amount')}${body.get('currency')}TEACH-0000-1111-2222-3333`),
    );
    expect(endpoint).toMatch(/^\d+$/);
  });

  it('is the trainer’s to push; a trainee answers only the question shown, with a choice offered', async () => {
    const ann = await new Trainee(room, 'Ann').join();
    expect((await call('POST', '/classroom/trainer/push', ann.cookie, {})).status).toBe(403);
    expect((await call('GET', '/classroom/pushed', '')).status).toBe(401);
    const bad = await call('POST', '/classroom/trainer/push', trainer(), { mistake: 'nonsense' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION' } } });
    const first = TrainerPushSchema.parse(
      (await call('POST', '/classroom/trainer/push', trainer(), {})).body,
    ).push!;
    await call('POST', '/classroom/trainer/push', trainer(), {});
    const stale = await call('POST', '/classroom/pushed/answer', ann.cookie, {
      pushId: first.id,
      choice: 'uppercase-hex',
    });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'PUSH_REPLACED' } } });
    const now = TraineePushSchema.parse((await call('GET', '/classroom/pushed', ann.cookie)).body).push!;
    const odd = await call('POST', '/classroom/pushed/answer', ann.cookie, {
      pushId: now.id,
      choice: 'rsa-sha1',
    });
    expect(odd).toMatchObject({ status: 400, body: { error: { code: 'CHOICE_UNKNOWN' } } });
  });

  it('survives a restart of the classroom', async () => {
    const ann = await new Trainee(room, 'Ann').join();
    const p = TrainerPushSchema.parse(
      (await call('POST', '/classroom/trainer/push', trainer(), { mistake: 'uppercase-hex' })).body,
    ).push!;
    await call('POST', '/classroom/pushed/answer', ann.cookie, { pushId: p.id, choice: 'wrong-key' });
    const dataDir = room.dataDir;
    await room.close();
    room = await startRoom({ dataDir });
    const after = TrainerPushSchema.parse(
      (await call('GET', '/classroom/trainer/push', trainer())).body,
    ).push!;
    expect(after.id).toBe(p.id);
    expect(after.answers.map((a) => [a.name, a.choice.id, a.right])).toEqual([['Ann', 'wrong-key', false]]);
  });
});
