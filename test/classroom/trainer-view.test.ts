import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsCsv, resultsJson } from '../../classroom/export-results.ts';
import { MISTAKES, mistakeById, type MistakeId } from '../../src/diagnose/index.ts';
import { sha1Hex, signControl } from '../proxy/signers.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

/*
 * What the classroom shows of a question: the trainee sees the diagnosis engine's labels, not raw
 * mistake ids; the trainer sees which wrong causes each trainee named (by label, with a count), in
 * the snapshot and the exports, kept across restarts and gone with a reset.
 */

const QUESTION = 'broken-capture';
const label = (id: MistakeId) => mistakeById(id).title;

let room: Room;
beforeAll(async () => {
  room = await startRoom();
});
afterAll(async () => {
  await room?.close();
});

function row(r: Room, t: Trainee) {
  const trainee = r.app.classroom.traineeBySession(t.cookie.slice(t.cookie.indexOf('=') + 1));
  if (!trainee) throw new Error(`${t.name} has no session`);
  return trainee;
}

function wrongOf(r: Room, t: Trainee) {
  return r.app.classroom.trainerSnapshot().trainees.find((x) => x.id === t.id)!.wrongChoices;
}

describe('a question as the trainee sees it', () => {
  it("offers the diagnosis engine's labels with the ids it answers with", async () => {
    const t = await new Trainee(room, 'labels').join();
    const ex = room.app.classroom.traineeView(row(room, t)).exercises.find((e) => e.id === QUESTION)!;
    expect(ex.choices).toEqual([
      { id: 'uppercase-hex', label: 'Uppercase hex' },
      { id: 'amount-major-units', label: 'Amount not in minor units' },
      { id: 'wrong-key', label: label('wrong-key') },
      { id: 'field-missing-from-formula', label: label('field-missing-from-formula') },
    ]);
    // Every label is the catalogue's title, never the bare id.
    for (const c of ex.choices!) {
      expect(MISTAKES.find((m) => m.id === c.id)?.title).toBe(c.label);
      expect(c.label).not.toBe(c.id);
    }
  });
});

describe('wrong answers on the trainer page', () => {
  it('lists the wrong causes a trainee named, by label and count, and not the right one', async () => {
    const ann = await new Trainee(room, 'wrong-ann').join();
    const bob = await new Trainee(room, 'wrong-bob').join();
    const classroom = room.app.classroom;
    classroom.answer(ann.id, QUESTION, 'uppercase-hex');
    classroom.answer(ann.id, QUESTION, 'wrong-key');
    classroom.answer(ann.id, QUESTION, 'uppercase-hex');
    classroom.answer(ann.id, QUESTION, 'amount-major-units');
    expect(wrongOf(room, ann)).toEqual([
      { exerciseId: QUESTION, choice: 'uppercase-hex', label: 'Uppercase hex', count: 2 },
      { exerciseId: QUESTION, choice: 'wrong-key', label: label('wrong-key'), count: 1 },
    ]);
    expect(wrongOf(room, bob)).toEqual([]);
    // The attempt count the trainer already had still counts every answer.
    const results = classroom.trainerSnapshot().trainees.find((x) => x.id === ann.id)!.results;
    expect(results.find((r) => r.id === QUESTION)!.attempts).toBe(4);
  });

  it('keeps them across a restart, and a reset deletes them', async () => {
    const first = await startRoom();
    const ann = await new Trainee(first, 'Ann').join();
    first.app.classroom.answer(ann.id, QUESTION, 'field-missing-from-formula');
    await first.close();
    const second = await startRoom({ dataDir: first.dataDir, clock: first.clock });
    try {
      expect(wrongOf(second, ann)).toEqual([
        {
          exerciseId: QUESTION,
          choice: 'field-missing-from-formula',
          label: label('field-missing-from-formula'),
          count: 1,
        },
      ]);
      second.app.classroom.resetTrainee(ann.id);
      expect(wrongOf(second, ann)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('exports them in the JSON by label; the CSV keeps its columns', async () => {
    const t = await new Trainee(room, 'export').join();
    room.app.classroom.answer(t.id, QUESTION, 'uppercase-hex');
    const snapshot = room.app.classroom.trainerSnapshot();
    const json = resultsJson(snapshot) as {
      trainees: Array<{
        name: string;
        results: Array<{
          exercise: string;
          wrongAnswers: Array<{ choice: string; label: string; count: number }>;
        }>;
      }>;
    };
    const mine = json.trainees.find((x) => x.name === 'export')!;
    expect(mine.results.find((r) => r.exercise === QUESTION)!.wrongAnswers).toEqual([
      { choice: 'uppercase-hex', label: 'Uppercase hex', count: 1 },
    ]);
    expect(mine.results.find((r) => r.exercise === 'sale-control')!.wrongAnswers).toEqual([]);
    expect(resultsCsv(snapshot).split('\r\n')[0]).toBe(
      'trainee,login,exercise,title,state,attempts,started_at,done_at,seconds',
    );
  });
});

describe('diagnosed mistakes on the trainer page', () => {
  it('names the histogram’s and the last refused request’s mistake by label', async () => {
    const t = await new Trainee(room, 'refused').join();
    const params = cardParams();
    const get = (n: string) => params.find(([k]) => k === n)![1];
    const signed = signControl('v2/sale', params, t);
    const major = sha1Hex(`${t.endpointId}${get('client_orderid')}10.42${get('email')}${t.controlKey}`);
    signed.body = signed.body.replace(/control=[0-9a-f]{40}/, `control=${major}`);
    expect((await t.sendSigned(signed)).body['error-reason']).toBe('INVALID_CONTROL_CODE');
    await room.app.classroom.settled();
    const snapshot = room.app.classroom.trainerSnapshot();
    const refused = snapshot.trainees.find((x) => x.id === t.id)!.lastRefused!;
    expect(refused.mistakeId).toBe('amount-major-units');
    expect(refused.mistakeLabel).toBe('Amount not in minor units');
    expect(snapshot.mistakes.find((m) => m.mistakeId === 'amount-major-units')?.label).toBe(
      'Amount not in minor units',
    );
  });
});
