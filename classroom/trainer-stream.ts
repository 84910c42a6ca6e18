import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { TrainerDelta, TrainerRow, TrainerSnapshot } from '../src/contracts/classroom-trainer.ts';
import type { Classroom } from './classroom.ts';
import { foldedEvents } from './live-stream.ts';

/**
 * The trainer's live stream (src/contracts/classroom-trainer.ts): the whole table once, then every
 * `delayMs` at most one `delta` with the rows that changed since the last event (changes in between
 * fold into one). A room of 1,000 changes about 1,000 rows a second; sending the 1.5 MB table several
 * times a second cost the server more than the room did. Rows are compared by identity first (the
 * classroom keeps a row until its trainee changes), then by their JSON, which the delta reuses.
 */
export function trainerEvents(reply: FastifyReply, classroom: Classroom, delayMs: number): FastifyReply {
  const sent = new Map<string, { row: TrainerRow; json: string }>();
  let seq = 0;
  let exercises = '';
  let mistakes = '';

  /** The rows whose JSON differs from what this stream sent last, as JSON. */
  const changedRows = (snapshot: TrainerSnapshot): string[] => {
    const changed: string[] = [];
    for (const row of snapshot.trainees) {
      const last = sent.get(row.id);
      if (last?.row === row) continue;
      const json = JSON.stringify(row);
      if (last?.json === json) {
        last.row = row;
        continue;
      }
      sent.set(row.id, { row, json });
      changed.push(json);
    }
    return changed;
  };

  const first = (res: ServerResponse) => {
    const s = classroom.trainerSnapshot();
    const rows = changedRows(s);
    exercises = JSON.stringify(s.exercises);
    mistakes = JSON.stringify(s.mistakes);
    res.write(
      `event: snapshot\ndata: {"seq":${seq},"exercises":${exercises},"trainees":[${rows.join(',')}],"mistakes":${mistakes},"at":${s.at}}\n\n`,
    );
  };

  const next = (res: ServerResponse) => {
    const s = classroom.trainerSnapshot();
    const rows = changedRows(s);
    const ex = JSON.stringify(s.exercises);
    const mi = JSON.stringify(s.mistakes);
    if (rows.length === 0 && ex === exercises && mi === mistakes) return;
    seq += 1;
    const head: Omit<TrainerDelta, 'trainees'> = { seq, at: s.at };
    let data = `{"seq":${head.seq},"at":${head.at},"trainees":[${rows.join(',')}]`;
    if (ex !== exercises) data += `,"exercises":${ex}`;
    if (mi !== mistakes) data += `,"mistakes":${mi}`;
    exercises = ex;
    mistakes = mi;
    res.write(`event: delta\ndata: ${data}}\n\n`);
  };

  return foldedEvents(
    reply,
    delayMs,
    (changed) => classroom.subscribe(() => changed()),
    (res, isFirst) => (isFirst ? first(res) : next(res)),
  );
}
