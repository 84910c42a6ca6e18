import {
  TrainerDeltaSchema,
  TrainerSnapshotSchema,
  type TrainerSnapshot,
} from '../../contracts/classroom-trainer.ts';

/** What the trainer's stream sent: its event name and its data, as text. */
export interface TrainerEvent {
  type: string;
  data: string;
}

/**
 * The trainer's table after one event of the stream (src/contracts/classroom-trainer.ts): a
 * `snapshot` replaces it; a `delta` numbered one more than the table replaces the rows it carries
 * (a new trainee's row goes last). `resync`: a delta came without the table it follows (a number
 * missed, a malformed event), so the stream must be read again from a snapshot. `ignore`: nothing
 * to apply (an event of another kind, or a malformed snapshot, which the next one replaces).
 */
export function applyTrainerEvent(
  table: TrainerSnapshot | undefined,
  event: TrainerEvent,
): { kind: 'table'; table: TrainerSnapshot } | { kind: 'resync' } | { kind: 'ignore' } {
  let json: unknown;
  try {
    json = JSON.parse(event.data);
  } catch {
    return event.type === 'delta' ? { kind: 'resync' } : { kind: 'ignore' };
  }
  if (event.type === 'snapshot') {
    const parsed = TrainerSnapshotSchema.safeParse(json);
    return parsed.success ? { kind: 'table', table: parsed.data } : { kind: 'ignore' };
  }
  if (event.type !== 'delta') return { kind: 'ignore' };
  const parsed = TrainerDeltaSchema.safeParse(json);
  if (!parsed.success || table?.seq === undefined || parsed.data.seq !== table.seq + 1)
    return { kind: 'resync' };
  const delta = parsed.data;
  const trainees = [...table.trainees];
  const at = new Map(trainees.map((t, i) => [t.id, i]));
  for (const row of delta.trainees) {
    const i = at.get(row.id);
    if (i === undefined) {
      at.set(row.id, trainees.length);
      trainees.push(row);
    } else trainees[i] = row;
  }
  return {
    kind: 'table',
    table: {
      seq: delta.seq,
      at: delta.at,
      trainees,
      exercises: delta.exercises ?? table.exercises,
      mistakes: delta.mistakes ?? table.mistakes,
    },
  };
}
