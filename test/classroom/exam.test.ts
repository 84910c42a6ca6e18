import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha1Hex, signControl } from '../proxy/signers.ts';
import { cardParams, payoutParams, startRoom, Trainee, type Answer, type Room } from './support.ts';

/*
 * Exam mode (issue 32 §3), over real HTTP: a time box set by the trainer; hints off while it runs
 * (none unlock, none revealed or shown, no Skip); from its end the room is frozen (requests that
 * would count are refused naming the end, grades do not change); results exported as CSV and JSON.
 */

let room: Room;
beforeAll(async () => {
  room = await startRoom();
});
afterAll(async () => {
  await room?.close();
});

/** A trainee whose signed requests go through the real proxy over HTTP (not injected). */
class HttpTrainee extends Trainee {
  override async sendSigned(signed: {
    path: string;
    headers: Record<string, string>;
    body: string;
  }): Promise<Answer> {
    const res = await fetch(`${room.origin}/proxy/local/${signed.path}`, {
      method: 'POST',
      headers: { origin: room.origin, cookie: this.cookie, ...signed.headers },
      body: signed.body,
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) return { status: res.status, body: json };
    const envelope = json as { status: number; body: string };
    return { status: envelope.status, body: JSON.parse(envelope.body) as Record<string, unknown> };
  }
}

const trainer = () => `pc_trainer=${room.app.classroom.trainerToken()}`;

/** What the routes under test answer (each test reads the fields its route has). */
interface Reply {
  state: string;
  startedAt: string;
  endsAt: string;
  minutes: number;
  error: { code: string; message: string };
  exam: unknown;
  trainees: Array<{ name: string; points: number; results: Array<{ exercise: string; state: string }> }>;
}

async function call(method: 'GET' | 'POST', url: string, cookie: string, payload?: unknown) {
  const res = await fetch(`${room.origin}${url}`, {
    method,
    headers: {
      origin: room.origin,
      cookie,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Reply };
}

async function view(t: Trainee) {
  await room.app.classroom.settled();
  const r = await call('GET', '/classroom/me', t.cookie);
  return JSON.parse(r.text) as {
    points: number;
    exercises: Array<{ id: string; state: string; hints: string[]; ownHints: unknown[] }>;
  };
}

/** A sale whose control has the amount in major units (a mistake the diagnosis engine confirms). */
function majorUnitsSale(t: Trainee) {
  const params = cardParams();
  const get = (n: string) => params.find(([k]) => k === n)![1];
  const wrong = sha1Hex(`${t.endpointId}${get('client_orderid')}10.42${get('email')}${t.controlKey}`);
  const signed = signControl('v2/sale', params, t);
  signed.body = signed.body.replace(/control=[0-9a-f]{40}/, `control=${wrong}`);
  return t.sendSigned(signed);
}

describe('exam mode', () => {
  it('is the trainer’s: a trainee is refused, a stranger told to open the trainer address', async () => {
    const t = await new HttpTrainee(room, 'exam-eve').join();
    expect((await call('POST', '/classroom/trainer/exam', t.cookie, { minutes: 5 })).status).toBe(403);
    expect((await call('GET', '/classroom/trainer/exam', '')).status).toBe(401);
    expect((await call('GET', '/classroom/trainer/exam/export.csv', t.cookie)).status).toBe(403);
    const bad = await call('POST', '/classroom/trainer/exam', trainer(), { minutes: 0 });
    expect(bad.status).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION');
  });

  it('turns hints off while it runs, freezes the room at its end, and exports the results', async () => {
    const ann = await new HttpTrainee(room, 'exam-ann').join();
    // Before the exam: a revealed hint and self-unlocking hints after one refusal.
    expect(
      (await call('POST', '/classroom/trainer/hint', trainer(), { exerciseId: 'sale-control' })).status,
    ).toBe(200);
    expect(
      (
        await call('POST', '/classroom/trainer/auto-hints', trainer(), {
          exerciseId: 'sale-control',
          after: 1,
          cost: 2,
        })
      ).status,
    ).toBe(200);
    expect((await view(ann)).exercises.find((e) => e.id === 'sale-control')!.hints).toHaveLength(1);

    const started = await call('POST', '/classroom/trainer/exam', trainer(), { minutes: 30 });
    expect(started.status, started.text).toBe(200);
    const exam = started.json();
    expect(exam).toMatchObject({ state: 'running', minutes: 30 });
    expect(Date.parse(exam.endsAt) - Date.parse(exam.startedAt)).toBe(30 * 60_000);
    expect((await call('POST', '/classroom/trainer/exam', trainer(), { minutes: 5 })).status).toBe(409);

    // Hints off: the revealed one is hidden, no hint unlocks, none can be revealed, no Skip.
    await majorUnitsSale(ann);
    const during = await view(ann);
    const sale = during.exercises.find((e) => e.id === 'sale-control')!;
    expect(sale.hints).toEqual([]);
    expect(sale.ownHints).toEqual([]);
    const reveal = await call('POST', '/classroom/trainer/hint', trainer(), { exerciseId: 'sale-control' });
    expect(reveal.status).toBe(409);
    expect(reveal.json().error.code).toBe('EXAM_HINTS_OFF');
    const skip = await call('POST', '/classroom/skip', ann.cookie, { exerciseId: 'payout-rsa' });
    expect(skip.status).toBe(409);
    expect(skip.json().error.message).toContain(exam.endsAt);
    expect(room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === ann.id)!.hints).toEqual([]);

    // Work during the exam counts.
    const ack = await ann.control('v2/sale', cardParams());
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    room.clock.advance(1500);
    await ann.status(ack.body);
    expect(await ann.state('sale-control')).toBe('done');

    // The time box ends: the room is frozen.
    room.clock.advance(30 * 60_000);
    expect((await call('GET', '/classroom/exam', ann.cookie)).json().state).toBe('over');
    const before = room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === ann.id)!;
    const late = await ann.oauth('v2/payout', payoutParams(), 'HMAC-SHA1');
    expect(late.status).toBe(423);
    // The gateway's own error shape, as every refusal of an operation.
    expect(late.body).toMatchObject({ type: 'error', 'error-reason': 'EXAM_OVER' });
    expect(late.body['error-message']).toContain(`The exam ended at ${exam.endsAt}`);
    const answer = await call('POST', '/classroom/answer', ann.cookie, {
      exerciseId: 'broken-capture',
      choice: 'amount-major-units',
    });
    expect(answer.status).toBe(423);
    expect(answer.json().error.code).toBe('EXAM_OVER');
    expect(await ann.state('payout-hmac')).toBe('open');
    const after = room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === ann.id)!;
    expect(after.results).toEqual(before.results);
    expect(after.points).toBe(10);

    // Exports: the exam's window on every row, the trainee's results as they stood at the end.
    const csv = await call('GET', '/classroom/trainer/exam/export.csv', trainer());
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'exam_started_at,exam_ended_at,trainee,login,exercise,title,state,attempts,assisted,done_at,points',
    );
    expect(lines.find((l) => l.includes('exam-ann') && l.includes(',sale-control,'))).toMatch(
      new RegExp(`^${exam.startedAt},${exam.endsAt},exam-ann,${ann.login},sale-control,.*,done,\\d+,no,`),
    );
    const json = (await call('GET', '/classroom/trainer/exam/export.json', trainer())).json();
    expect(json.exam).toEqual({
      state: 'over',
      startedAt: exam.startedAt,
      endedAt: exam.endsAt,
      minutes: 30,
    });
    const annJson = json.trainees.find((x) => x.name === 'exam-ann')!;
    expect(annJson.points).toBe(10);
    expect(annJson.results.find((r) => r.exercise === 'payout-hmac')!.state).toBe('open');

    // Reopened, the room counts again and hints come back.
    expect((await call('POST', '/classroom/trainer/exam/reopen', trainer(), {})).json().state).toBe('none');
    expect((await ann.oauth('v2/payout', payoutParams(), 'HMAC-SHA1')).status).toBe(200);
    expect(await ann.state('payout-hmac')).toBe('done');
    expect((await view(ann)).exercises.find((e) => e.id === 'sale-control')!.hints).toHaveLength(1);
  });

