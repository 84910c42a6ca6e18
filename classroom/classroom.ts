import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MISTAKES, mistakeById, type MistakeId } from '../src/diagnose/index.ts';
import type { SandboxAttempt, SandboxHandle } from '../sandbox/hooks.ts';
import type { Merchant } from '../sandbox/merchants.ts';
import {
  evaluateCheck,
  type Answer,
  type AttemptCause,
  type AttemptRecord,
  type CheckResult,
} from './checks.ts';
import type { ClassroomStore, ProgressRow, TraineeRow } from './classroom-store.ts';
import { attemptFits, requestedThreeDs } from './attempt-fit.ts';
import { mistakeOfAttempt } from './diagnose-attempt.ts';
import { drawVariant, fillText, type Variant } from './variants.ts';
import { signedWithReplacedKey, traineeKeyState, type TraineeKeyState } from './trainee-keys.ts';
import { checkOperations, type Exercise } from './exercise-schema.ts';
import { errorText } from '../src/core/errors.ts';

export interface ClassroomLimits {
  /** Attempts kept per trainee (the oldest go): bounds each trainee's data. */
  attemptsKept: number;
  maxTrainees: number;
  /** Sandbox orders a trainee's merchant may hold; more are refused until the trainer resets them. */
  ordersPerTrainee: number;
  /** Requests per second per trainee, sustained, and the burst above it. */
  ratePerSecond: number;
  rateBurst: number;
}

export const DEFAULT_LIMITS: ClassroomLimits = {
  attemptsKept: 500,
  maxTrainees: 200,
  ordersPerTrainee: 5000,
  ratePerSecond: 10,
  rateBurst: 30,
};

/**
 * Exam mode's say (exam.ts): `refuse` throws a ClassroomError when the exam forbids an action now;
 * once `frozen`, nothing is graded any more.
 */
export interface ExamGate {
  refuse(action: 'answer' | 'skip' | 'reveal-hint'): void;
  frozen(): boolean;
}

/** A refusal the HTTP layer turns into a JSON error with this status and code. */
export class ClassroomError extends Error {
  override readonly name = 'ClassroomError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ExerciseStatus {
  id: string;
  state: CheckResult['state'] | 'locked';
  detail: string;
  attempts: number;
  startedAt: number | null;
  doneAt: number | null;
}

interface HintRow {
  traineeId: string;
  exerciseId: string;
  mistakeId: MistakeId;
  label: string;
  at: number;
  cost: number;
}

export interface TraineeView {
  /** 10 per exercise done unassisted, less the cost of the hints that unlocked. */
  points: number;
  trainee: { id: string; name: string; login: string; endpointId: string; endpointGroupId: string };
  exercises: Array<
    ExerciseStatus & {
      title: string;
      goal: string;
      hints: string[];
      hintsTotal: number;
      operation: string | null;
      locked: boolean;
      /** A question's choices: mistake ids with the diagnosis engine's labels. */
      choices: Array<{ id: string; label: string }> | null;
      capture: string | null;
      answer: string | null;
      /** Hints that unlocked for this trainee's own mistakes. */
      ownHints: Array<{ mistakeId: string; label: string; text: string; cost: number }>;
      /** After how many refused requests a hint unlocks by itself; null: it does not. */
      autoHintAfter: number | null;
      assisted: boolean;
    }
  >;
}

export interface RefusedView {
  at: number;
  operation: string | null;
  httpStatus: number;
  errorCode: string | null;
  errorMessage: string | null;
  mistakeId: MistakeId | null;
  mistakeLabel: string | null;
  /** Not the trainee's mistake: `trainer-restore` when signed with a key the trainer's restore replaced. */
  cause: AttemptCause | null;
}

/** A wrong cause a trainee named for a question, and how often they named it. */
export interface WrongChoice {
  exerciseId: string;
  choice: string;
  label: string;
  count: number;
}

export interface VariantView {
  exerciseId: string;
  values: string;
  expected: string;
}

