import { randomInt, randomUUID } from 'node:crypto';
import type { CryptoPort } from '../src/core/index.ts';
import { PUSH_MISTAKES, type TraineePush, type TrainerPush } from '../src/contracts/pushed-capture.ts';
import { ClassroomError, mistakeLabel } from './classroom.ts';
import type { ClassroomStore } from './classroom-store.ts';
import { confirmedCauseOfCapture } from './diagnose-attempt.ts';
import { brokenCapture, TEACHING_CONTROL_KEY } from './variants.ts';

/** The choices every pushed question offers besides the engine's finding (a control-signed capture's usual slips). */
const CHOICES = [...PUSH_MISTAKES, 'wrong-key', 'key-text-slip'] as const;

interface Push {
  id: string;
  at: number;
  capture: string;
  finding: string;
  choices: string[];
  closed: boolean;
}

const PUSH_KEY = 'pushed_capture';
const answerKey = (pushId: string, traineeId: string) => `pushed_answer:${pushId}:${traineeId}`;
const choice = (id: string) => ({ id, label: mistakeLabel(id) });

/**
 * "What is wrong with this one?": the trainer pushes one broken capture to every trainee's debugger
 * and collects the answers live, each graded against the diagnosis engine's confirmed cause of the
 * capture (not against the mistake the generator meant to make). The question and the answers are
 * kept in the classroom's database (survive a restart); a new push replaces the question.
 */
export class PushedCaptures {
  private push: Push | undefined;
  private readonly answers = new Map<string, { choice: string; at: number }>();
  private readonly listeners = new Set<(traineeId: string | null) => void>();

  constructor(
    private readonly store: ClassroomStore,
    private readonly crypto: CryptoPort,
    private readonly clock: () => number,
  ) {
    const kept = store.getMeta(PUSH_KEY);
    if (!kept) return;
    this.push = JSON.parse(kept) as Push;
    for (const t of store.trainees()) {
      const a = store.getMeta(answerKey(this.push.id, t.id));
      if (a) this.answers.set(t.id, JSON.parse(a) as { choice: string; at: number });
    }
  }

  /** `traineeId` null: the question itself changed (everyone's view). */
  subscribe(listener: (traineeId: string | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(traineeId: string | null): void {
    for (const l of this.listeners) l(traineeId);
  }

  /** Makes a broken capture (with `mistake`, else one drawn) and pushes it to every trainee. */
  async pushCapture(mistake?: (typeof PUSH_MISTAKES)[number]): Promise<TrainerPush> {
    const made = mistake ?? PUSH_MISTAKES[randomInt(PUSH_MISTAKES.length)]!;
    const capture = brokenCapture('v2/capture', made, {
      endpointId: String(4000 + randomInt(6000)),
      clientOrderId: `inv-${100 + randomInt(900)}`,
      orderId: String(5_000_000 + randomInt(1_000_000)),
      amount: `${100 + randomInt(49_900)}.${String(randomInt(100)).padStart(2, '0')}`,
      currency: ['USD', 'EUR', 'GBP'][randomInt(3)]!,
    });
    // Graded against what the engine finds in the capture, as a trainee's debugger would find it.
    const finding = await confirmedCauseOfCapture(capture, TEACHING_CONTROL_KEY, this.crypto);
    if (!finding)
      throw new ClassroomError(
        409,
        'NO_FINDING',
        'The diagnosis engine confirms no mistake in the capture made: push again.',
      );
    const choices: string[] = CHOICES.includes(finding as never) ? [...CHOICES] : [finding, ...CHOICES];
    this.push = { id: randomUUID(), at: this.clock(), capture, finding, choices, closed: false };
    this.answers.clear();
    this.store.setMeta(PUSH_KEY, JSON.stringify(this.push));
    this.emit(null);
    return this.trainerView();
  }

  /** Closes the question: no more answers; trainees see the finding and whether they named it. */
  close(): TrainerPush {
    const p = this.current();
    p.closed = true;
    this.store.setMeta(PUSH_KEY, JSON.stringify(p));
    this.emit(null);
    return this.trainerView();
  }

  private current(): Push {
    if (!this.push)
      throw new ClassroomError(404, 'NO_PUSHED_CAPTURE', 'No capture has been pushed: push one first.');
    return this.push;
  }

  /** A trainee's answer (one per question, final). */
  answer(traineeId: string, pushId: string, choiceId: string): TraineePush {
    const p = this.current();
    if (p.id !== pushId)
      throw new ClassroomError(
        409,
        'PUSH_REPLACED',
        'The trainer has pushed another capture since: answer the one shown now.',
      );
    if (p.closed) throw new ClassroomError(409, 'PUSH_CLOSED', 'The trainer has closed this question.');
    if (!p.choices.includes(choiceId))
      throw new ClassroomError(400, 'CHOICE_UNKNOWN', `Pick one of: ${p.choices.join(', ')}.`);
    if (this.answers.has(traineeId))
      throw new ClassroomError(409, 'ALREADY_ANSWERED', 'You have answered this question already.');
    const a = { choice: choiceId, at: this.clock() };
    this.answers.set(traineeId, a);
    this.store.setMeta(answerKey(p.id, traineeId), JSON.stringify(a));
    this.emit(traineeId);
    return this.traineeView(traineeId);
  }

  traineeView(traineeId: string): TraineePush {
    const p = this.push;
    if (!p) return { push: null };
    const a = this.answers.get(traineeId);
    return {
      push: {
        id: p.id,
        at: p.at,
        capture: p.capture,
        choices: p.choices.map(choice),
        answer: a ? choice(a.choice) : null,
        closed: p.closed,
        finding: p.closed ? choice(p.finding) : null,
        right: p.closed && a ? a.choice === p.finding : null,
      },
    };
  }

  trainerView(): TrainerPush {
    const p = this.push;
    const mistakes = PUSH_MISTAKES.map(choice);
    if (!p) return { mistakes, push: null };
    const trainees = this.store.trainees();
    return {
      mistakes,
      push: {
        id: p.id,
        at: p.at,
        capture: p.capture,
        finding: choice(p.finding),
        choices: p.choices.map(choice),
        closed: p.closed,
        answers: trainees.flatMap((t) => {
          const a = this.answers.get(t.id);
          return a
            ? [
                {
                  traineeId: t.id,
                  name: t.name,
                  choice: choice(a.choice),
                  right: a.choice === p.finding,
                  at: a.at,
                },
              ]
            : [];
        }),
        waiting: trainees
          .filter((t) => !this.answers.has(t.id))
          .map((t) => ({ traineeId: t.id, name: t.name })),
      },
    };
  }
}
