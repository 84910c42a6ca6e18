/**
 * Issue 32 §3: the trainer projects one trainee's attempt timeline (their requests, refusals and
 * diagnoses) on the big screen, live. Over real HTTP: the snapshot, and the stream read until the
 * trainee's next request shows (a visible state, no timing).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TimelineSchema, type Timeline } from '../../src/contracts/trainee-timeline.ts';
import { sha1Hex, signControl } from '../proxy/signers.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

let room: Room;
beforeEach(async () => {
  room = await startRoom();
});
afterEach(async () => {
  await room.close();
});

const trainer = () => `pc_trainer=${room.app.classroom.trainerToken()}`;

/** A sale whose control has the amount in major units (a mistake the diagnosis engine confirms). */
function majorUnitsSale(t: Trainee) {
  const params = cardParams();
  const get = (n: string) => params.find(([k]) => k === n)![1];
  const wrong = sha1Hex(`${t.endpointId}${get('client_orderid')}10.42${get('email')}${t.controlKey}`);
  const signed = signControl('v2/sale', params, t);
  signed.body = signed.body.replace(/control=[0-9a-f]{40}/, `control=${wrong}`);
  return t.sendSigned(signed);
}

async function timelineUntil(traineeId: string, until: (t: Timeline) => boolean): Promise<Timeline> {
  const abort = new AbortController();
  const res = await fetch(`${room.origin}/classroom/trainer/timeline/${traineeId}/events`, {
    headers: { cookie: trainer() },
    signal: abort.signal,
  });
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
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const t = TimelineSchema.parse(JSON.parse(data));
        if (until(t)) return t;
      }
    }
  } finally {
    abort.abort();
  }
}

describe('a trainee’s attempt timeline, projected', () => {
  it('lists their requests newest first, with refusals and the engine’s diagnosis, live', async () => {
    const ann = await new Trainee(room, 'Ann').join();
    const bob = await new Trainee(room, 'Bob').join();
    await majorUnitsSale(ann);
    await room.app.classroom.settled();
    await bob.control('v2/sale', cardParams());

    const res = await fetch(`${room.origin}/classroom/trainer/timeline/${ann.id}`, {
      headers: { cookie: trainer() },
    });
    expect(res.status).toBe(200);
    const first = TimelineSchema.parse(await res.json());
    expect(first.trainee).toEqual({ id: ann.id, name: 'Ann' });
    expect(first.entries).toHaveLength(1);
    expect(first.entries[0]).toMatchObject({
      operation: 'v2/sale',
      accepted: false,
      errorCode: 'INVALID_CONTROL_CODE',
      mistake: { id: 'amount-major-units', label: 'Amount not in minor units' },
    });

    // Live: Ann's next (correct) sale appears on the projection on its own; Bob's never does.
    const next = timelineUntil(ann.id, (t) => t.entries.length === 2);
    expect((await ann.control('v2/sale', cardParams())).status).toBe(200);
    const after = await next;
    expect(after.entries.map((e) => [e.operation, e.accepted])).toEqual([
      ['v2/sale', true],
      ['v2/sale', false],
    ]);
    expect(after.total).toBe(2);
  });

  it('is the trainer’s; an unknown trainee is named as such', async () => {
    const ann = await new Trainee(room, 'Ann').join();
    const asAnn = await fetch(`${room.origin}/classroom/trainer/timeline/${ann.id}`, {
      headers: { cookie: ann.cookie },
    });
    expect(asAnn.status).toBe(403);
    const unknown = await fetch(`${room.origin}/classroom/trainer/timeline/nobody`, {
      headers: { cookie: trainer() },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'TRAINEE_UNKNOWN' } });
  });
});
