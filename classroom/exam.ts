import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Refusal } from '../sandbox/route-access.ts';
import { ClassroomError, type Classroom, type ExamGate, type TrainerSnapshot } from './classroom.ts';
import type { ClassroomStore } from './classroom-store.ts';
import type { ExamState } from '../src/contracts/classroom-exam.ts';

export type { ExamState };

/** The exam's time box as the classroom keeps it (meta `exam`, so it survives a restart). */
const StoredExam = z.object({
  startedAt: z.number().int(),
  endsAt: z.number().int(),
  minutes: z.number().int(),
});
type StoredExam = z.infer<typeof StoredExam>;

const startBody = z.object({ minutes: z.number().int().min(1).max(600) });

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Exam mode: a time box set by the trainer. While it runs, hints are off (none unlock by
 * themselves, none are revealed or shown, no Skip); from its end the room is frozen: a request that
 * would count is refused (EXAM_OVER, naming the end) and nothing is graded, until the trainer
 * reopens the room.
 */
export class Exam implements ExamGate {
  private cached: StoredExam | null | undefined;

  constructor(
    private readonly store: ClassroomStore,
    private readonly classroom: Classroom,
  ) {
    classroom.examGate = this;
  }

  private exam(): StoredExam | null {
    if (this.cached === undefined) {
      const raw = this.store.getMeta('exam');
      const parsed = raw ? StoredExam.safeParse(JSON.parse(raw)) : undefined;
      this.cached = parsed?.success ? parsed.data : null;
    }
    return this.cached;
  }

  private save(exam: StoredExam | null): void {
    this.cached = exam;
    this.store.setMeta('exam', exam ? JSON.stringify(exam) : '');
    // Classroom.hintsSuppressed reads this: off from the start of an exam until the room reopens.
    this.store.setMeta('hints_off', exam ? '1' : '0');
    this.classroom.emit(null);
  }

  view(): ExamState {
    const e = this.exam();
    const now = this.classroom.time();
    return {
      state: !e ? 'none' : now >= e.endsAt ? 'over' : 'running',
      startedAt: e ? iso(e.startedAt) : null,
      endsAt: e ? iso(e.endsAt) : null,
      minutes: e?.minutes ?? null,
      now: iso(now),
    };
  }

  start(minutes: number): ExamState {
    if (this.view().state !== 'none')
      throw new ClassroomError(
        409,
        'EXAM_EXISTS',
        'An exam is already set: end it, export its results and reopen the room before starting another.',
      );
    const now = this.classroom.time();
    this.save({ startedAt: now, endsAt: now + minutes * 60_000, minutes });
    return this.view();
  }

  /** Ends a running exam now (the room freezes at once). */
  end(): ExamState {
    const e = this.exam();
    if (!e || this.view().state !== 'running')
      throw new ClassroomError(409, 'NO_EXAM_RUNNING', 'No exam is running: start one first.');
    this.save({ ...e, endsAt: this.classroom.time() });
    return this.view();
  }

  /** Reopens the room after an exam: hints and grading come back. */
  reopen(): ExamState {
    if (this.view().state === 'running')
      throw new ClassroomError(409, 'EXAM_RUNNING', 'The exam is running: end it first.');
    this.save(null);
    return this.view();
  }

  frozen(): boolean {
    const e = this.exam();
    return e !== null && this.classroom.time() >= e.endsAt;
  }

  private endedMessage(): string {
    return `The exam ended at ${iso(this.exam()!.endsAt)}: the room is frozen, your results are final and this does not count. Ask the trainer to reopen the room.`;
  }

  refuse(action: 'answer' | 'skip' | 'reveal-hint'): void {
    const state = this.view().state;
    if (state === 'over') throw new ClassroomError(423, 'EXAM_OVER', this.endedMessage());
    if (state === 'running' && action !== 'answer')
      throw new ClassroomError(
        409,
        'EXAM_HINTS_OFF',
        `An exam is running until ${this.view().endsAt}: hints and Skip are off until the trainer reopens the room.`,
      );
  }