export interface TrainerSnapshot {
  exercises: Array<{
    id: string;
    title: string;
    locked: boolean;
    hintsShown: number;
    hintsTotal: number;
    autoHints?: { after: number; cost: number } | null;
  }>;
  trainees: Array<{
    id: string;
    name: string;
    login: string;
    joinedAt: number;
    done: number;
    results: ExerciseStatus[];
    lastRefused: RefusedView | null;
    wrongChoices: WrongChoice[];
    /** This trainee's variant of each exercise that declares one, and what passes it. */
    variants?: VariantView[];
    /** The hints that unlocked for this trainee (which mistake, on which exercise). */
    hints?: Array<{ exerciseId: string; mistakeId: string; label: string; cost: number }>;
    /** Exercises this trainee skipped (done, assisted). */
    assisted?: string[];
    points?: number;
  }>;
  mistakes: Array<{ mistakeId: string; label: string; count: number }>;
  at: number;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A credential of at least 128 random bits (here 256), URL- and cookie-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

const LABELS: ReadonlyMap<string, string> = new Map(MISTAKES.map((m) => [m.id, m.title]));

/** The diagnosis engine's label of a mistake id (the id itself for one it does not know). */
export function mistakeLabel(id: string): string {
  return LABELS.get(id) ?? id;
}

function answerOf(p: ProgressRow | undefined): Answer | undefined {
  return p?.answer != null ? { choice: p.answer, afterAttempt: p.answered_after } : undefined;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A trainee's kept attempts with, per exercise (by index), how many fit it, how many of those were
 * refused, and when the first one was (undefined: to be found again after the oldest went). Kept up
 * to date as attempts come and go, so a row of the trainer's table never reads every attempt again.
 */
interface Tally {
  list: AttemptRecord[];
  fits: number[];
  refused: number[];
  first: Array<number | null | undefined>;
}

/**
 * The classroom: trainees and their merchants, their attempts as the sandbox saw them, the checks
 * evaluated from those, and what the trainer controls (locks, hints, resets). No HTTP here.
 */
export class Classroom {
  readonly exercises: readonly Exercise[];
  private readonly store: ClassroomStore;
  private readonly limits: ClassroomLimits;
  private readonly causes: ReadonlyMap<string, MistakeId>;
  private sandbox: SandboxHandle | undefined;
  private readonly bySession = new Map<string, TraineeRow>();
  private readonly byLogin = new Map<string, TraineeRow>();
  private readonly byId = new Map<string, TraineeRow>();
  private readonly attempts = new Map<string, Tally>();
  private readonly buckets = new Map<string, Bucket>();
  /** Session credential → its SHA-256, for the sessions seen lately (bounded). */
  private readonly sessionHashes = new Map<string, string>();
  /**
   * Per trainee, the sandbox's count of their orders when last read and the requests admitted
   * since: each makes one order at most, so while their sum is under the bound nothing is read.
   */
  private readonly ordersBound = new Map<string, { counted: number; since: number }>();
  private readonly pending = new Set<string>();
  private readonly listeners = new Set<(traineeId: string | null) => void>();
  private readonly diagnosing = new Set<Promise<void>>();
  /** The last verdict of each trainee's open exercises (the trainer page reads these, never re-evaluates). */
  private readonly results = new Map<string, Map<string, CheckResult>>();
  /** Per trainee and exercise, attempts that can never pass it (see CheckData.settledMisses). */
  private readonly misses = new Map<string, Set<number>>();
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private autoHintCache: Map<string, { after: number; cost: number }> | undefined;
  /** Per trainee and exercise, the variant drawn (deterministic: a cache, never stored). */
  private readonly variants = new Map<string, Variant | undefined>();
  /** The trainer's table row of each trainee, made again only after a change of theirs (emit). */
  private readonly rows = new Map<string, TrainerSnapshot['trainees'][number]>();
  private mistakesKept: TrainerSnapshot['mistakes'] | undefined;
  /** Per trainee, the public keys the trainer's restores replaced (read once from the store). */
  private readonly replacedKeys = new Map<string, string[]>();
  /** Set by exam mode (exam.ts). */
  examGate: ExamGate | undefined;

  constructor(
    store: ClassroomStore,
    exercises: readonly Exercise[],
    causes: ReadonlyMap<string, MistakeId>,
    limits: Partial<ClassroomLimits> = {},
  ) {
    this.store = store;
    this.exercises = exercises;
    this.causes = causes;
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    for (const t of store.trainees()) this.remember(t);
  }

  private remember(t: TraineeRow): void {
    this.bySession.set(t.session_hash, t);
    this.byLogin.set(t.login, t);
    this.byId.set(t.id, t);
  }

  /** Binds the running sandbox (its `onReady` hook) and starts the sweep that settles pending checks. */
  attach(handle: SandboxHandle): void {
    this.sandbox = handle;
    this.sweepTimer = setInterval(() => this.sweep(), 250);
    this.sweepTimer.unref();
  }

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await Promise.allSettled([...this.diagnosing]);
  }

  private get handle(): SandboxHandle {
    if (!this.sandbox)
      throw new ClassroomError(503, 'NOT_READY', 'The classroom is starting: retry in a moment.');
    return this.sandbox;
  }

  private now(): number {
    return this.sandbox ? this.sandbox.clock() : Date.now();
  }

  subscribe(listener: (traineeId: string | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The sandbox's clock (a test clock in tests). */
  time(): number {
    return this.now();
  }

  emit(traineeId: string | null): void {
    if (traineeId === null) this.rows.clear();
    else this.rows.delete(traineeId);
    for (const l of this.listeners) l(traineeId);
  }

  // ---------------------------------------------------------------- trainer

  /** The trainer's secret, made on the first start; the classroom's database keeps only its hash. */
  trainerToken(): string {
    return this.store.trainerToken(newSecret);
  }

  isTrainer(credential: string | undefined): boolean {
    if (!credential) return false;
    return this.store.isTrainerToken(credential, newSecret);
  }

  private exercise(id: string): Exercise {
    const ex = this.exercises.find((e) => e.id === id);
    if (!ex)
      throw new ClassroomError(
        404,
        'EXERCISE_UNKNOWN',
        `No exercise "${id.slice(0, 64)}": use an id from the list.`,
      );
    return ex;
  }

  private states(): Map<string, { locked: boolean; hintsShown: number }> {
    const map = new Map<string, { locked: boolean; hintsShown: number }>();
    for (const row of this.store.exerciseStates())
      map.set(row.exercise_id, { locked: row.locked === 1, hintsShown: row.hints_shown });
    return map;
  }

  setLocked(exerciseId: string, locked: boolean): void {
    this.exercise(exerciseId);
    this.store.setLocked(exerciseId, locked);
    if (!locked) for (const t of this.byId.values()) this.evaluate(t.id);
    this.emit(null);
  }

  /** Shows the next hint of an exercise to every trainee; answers how many are shown now. */
  revealHint(exerciseId: string): number {
    const ex = this.exercise(exerciseId);
    this.examGate?.refuse('reveal-hint');
    const shown = this.states().get(exerciseId)?.hintsShown ?? 0;
    if (shown >= ex.hints.length)
      throw new ClassroomError(409, 'NO_MORE_HINTS', `Every hint of "${ex.title}" is already shown.`);
    this.store.setHintsShown(exerciseId, shown + 1);
    this.emit(null);
    return shown + 1;
  }

  /**
   * Hints that pick themselves: after `after` refused requests that fit the exercise, the hint for
   * the mistake the trainee's latest refusal shows unlocks for them, costing `cost` points; null: off.
   */
  setAutoHints(exerciseId: string, after: number | null, cost: number): void {
    this.exercise(exerciseId);
    this.store.setAutoHints(exerciseId, after, cost);
    this.autoHintCache = undefined;
    this.emit(null);
  }

  private autoHints(): Map<string, { after: number; cost: number }> {
    this.autoHintCache ??= new Map(this.store.autoHints().map((r) => [r.exercise_id, r]));
    return this.autoHintCache;
  }

  /** The hint text for a mistake on an exercise: the exercise's own, else the diagnosis engine's advice. */
  hintText(ex: Exercise, mistake: MistakeId): string {
    return ex.mistakeHints?.[mistake] ?? mistakeById(mistake).advice;
  }

  private unlockHints(trainee: TraineeRow, record: AttemptRecord): void {
    const mistake = record.mistakeId;
    if (!mistake || this.hintsSuppressed()) return;
    const settings = this.autoHints();
    if (settings.size === 0) return;
    const done = new Set(
      this.store
        .progressOf(trainee.id)
        .filter((p) => p.done_at !== null)
        .map((p) => p.exercise_id),
    );
    const tally = this.tallyOf(trainee.id);
    for (const [i, ex] of this.exercises.entries()) {
      const set = settings.get(ex.id);
      if (!set || done.has(ex.id) || !attemptFits(record, ex.check)) continue;
      const refused = tally.refused[i]!;
      if (refused >= set.after && this.store.unlockHint(trainee.id, ex.id, mistake, this.now(), set.cost))
        this.emit(trainee.id);
    }
  }

  /** Exam mode turns hints off (see exam.ts); none otherwise. */
  private hintsSuppressed(): boolean {
    return this.store.getMeta('hints_off') === '1';
  }

  /** "Skip": the exercise is marked done and assisted (it earns no points). */
  skip(traineeId: string, exerciseId: string): void {
    const ex = this.exercise(exerciseId);
    this.examGate?.refuse('skip');
    if (this.states().get(exerciseId)?.locked)
      throw new ClassroomError(423, 'EXERCISE_LOCKED', `"${ex.title}" is locked by the trainer.`);
    const done = this.store.progressOf(traineeId).find((p) => p.exercise_id === exerciseId)?.done_at;
    if (done != null) throw new ClassroomError(409, 'ALREADY_DONE', `"${ex.title}" is done already.`);
    const at = this.now();
    this.store.markAssisted(traineeId, exerciseId, at);
    this.store.markDone(traineeId, exerciseId, at, 'assisted: skipped');
    this.results.get(traineeId)?.delete(exerciseId);
    this.emit(traineeId);
  }

  /** Points: 10 per exercise done unassisted, less what the hints that unlocked cost. */
  private pointsOf(
    traineeId: string,
    statuses: readonly ExerciseStatus[],
    hints: readonly HintRow[],
  ): number {
    const assisted = this.store.assistedOf(traineeId);
    const earned = statuses.filter((r) => r.state === 'done' && !assisted.has(r.id)).length * 10;
    return earned - hints.reduce((n, h) => n + h.cost, 0);
  }

  resetTrainee(traineeId: string): void {
    if (!this.byId.has(traineeId))
      throw new ClassroomError(404, 'TRAINEE_UNKNOWN', 'No such trainee: reload the trainer page.');
    this.store.resetTrainee(traineeId);
    this.mistakesKept = undefined;
    this.attempts.delete(traineeId);
    this.pending.delete(traineeId);
    this.results.delete(traineeId);
    for (const key of [...this.misses.keys()]) if (key.startsWith(`${traineeId}:`)) this.misses.delete(key);
    this.emit(traineeId);
  }

  /** The classroom's variant seed, made on the first start and kept with its state. */
  private variantSeed(): string {
    let seed = this.store.getMeta('variant_seed');
    if (!seed) {
      seed = newSecret();
      this.store.setMeta('variant_seed', seed);
    }
    return seed;
  }

  /** A trainee's variant of an exercise (undefined when the exercise declares none). */
  variantOf(traineeId: string, ex: Exercise): Variant | undefined {
    if (!ex.variants) return undefined;
    const key = `${traineeId}:${ex.id}`;
    if (!this.variants.has(key)) this.variants.set(key, drawVariant(this.variantSeed(), traineeId, ex));
    return this.variants.get(key);
  }

  /** What a trainee's variant asks for, in words, and the answer that passes it (the trainer's view). */
  private variantText(traineeId: string, ex: Exercise): VariantView | null {
    const v = this.variantOf(traineeId, ex);
    if (!v) return null;
    const currency = v.currency ?? (ex.check.kind === 'remaining' ? ex.check.currency : undefined);
    const money = v.amount ? `${v.amount}${currency ? ` ${currency}` : ''}` : null;
    if (v.capture)
      return {
        exerciseId: ex.id,
        values: `a capture broken by ${mistakeLabel(v.capture.mistake)}`,
        expected: `${mistakeLabel(v.capture.mistake)} (${v.capture.mistake}), then a correct ${ex.check.kind === 'diagnose-then-fix' ? ex.check.then.operation : ''}`,
      };
    if (ex.check.kind === 'remaining')
      return {
        exerciseId: ex.id,
        values: `remainder ${money}`,
        expected: `a preauth, a partial capture and a return leaving exactly ${money} captured`,
      };
    if (ex.check.kind === 'approved')
      return {
        exerciseId: ex.id,
        values: `amount ${money}`,
        expected: `an approved ${ex.check.operation} of ${money}`,
      };
    return null;
  }

  private traineeOrThrow(traineeId: string): TraineeRow {
    const t = this.byId.get(traineeId);
    if (!t) throw new ClassroomError(404, 'TRAINEE_UNKNOWN', 'No such trainee: reload the trainer page.');
    return t;
  }

  /** The key the sandbox verifies a trainee's RSA signatures with now, and the one they joined with. */
  keyState(traineeId: string): TraineeKeyState {
    const t = this.traineeOrThrow(traineeId);
    const state = traineeKeyState(this.handle, t.login);
    if (!state) throw new ClassroomError(404, 'TRAINEE_UNKNOWN', 'This trainee has no merchant any more.');
    return state;
  }

  /**
   * The trainer's "Restore the key <trainee> joined with": the replaced key is remembered, so that
   * requests the trainee's browser still signs with it are refused without being charged to them.
   */
  restoreKey(traineeId: string): TraineeKeyState & { restored: boolean } {
    const t = this.traineeOrThrow(traineeId);
    const before = this.keyState(traineeId);
    const merchant = this.merchantOf(t);
    if (before.joinedKeyInUse || !merchant) return { ...before, restored: false };
    this.store.recordKeyRestore(t.id, this.now(), merchant.publicKeyPem, merchant.keyFingerprint);
    this.replacedKeys.delete(t.id);
    this.handle.store.merchantKeys.delete(t.login);
    this.handle.merchants.restoreConfigured(t.login);
    this.emit(t.id);
    return { ...this.keyState(traineeId), restored: true };
  }

  private replacedKeysOf(traineeId: string): string[] {
    let list = this.replacedKeys.get(traineeId);
    if (!list) {
      list = this.store.keyRestoresOf(traineeId).map((r) => r.replaced_pem);
      this.replacedKeys.set(traineeId, list);
    }
    return list;
  }

  // ---------------------------------------------------------------- trainees

  /** Creates a trainee with their own sandbox merchant, registering the public key their browser made. */
  async join(
    name: string,
    publicKeyPem: string,
  ): Promise<{ session: string; trainee: TraineeRow; merchant: Merchant }> {
    if (this.byId.size >= this.limits.maxTrainees)
      throw new ClassroomError(
        409,
        'ROOM_FULL',
        `The room is full (${this.limits.maxTrainees} trainees): ask the trainer to raise CLASSROOM_MAX_TRAINEES.`,
      );
    const taken = [...this.byId.values()].some((t) => t.name.toLowerCase() === name.toLowerCase());
    if (taken)
      throw new ClassroomError(409, 'NAME_TAKEN', `"${name}" has already joined: pick another display name.`);
    let merchant: Merchant;
    try {
      merchant = await this.handle.createMerchant({ loginPrefix: 'trainee', publicKeyPem });
    } catch (e) {
      if (e instanceof ClassroomError) throw e;
      throw new ClassroomError(
        400,
        'PUBLIC_KEY_INVALID',
        `The public key cannot be used (${errorText(e)}): reload the join page to make a new key pair.`,
      );
    }
    const session = newSecret();
    const trainee: TraineeRow = {
      id: randomUUID(),
      name,
      session_hash: sha256(session),
      login: merchant.login,
      joined_at: this.now(),
    };
    this.store.insertTrainee(trainee);
    this.remember(trainee);
    this.emit(trainee.id);
    return { session, trainee, merchant };
  }

  traineeBySession(session: string | undefined): TraineeRow | undefined {
    if (!session) return undefined;
    // Each request asks several times (its access rules, the held budget): hashed once per session.
    let hash = this.sessionHashes.get(session);
    if (hash === undefined) {
      if (this.sessionHashes.size >= 4 * this.limits.maxTrainees) this.sessionHashes.clear();
      hash = sha256(session);
      this.sessionHashes.set(session, hash);
    }
    return this.bySession.get(hash);
  }

  /**
   * Ends a trainee's session ("Leave this classroom"): the cookie stops working here at once; their
   * row, merchant and results stay for the trainer's table.
   */
  endSession(session: string | undefined): TraineeRow | undefined {
    const t = this.traineeBySession(session);
    if (!t) return undefined;
    this.bySession.delete(t.session_hash);
    this.store.endSession(t.id);
    return t;
  }

  merchantOf(trainee: TraineeRow): Merchant | undefined {
    return this.handle.merchants.byLogin(trainee.login);
  }

  /**
   * Admits one request of a trainee (a token bucket per trainee) and checks their data bound;
   * throws a 429 or 507 ClassroomError otherwise.
   */
  admit(trainee: TraineeRow): void {
    const now = Date.now();
    const b = this.buckets.get(trainee.id) ?? { tokens: this.limits.rateBurst, at: now };
    b.tokens = Math.min(this.limits.rateBurst, b.tokens + ((now - b.at) / 1000) * this.limits.ratePerSecond);
    b.at = now;
    if (b.tokens < 1) {
      this.buckets.set(trainee.id, b);
      throw new ClassroomError(
        429,
        'RATE_LIMITED',
        `Too many requests: a trainee may send ${this.limits.ratePerSecond} per second. Wait a moment and send again.`,
      );
    }
    b.tokens -= 1;
    this.buckets.set(trainee.id, b);
    let orders = this.ordersBound.get(trainee.id);
    if (!orders || orders.counted + orders.since >= this.limits.ordersPerTrainee) {
      orders = { counted: this.handle.store.orders.count(trainee.login), since: 0 };
      this.ordersBound.set(trainee.id, orders);
    }
    orders.since += 1;
    if (orders.counted >= this.limits.ordersPerTrainee)
      throw new ClassroomError(
        507,
        'TRAINEE_DATA_FULL',
        `Your sandbox merchant holds ${this.limits.ordersPerTrainee} orders, the classroom's bound: ask the trainer.`,
      );
  }

  answer(traineeId: string, exerciseId: string, choice: string): void {
    const ex = this.exercise(exerciseId);
    if (ex.check.kind !== 'diagnose-then-fix')
      throw new ClassroomError(400, 'NOT_A_QUESTION', `"${ex.title}" has no question to answer.`);
    if (!(ex.check.choices as readonly string[]).includes(choice))
      throw new ClassroomError(400, 'CHOICE_UNKNOWN', `Pick one of: ${ex.check.choices.join(', ')}.`);
    if (this.states().get(exerciseId)?.locked)
      throw new ClassroomError(423, 'EXERCISE_LOCKED', `"${ex.title}" is locked by the trainer.`);
    this.examGate?.refuse('answer');
    this.store.recordAnswer(traineeId, exerciseId, choice, this.now(), this.store.lastAttemptId(traineeId));
    this.evaluate(traineeId);
    this.emit(traineeId);
  }

  // ---------------------------------------------------------------- attempts and checks

  private attemptsOf(traineeId: string): AttemptRecord[] {
    return this.tallyOf(traineeId).list;
  }

  private tallyOf(traineeId: string): Tally {
    let tally = this.attempts.get(traineeId);
    if (!tally) {
      tally = this.count(this.store.attemptsOf(traineeId, this.limits.attemptsKept));
      this.attempts.set(traineeId, tally);
    }
    return tally;
  }

  /** Counts a list of attempts from scratch (when read from the store, or after a cause changed). */
  private count(list: AttemptRecord[]): Tally {
    const n = this.exercises.length;
    const tally: Tally = {
      list,
      fits: Array(n).fill(0),
      refused: Array(n).fill(0),
      first: Array(n).fill(null),
    };
    for (const a of list) this.countIn(tally, a, 1);
    return tally;
  }

  private countIn(tally: Tally, a: AttemptRecord, by: 1 | -1): void {
    this.exercises.forEach((ex, i) => {
      if (!attemptFits(a, ex.check)) return;
      tally.fits[i]! += by;
      if (!a.accepted) tally.refused[i]! += by;
      if (by === 1) tally.first[i] ??= a.at;
      // The oldest went: the next one that fits is found when asked for.
      else tally.first[i] = tally.fits[i] === 0 ? null : undefined;
    });
  }

  /** When a trainee's first kept attempt at exercise `i` was (null: none). */
  private firstAt(tally: Tally, i: number): number | null {
    let first = tally.first[i];
    if (first === undefined) {
      const check = this.exercises[i]!.check;
      first = tally.list.find((a) => attemptFits(a, check))?.at ?? null;
      tally.first[i] = first;
    }
    return first;
  }

  /** Adds an attempt to a trainee's kept ones; the oldest beyond the bound go. */
  private keep(traineeId: string, record: AttemptRecord): void {
    const tally = this.tallyOf(traineeId);
    const list = tally.list;
    // A list read from the store just now holds its own copy of this attempt: keep `record`, which
    // the diagnosis completes later, so the trainer's last refused request shows its mistake.
    if (list[list.length - 1]?.id === record.id) list[list.length - 1] = record;
    else {
      list.push(record);
      this.countIn(tally, record, 1);
    }
    const over = list.length - this.limits.attemptsKept;
    if (over > 0) for (const gone of list.splice(0, over)) this.countIn(tally, gone, -1);
  }

  /** The sandbox's `onAttempt` hook: records a trainee's request and re-evaluates their checks. */
  onAttempt(a: SandboxAttempt): void {
    const trainee = a.merchant ? this.byLogin.get(a.merchant.login) : undefined;
    if (!trainee) return;
    const body = a.reply.body;
    const type = typeof body.type === 'string' ? body.type : '';
    const errorCode = typeof body['error-code'] === 'string' ? body['error-code'] : null;
    const accepted = a.authenticated && a.reply.code === 200 && !/error/.test(type) && errorCode === null;
    const rawOrder = body['paynet-order-id'] ?? body.orderid ?? body['order-id'];
    const orderId = typeof rawOrder === 'string' && /^\d{1,15}$/.test(rawOrder) ? Number(rawOrder) : null;
    const record = this.store.insertAttempt(
      trainee.id,
      {
        at: a.at,
        opPath: a.opPath ?? null,
        scheme: a.scheme ?? null,
        authenticated: a.authenticated,
        accepted,
        orderId,
        httpStatus: a.reply.code,
        errorCode,
        errorMessage: typeof body['error-message'] === 'string' ? body['error-message'].slice(0, 500) : null,
        mistakeId: null,
      },
      this.limits.attemptsKept,
    );
    const tds = requestedThreeDs(a.bodyText);
    if (tds !== null) {
      record.tds = tds;
      this.store.setAttemptTds(record.id, tds);
    }
    this.keep(trainee.id, record);
    if (!accepted && a.authenticated === false && errorCode !== null) {
      // Diagnosed after the answer went: the request's bytes live only in this closure.
      const crypto = this.handle.crypto;
      const replaced = this.replacedKeysOf(trainee.id);
      const job = (async () => {
        if (replaced.length > 0 && (await signedWithReplacedKey(a, replaced, crypto))) {
          record.cause = 'trainer-restore';
          this.store.setAttemptCause(record.id, 'trainer-restore');
          // No attempt of the trainee's any more: counted again without it.
          const tally = this.attempts.get(trainee.id);
          if (tally) this.attempts.set(trainee.id, this.count(tally.list));
          this.emit(trainee.id);
          return;
        }
        const mistake = await mistakeOfAttempt(a, crypto);
        if (!mistake) return;
        record.mistakeId = mistake;
        this.store.setAttemptMistake(record.id, mistake);
        this.mistakesKept = undefined;
        this.unlockHints(trainee, record);
        this.emit(trainee.id);
      })();
      const tracked = job.catch(() => undefined).finally(() => this.diagnosing.delete(tracked));
      this.diagnosing.add(tracked);
    }
    if (accepted) this.evaluate(trainee.id, a.opPath);
    this.emit(trainee.id);
  }

  /** Waits for the diagnoses under way (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.diagnosing]);
  }

  private checkResult(trainee: TraineeRow, ex: Exercise, answer: Answer | undefined): CheckResult {
    const store = this.handle.store;
    const v = this.variantOf(trainee.id, ex);
    let check = ex.check;
    if (v?.amount && check.kind === 'remaining')
      check = { ...check, amount: v.amount, currency: v.currency ?? check.currency };
    const minor = v?.amount ? Math.round(Number(v.amount) * 100) : undefined;
    return evaluateCheck(check, {
      variantAmount:
        minor !== undefined && check.kind === 'approved' ? { minor, currency: v?.currency } : undefined,
      attempts: this.attemptsOf(trainee.id),
      order: (id) => {
        const o = store.orders.get(id);
        return o && o.merchant === trainee.login ? o : undefined;
      },
      requestsOf: (id) => store.requests.of(id),
      answer,
      confirmedCause: v?.capture ? v.capture.mistake : this.causes.get(ex.id),
      settledMisses: this.missesOf(trainee.id, ex.id),
    });
  }

  private missesOf(traineeId: string, exerciseId: string): Set<number> {
    const key = `${traineeId}:${exerciseId}`;
    let set = this.misses.get(key);
    if (!set) {
      set = new Set();
      this.misses.set(key, set);
    }
    return set;
  }

  /**
   * Evaluates a trainee's open exercises (with `op`, only those that request can change: the ones
   * on that operation, and those waiting for a final status); a pass is kept for good.
   */
  evaluate(traineeId: string, op?: string): void {
    const trainee = this.byId.get(traineeId);
    if (!trainee || !this.sandbox || this.examGate?.frozen()) return;
    const states = this.states();
    const progress = new Map(this.store.progressOf(traineeId).map((p) => [p.exercise_id, p]));
    let results = this.results.get(traineeId);
    if (!results) {
      results = new Map();
      this.results.set(traineeId, results);
    }
    let waiting = false;
    let changed = false;
    for (const ex of this.exercises) {
      const p = progress.get(ex.id);
      if (p?.done_at != null || states.get(ex.id)?.locked) continue;
      const last = results.get(ex.id);
      if (op !== undefined && last && last.state !== 'pending' && !checkOperations(ex.check).includes(op))
        continue;
      const r = this.checkResult(trainee, ex, answerOf(p));
      results.set(ex.id, r);
      if (r.state === 'pending') waiting = true;
      if (r.state === 'done') {
        this.store.markDone(traineeId, ex.id, this.now(), r.detail);
        changed = true;
      }
    }
    for (const r of results.values()) if (r.state === 'pending') waiting = true;
    if (waiting) this.pending.add(traineeId);
    else this.pending.delete(traineeId);
    if (changed) this.emit(traineeId);
  }

  private sweep(): void {
    if (this.pending.size === 0 || !this.sandbox) return;
    this.sandbox.finalizeDue();
    for (const id of [...this.pending]) this.evaluate(id);
  }

  // ---------------------------------------------------------------- views

  private statuses(trainee: TraineeRow): ExerciseStatus[] {
    const states = this.states();
    const progress = new Map(this.store.progressOf(trainee.id).map((p) => [p.exercise_id, p]));
    const tally = this.tallyOf(trainee.id);
    return this.exercises.map((ex, i) => {
      const p = progress.get(ex.id);
      const answers = p?.answers ?? 0;
      const startedAt = Math.min(this.firstAt(tally, i) ?? Infinity, p?.answered_at ?? Infinity);
      const doneAt = p?.done_at ?? null;
      const base = {
        id: ex.id,
        attempts: tally.fits[i]! + answers,
        startedAt: Number.isFinite(startedAt) ? startedAt : null,
        doneAt,
      };
      if (doneAt !== null) return { ...base, state: 'done', detail: p?.detail ?? 'done' };
      if (states.get(ex.id)?.locked) return { ...base, state: 'locked', detail: 'locked by the trainer' };
      const r = this.cachedResult(trainee, ex, p);
      return { ...base, state: r.state, detail: r.detail };
    });
  }

  /** The last verdict, evaluated once when there is none yet (after a start, an unlock). */
  private cachedResult(trainee: TraineeRow, ex: Exercise, p: ProgressRow | undefined): CheckResult {
    const known = this.results.get(trainee.id)?.get(ex.id);
    // A pending verdict may have settled since (the sandbox finalises on its own clock).
    if (known && known.state !== 'pending') return known;
    // After an exam nothing is graded: a verdict still pending stays as it was.
    if (this.examGate?.frozen()) return known ?? { state: 'open', detail: 'the exam is over' };
    if (!this.sandbox) return { state: 'open', detail: '' };
    const r = this.checkResult(trainee, ex, answerOf(p));
    let results = this.results.get(trainee.id);
    if (!results) {
      results = new Map();
      this.results.set(trainee.id, results);
    }
    results.set(ex.id, r);
    if (r.state === 'pending') this.pending.add(trainee.id);
    return r;
  }

  private hintRows(traineeId?: string): HintRow[] {
    return this.store
      .hintsUnlocked()
      .filter((h) => traineeId === undefined || h.trainee_id === traineeId)
      .map((h) => ({
        traineeId: h.trainee_id,
        exerciseId: h.exercise_id,
        mistakeId: h.mistake_id as MistakeId,
        label: mistakeLabel(h.mistake_id),
        at: h.at,
        cost: h.cost,
      }));
  }

  traineeView(trainee: TraineeRow): TraineeView {
    const states = this.states();
    const own = this.hintRows(trainee.id);
    const assisted = this.store.assistedOf(trainee.id);
    const auto = this.autoHints();
    const merchant = this.merchantOf(trainee);
    const answers = new Map(this.store.progressOf(trainee.id).map((p) => [p.exercise_id, p.answer]));
    const statuses = this.statuses(trainee);
    return {
      points: this.pointsOf(trainee.id, statuses, own),
      trainee: {
        id: trainee.id,
        name: trainee.name,
        login: trainee.login,
        endpointId: merchant?.endpointIds[0] ?? '',
        endpointGroupId: merchant?.endpointGroupIds[0] ?? '',
      },
      exercises: this.exercises.map((ex, i) => {
        const st = states.get(ex.id);
        const quiz = ex.check.kind === 'diagnose-then-fix' ? ex.check : null;
        const v = this.variantOf(trainee.id, ex);
        const fallback = ex.check.kind === 'remaining' ? ex.check : {};
        return {
          ...statuses[i]!,
          title: fillText(ex.title, v, fallback),
          goal: fillText(ex.goal, v, fallback),
          hints: this.hintsSuppressed() ? [] : ex.hints.slice(0, st?.hintsShown ?? 0),
          hintsTotal: ex.hints.length,
          operation: ex.operation ?? null,
          locked: st?.locked ?? false,
          choices: quiz ? quiz.choices.map((id) => ({ id, label: mistakeLabel(id) })) : null,
          capture: quiz ? (v?.capture?.text ?? quiz.capture) : null,
          ownHints: own
            .filter((h) => h.exerciseId === ex.id && !this.hintsSuppressed())
            .map((h) => ({
              mistakeId: h.mistakeId,
              label: h.label,
              text: this.hintText(ex, h.mistakeId),
              cost: h.cost,
            })),
          autoHintAfter: this.hintsSuppressed() ? null : (auto.get(ex.id)?.after ?? null),
          assisted: assisted.has(ex.id),
          answer: answers.get(ex.id) ?? null,
        };
      }),
    };
  }

  /** Per trainee, the wrong causes they named (a choice other than the question's confirmed cause). */
  private wrongChoices(): Map<string, WrongChoice[]> {
    const byTrainee = new Map<string, WrongChoice[]>();
    for (const row of this.store.answerCounts()) {
      if (row.choice === this.causes.get(row.exercise_id)) continue;
      const list = byTrainee.get(row.trainee_id) ?? [];
      list.push({
        exerciseId: row.exercise_id,
        choice: row.choice,
        label: mistakeLabel(row.choice),
        count: row.n,
      });
      byTrainee.set(row.trainee_id, list);
    }
    return byTrainee;
  }

  /**
   * The trainer's view. A room of 1,000 sends 1,000 requests a second: each trainee's row is kept
   * and made again only after a change of theirs (or while a verdict waits for a final status).
   */
  trainerSnapshot(): TrainerSnapshot {
    const states = this.states();
    const auto = this.autoHints();
    let wrong: Map<string, WrongChoice[]> | undefined;
    let hints: HintRow[] | undefined;
    const trainees = [...this.byId.values()].map((t) => {
      let row = this.rows.get(t.id);
      if (!row || this.pending.has(t.id)) {
        row = this.traineeRow(t, (wrong ??= this.wrongChoices()), (hints ??= this.hintRows()));
        this.rows.set(t.id, row);
      }
      return row;
    });
    this.mistakesKept ??= this.store.mistakeCounts().map((m) => ({
      mistakeId: m.mistake_id,
      label: mistakeLabel(m.mistake_id),
      count: m.n,
    }));
    return {
      exercises: this.exercises.map((ex) => ({
        id: ex.id,
        title: ex.title,
        locked: states.get(ex.id)?.locked ?? false,
        hintsShown: states.get(ex.id)?.hintsShown ?? 0,
        hintsTotal: ex.hints.length,
        autoHints: auto.get(ex.id) ?? null,
      })),
      trainees,
      mistakes: this.mistakesKept,
      at: this.now(),
    };
  }

  private traineeRow(
    t: TraineeRow,
    wrong: Map<string, WrongChoice[]>,
    hints: readonly HintRow[],
  ): TrainerSnapshot['trainees'][number] {
    const results = this.statuses(t);
    const own = hints.filter((h) => h.traineeId === t.id);
    const list = this.attemptsOf(t.id);
    let refused: AttemptRecord | undefined;
    for (let i = list.length - 1; i >= 0 && !refused; i--) if (!list[i]!.accepted) refused = list[i];
    return {
      id: t.id,
      name: t.name,
      login: t.login,
      joinedAt: t.joined_at,
      done: results.filter((r) => r.state === 'done').length,
      results,
      lastRefused: refused
        ? {
            at: refused.at,
            operation: refused.opPath,
            httpStatus: refused.httpStatus,
            errorCode: refused.errorCode,
            errorMessage: refused.errorMessage,
            mistakeId: refused.mistakeId,
            mistakeLabel: refused.mistakeId === null ? null : mistakeLabel(refused.mistakeId),
            cause: refused.cause ?? null,
          }
        : null,
      wrongChoices: wrong.get(t.id) ?? [],
      variants: this.exercises.flatMap((ex) => this.variantText(t.id, ex) ?? []),
      hints: own.map((h) => ({
        exerciseId: h.exerciseId,
        mistakeId: h.mistakeId,
        label: h.label,
        cost: h.cost,
      })),
      assisted: [...this.store.assistedOf(t.id)],
      points: this.pointsOf(t.id, results, own),
    };
  }
}
