/**
 * Issue 32 §5: the trainer's live stream sends the whole table once, then only the rows that changed
 * (src/contracts/classroom-trainer.ts), each event numbered. Over real HTTP: the stream read with
 * fetch from the listening server, the attempt sent through the proxy.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrainerDeltaSchema, TrainerSnapshotSchema } from '../../src/contracts/classroom-trainer.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

let room: Room;
beforeEach(async () => {
  room = await startRoom();
});
afterEach(async () => {
  await room.close();
});

/** The trainer's stream, read one event at a time (no timing: each read waits for the next event). */
async function openTrainerStream() {
  const abort = new AbortController();
  const res = await fetch(`${room.origin}/classroom/trainer/events`, {
    headers: { cookie: `pc_trainer=${room.app.classroom.trainerToken()}` },
    signal: abort.signal,
  });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<{ type: string; data: unknown }> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = frame.split('\n');
        const data = lines.find((l) => l.startsWith('data: '));
        if (!data) continue;
        const type = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
        return { type, data: JSON.parse(data.slice(6)) };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { next, close: () => abort.abort() };
}

describe("the trainer's live stream", () => {
  it("after one trainee's attempt, the next event carries only that trainee's row", async () => {
    const ann = await new Trainee(room, 'Ann').join();
    const bob = await new Trainee(room, 'Bob').join();
    const stream = await openTrainerStream();
    try {
      const first = await stream.next();
      expect(first.type).toBe('snapshot');
      const snapshot = TrainerSnapshotSchema.parse(first.data);
      expect(snapshot.trainees.map((t) => t.name)).toEqual(['Ann', 'Bob']);

      const ack = await ann.control('v2/sale', cardParams());
      expect(ack.status).toBe(200);
      const second = await stream.next();
      expect(second.type).toBe('delta');
      const delta = TrainerDeltaSchema.parse(second.data);
      expect(delta.seq).toBe(snapshot.seq! + 1);
      expect(delta.trainees.map((t) => t.name)).toEqual(['Ann']);
      expect(delta.trainees[0]!.results.find((r) => r.id === 'sale-control')?.attempts).toBe(1);

      await bob.control('v2/sale', cardParams());
      const third = TrainerDeltaSchema.parse((await stream.next()).data);
      expect(third.seq).toBe(delta.seq + 1);
      expect(third.trainees.map((t) => t.name)).toEqual(['Bob']);
      expect(bob.id).toBe(third.trainees[0]!.id);
    } finally {
      stream.close();
    }
  });

  it('sends a joining trainee as a new row, and a snapshot again to a new connection', async () => {
    await new Trainee(room, 'Ann').join();
    const stream = await openTrainerStream();
    try {
      expect((await stream.next()).type).toBe('snapshot');
      await new Trainee(room, 'Cy').join();
      const delta = TrainerDeltaSchema.parse((await stream.next()).data);
      expect(delta.trainees.map((t) => t.name)).toEqual(['Cy']);
    } finally {
      stream.close();
    }
    const again = await openTrainerStream();
    try {
      const first = await again.next();
      expect(first.type).toBe('snapshot');
      expect(TrainerSnapshotSchema.parse(first.data).trainees.map((t) => t.name)).toEqual(['Ann', 'Cy']);
    } finally {
      again.close();
    }
  });
});