  /** The access rule for the sandbox's operations: refused once the exam is over. */
  readonly requestRule = (): Refusal | undefined =>
    this.frozen() ? { status: 423, code: 'EXAM_OVER', message: this.endedMessage() } : undefined;
}

/** A CSV field: quoted when needed; a leading =+-@ is defused for spreadsheets. */
function field(value: string | number): string {
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The exam's results: one row per trainee and exercise, with the exam's window on every row. */
export function examCsv(exam: ExamState, s: TrainerSnapshot): string {
  const rows: Array<Array<string | number>> = [
    [
      'exam_started_at',
      'exam_ended_at',
      'trainee',
      'login',
      'exercise',
      'title',
      'state',
      'attempts',
      'assisted',
      'done_at',
      'points',
    ],
  ];
  const titles = new Map(s.exercises.map((e) => [e.id, e.title]));
  for (const t of s.trainees)
    for (const r of t.results)
      rows.push([
        exam.startedAt ?? '',
        exam.endsAt ?? '',
        t.name,
        t.login,
        r.id,
        titles.get(r.id) ?? '',
        r.state,
        r.attempts,
        (t.assisted ?? []).includes(r.id) ? 'yes' : 'no',
        r.doneAt === null ? '' : iso(r.doneAt),
        t.points ?? 0,
      ]);
  return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

export function examJson(exam: ExamState, s: TrainerSnapshot): unknown {
  return {
    version: 1,
    exam: { state: exam.state, startedAt: exam.startedAt, endedAt: exam.endsAt, minutes: exam.minutes },
    exportedAt: iso(s.at),
    exercises: s.exercises.map(({ id, title }) => ({ id, title })),
    trainees: s.trainees.map((t) => ({
      name: t.name,
      login: t.login,
      done: t.done,
      points: t.points ?? 0,
      results: t.results.map((r) => ({
        exercise: r.id,
        state: r.state,
        attempts: r.attempts,
        assisted: (t.assisted ?? []).includes(r.id),
        doneAt: r.doneAt === null ? null : iso(r.doneAt),
      })),
    })),
  };
}

/** Exam mode's routes (under /classroom): the trainer's controls and exports, the trainee's view. */
export function examRoutes(app: FastifyInstance, exam: Exam, classroom: Classroom): void {
  const TRAINER = { config: { access: 'trainer' } } as const;
  const TRAINEE = { config: { access: 'trainee' } } as const;
  const noStore = { 'cache-control': 'no-store' };

  app.get('/trainer/exam', TRAINER, async (_request, reply) => reply.headers(noStore).send(exam.view()));

  app.post('/trainer/exam', { ...TRAINER, bodyLimit: 1024 }, async (request, reply) => {
    const r = startBody.safeParse(request.body);
    if (!r.success)
      throw new ClassroomError(
        400,
        'VALIDATION',
        'minutes: give the exam’s length in whole minutes (1–600).',
      );
    return reply.headers(noStore).send(exam.start(r.data.minutes));
  });

  app.post('/trainer/exam/end', TRAINER, async (_request, reply) => reply.headers(noStore).send(exam.end()));

  app.post('/trainer/exam/reopen', TRAINER, async (_request, reply) =>
    reply.headers(noStore).send(exam.reopen()),
  );

  app.get('/trainer/exam/export.csv', TRAINER, async (_request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="exam-results.csv"')
      .headers(noStore)
      .send(examCsv(exam.view(), classroom.trainerSnapshot())),
  );

  app.get('/trainer/exam/export.json', TRAINER, async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', 'attachment; filename="exam-results.json"')
      .headers(noStore)
      .send(JSON.stringify(examJson(exam.view(), classroom.trainerSnapshot()), null, 2)),
  );

  // The trainee's page shows the exam's end (and that hints are off).
  app.get('/exam', TRAINEE, async (_request, reply) => reply.headers(noStore).send(exam.view()));
}
