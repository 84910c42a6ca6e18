/**
 * The trainer page's table over its stream (src/features/classroom/trainer-table.ts): a snapshot,
 * deltas applied in order, and a missed or malformed delta answered by a resync.
 */
import { describe, expect, it } from 'vitest';
import type { TrainerRow, TrainerSnapshot } from '../../src/contracts/classroom-trainer.ts';
import { applyTrainerEvent } from '../../src/features/classroom/trainer-table.ts';

function row(name: string, attempts = 0): TrainerRow {
  return {
    id: `id-${name}`,
    name,
    login: `trainee-${name}`,
    joinedAt: 1,
    done: 0,
    results: [{ id: 'sale-control', state: 'open', detail: '', attempts, startedAt: null, doneAt: null }],
    lastRefused: null,
    wrongChoices: [],
  };
}

const exercises = [{ id: 'sale-control', title: 'A sale', locked: false, hintsShown: 0, hintsTotal: 2 }];
const snapshot = (seq: number, trainees: TrainerRow[]) => ({
  type: 'snapshot',
  data: JSON.stringify({ seq, exercises, trainees, mistakes: [], at: 10 }),
});
const delta = (seq: number, trainees: TrainerRow[], more: Record<string, unknown> = {}) => ({
  type: 'delta',
  data: JSON.stringify({ seq, at: 10 + seq, trainees, ...more }),
});

function table(step: ReturnType<typeof applyTrainerEvent>): TrainerSnapshot {
  if (step.kind !== 'table') throw new Error(`expected a table, got ${step.kind}`);
  return step.table;
}

describe('applying the trainer stream', () => {
  it('takes a snapshot whole, then replaces the rows a delta carries and appends new ones', () => {
    const t0 = table(applyTrainerEvent(undefined, snapshot(4, [row('Ann'), row('Bob')])));
    expect(t0.trainees.map((t) => t.name)).toEqual(['Ann', 'Bob']);
    const t1 = table(applyTrainerEvent(t0, delta(5, [row('Bob', 3), row('Cy')])));
    expect(t1.seq).toBe(5);
    expect(t1.at).toBe(15);
    expect(t1.trainees.map((t) => [t.name, t.results[0]!.attempts])).toEqual([
      ['Ann', 0],
      ['Bob', 3],
      ['Cy', 0],
    ]);
    // Rows the delta does not carry are kept as they were; the table before is not changed.
    expect(t1.trainees[0]).toBe(t0.trainees[0]);
    expect(t0.trainees).toHaveLength(2);
    expect(t1.exercises).toEqual(exercises);
  });

  it('replaces the exercises and the mistake counts when a delta carries them', () => {
    const t0 = table(applyTrainerEvent(undefined, snapshot(0, [row('Ann')])));
    const mistakes = [{ mistakeId: 'wrong-key', label: 'Wrong key', count: 2 }];
    const locked = [{ ...exercises[0]!, locked: true }];
    const t1 = table(applyTrainerEvent(t0, delta(1, [], { mistakes, exercises: locked })));
    expect(t1.mistakes).toEqual(mistakes);
    expect(t1.exercises[0]!.locked).toBe(true);
  });

  it('asks for a resync on a gap, a delta before any snapshot, or a malformed delta', () => {
    const t0 = table(applyTrainerEvent(undefined, snapshot(7, [row('Ann')])));
    expect(applyTrainerEvent(t0, delta(9, [row('Ann', 1)]))).toEqual({ kind: 'resync' });
    expect(applyTrainerEvent(t0, delta(7, [row('Ann', 1)]))).toEqual({ kind: 'resync' });
    expect(applyTrainerEvent(undefined, delta(1, [row('Ann', 1)]))).toEqual({ kind: 'resync' });
    expect(applyTrainerEvent(t0, { type: 'delta', data: '{"seq":8' })).toEqual({ kind: 'resync' });
    expect(applyTrainerEvent(t0, { type: 'delta', data: '{"seq":8,"at":1}' })).toEqual({ kind: 'resync' });
  });

  it('starts again from the snapshot that follows a resync', () => {
    const t0 = table(applyTrainerEvent(undefined, snapshot(7, [row('Ann')])));
    expect(applyTrainerEvent(t0, delta(9, [row('Ann', 1)])).kind).toBe('resync');
    // The stream opened again: its numbers start afresh.
    const t1 = table(applyTrainerEvent(undefined, snapshot(0, [row('Ann', 2), row('Bob')])));
    const t2 = table(applyTrainerEvent(t1, delta(1, [row('Bob', 1)])));
    expect(t2.trainees.map((t) => t.results[0]!.attempts)).toEqual([2, 1]);
  });

  it('ignores other events and a malformed snapshot', () => {
    expect(applyTrainerEvent(undefined, { type: 'view', data: '{}' })).toEqual({ kind: 'ignore' });
    expect(applyTrainerEvent(undefined, { type: 'snapshot', data: '{"seq":0}' })).toEqual({ kind: 'ignore' });
  });
});