  it('ends early at the trainer’s word, and the end survives a restart', async () => {
    const other = await startRoom();
    try {
      // A sale pending its final status when the exam ends stays ungraded.
      const bob = await new Trainee(other, 'exam-bob').join();
      expect((await bob.control('v2/sale', cardParams())).status).toBe(200);
      const res = await fetch(`${other.origin}/classroom/trainer/exam`, {
        method: 'POST',
        headers: {
          origin: other.origin,
          cookie: `pc_trainer=${other.app.classroom.trainerToken()}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ minutes: 60 }),
      });
      expect(res.status).toBe(200);
      const end = await fetch(`${other.origin}/classroom/trainer/exam/end`, {
        method: 'POST',
        headers: {
          origin: other.origin,
          cookie: `pc_trainer=${other.app.classroom.trainerToken()}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      const ended = (await end.json()) as { state: string; endsAt: string };
      expect(ended.state).toBe('over');
      other.clock.advance(5000);
      // The classroom's own sweep (every 250 ms) finalises due orders and grades them: run it now.
      other.app.classroom['sweep']();
      expect(await bob.state('sale-control')).not.toBe('done');
      expect(other.app.classroom.trainerSnapshot().trainees[0]!.done).toBe(0);
      await other.close();
      const again = await startRoom({ dataDir: other.dataDir, clock: other.clock });
      try {
        expect(again.app.classroom.examGate?.frozen()).toBe(true);
      } finally {
        await again.close();
      }
    } finally {
      await other.close();
    }
  });
});
