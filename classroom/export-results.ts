import type { TrainerSnapshot, WrongChoice } from './classroom.ts';

/** The trainer's snapshot as the exports read it (a snapshot without wrong answers has none). */
export type ExportedSnapshot = Omit<TrainerSnapshot, 'trainees'> & {
  trainees: Array<
    Omit<TrainerSnapshot['trainees'][number], 'wrongChoices'> & { wrongChoices?: readonly WrongChoice[] }
  >;
};

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function field(value: string | number | null): string {
  let s = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/** One row per trainee and exercise: done, attempts, time taken (seconds). */
export function resultsCsv(s: ExportedSnapshot): string {
  const rows = [
    ['trainee', 'login', 'exercise', 'title', 'state', 'attempts', 'started_at', 'done_at', 'seconds'],
  ];
  const titles = new Map(s.exercises.map((e) => [e.id, e.title]));
  for (const t of s.trainees)
    for (const r of t.results)
      rows.push([
        t.name,
        t.login,
        r.id,
        titles.get(r.id) ?? '',
        r.state,
        String(r.attempts),
        iso(r.startedAt),
        iso(r.doneAt),
        r.doneAt !== null && r.startedAt !== null ? String(Math.round((r.doneAt - r.startedAt) / 1000)) : '',
      ]);
  return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The CSV's results, and each question's wrong answers (by the diagnosis engine's label). */
export function resultsJson(s: ExportedSnapshot): unknown {
  return {
    version: 1,
    exportedAt: iso(s.at),
    exercises: s.exercises.map(({ id, title }) => ({ id, title })),
    trainees: s.trainees.map((t) => ({
      name: t.name,
      login: t.login,
      joinedAt: iso(t.joinedAt),
      done: t.done,
      results: t.results.map((r) => ({
        exercise: r.id,
        state: r.state,
        attempts: r.attempts,
        startedAt: iso(r.startedAt),
        doneAt: iso(r.doneAt),
        wrongAnswers: (t.wrongChoices ?? [])
          .filter((w) => w.exerciseId === r.id)
          .map(({ choice, label, count }) => ({ choice, label, count })),
      })),
    })),
    mistakes: s.mistakes,
  };
}
