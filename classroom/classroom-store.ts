import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { ownerOnly } from '../sandbox/secure-files.ts';
import { limitClause, openDatabase, statementCache } from '../sandbox/sqlite.ts';
import type { Scheme } from '../src/core/index.ts';
import type { MistakeId } from '../src/diagnose/index.ts';
import type { AttemptCause, AttemptRecord } from './checks.ts';
import { migrate } from './store-migrations.ts';

export interface TraineeRow {
  id: string;
  name: string;
  /** SHA-256 (hex) of the session credential; the credential itself is only in the trainee's cookie. */
  session_hash: string;
  login: string;
  joined_at: number;
}

export interface ProgressRow {
  trainee_id: string;
  exercise_id: string;
  done_at: number | null;
  detail: string | null;
  answer: string | null;
  answered_at: number | null;
  answers: number;
  /** The trainee's last attempt id when they answered: only later requests count as the fix. */
  answered_after: number;
}

export interface HintUnlocked {
  trainee_id: string;
  exercise_id: string;
  mistake_id: string;
  at: number;
  cost: number;
}

export interface AnswerCount {
  trainee_id: string;
  exercise_id: string;
  choice: string;
  n: number;
}

interface AttemptRow {
  id: number;
  trainee_id: string;
  at: number;
  op_path: string | null;
  scheme: string | null;
  authenticated: number;
  accepted: number;
  order_id: number | null;
  http_status: number;
  error_code: string | null;
  error_message: string | null;
  mistake_id: string | null;
  tds?: string | null;
  cause?: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS trainees (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, session_hash TEXT NOT NULL UNIQUE, login TEXT NOT NULL UNIQUE, joined_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT, trainee_id TEXT NOT NULL, at INTEGER NOT NULL, op_path TEXT, scheme TEXT,
  authenticated INTEGER NOT NULL, accepted INTEGER NOT NULL, order_id INTEGER, http_status INTEGER NOT NULL,
  error_code TEXT, error_message TEXT, mistake_id TEXT
);
CREATE INDEX IF NOT EXISTS attempts_trainee ON attempts (trainee_id, id);
CREATE TABLE IF NOT EXISTS progress (
  trainee_id TEXT NOT NULL, exercise_id TEXT NOT NULL, done_at INTEGER, detail TEXT, answer TEXT, answered_at INTEGER,
  answers INTEGER NOT NULL DEFAULT 0, answered_after INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (trainee_id, exercise_id)
);
CREATE TABLE IF NOT EXISTS exercise_state (exercise_id TEXT PRIMARY KEY, locked INTEGER NOT NULL DEFAULT 0, hints_shown INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS answer_choices (
  trainee_id TEXT NOT NULL, exercise_id TEXT NOT NULL, choice TEXT NOT NULL, n INTEGER NOT NULL, first_at INTEGER NOT NULL,
  PRIMARY KEY (trainee_id, exercise_id, choice)
);
`;

function toRecord(r: AttemptRow): AttemptRecord {
  return {
    id: r.id,
    at: r.at,
    opPath: r.op_path,
    scheme: r.scheme as Scheme | null,
    authenticated: r.authenticated === 1,
    accepted: r.accepted === 1,
    orderId: r.order_id,
    httpStatus: r.http_status,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    mistakeId: r.mistake_id as MistakeId | null,
    tds: r.tds === '2' || r.tds === '1.0.2' ? r.tds : null,
    cause: r.cause === 'trainer-restore' ? r.cause : null,
  };
}

/** The classroom's own persistent state (trainees, attempts, progress, the trainer's settings), beside the sandbox's. */
export class ClassroomStore {
  private readonly db: Database.Database;
  private readonly stmt: (sql: string) => Database.Statement;
  /** The trainer token of this run, and its SHA-256 (hex) as the database keeps it. */
  private trainer: { token: string; hash: Buffer } | undefined;
  /**
   * Attempts not written yet: a room of 1,000 sends 1,000 a second, written in one transaction per
   * turn of the event loop (`flush`) rather than one each. Every read of the attempts flushes first.
   */
  private readonly unwritten = new Map<number, { traineeId: string; record: AttemptRecord; keep: number }>();
  private flushing: NodeJS.Immediate | undefined;
  private lastAttempt: number | undefined;
  // Reads the room makes on every change of a trainee, kept until a write of this store changes them.
  private readonly cache = {
    meta: new Map<string, string | undefined>(),
    progress: new Map<string, ProgressRow[]>(),
    assisted: new Map<string, ReadonlySet<string>>(),
    exerciseStates: undefined as
      Array<{ exercise_id: string; locked: number; hints_shown: number }> | undefined,
    hints: undefined as HintUnlocked[] | undefined,
    answers: undefined as AnswerCount[] | undefined,
  };

  constructor(private readonly dbPath: string) {
    this.db = openDatabase(dbPath);
    this.stmt = statementCache(this.db);
    this.db.exec(SCHEMA);
    migrate(this.db);
  }

  close(): void {
    if (!this.db.open) return;
    this.flush();
    this.db.close();
  }

  /** Writes the attempts not written yet, in one transaction. */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.unwritten.size === 0) return;
    const queued = [...this.unwritten.values()];
    this.unwritten.clear();
    this.db.transaction(() => {
      for (const { traineeId, record: a, keep } of queued) {
        this.stmt(
          `INSERT INTO attempts (id, trainee_id, at, op_path, scheme, authenticated, accepted, order_id, http_status, error_code, error_message, mistake_id, tds, cause)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          a.id,
          traineeId,
          a.at,
          a.opPath,
          a.scheme,
          a.authenticated ? 1 : 0,
          a.accepted ? 1 : 0,
          a.orderId,
          a.httpStatus,
          a.errorCode,
          a.errorMessage,
          a.cause ? null : a.mistakeId,
          a.tds ?? null,
          a.cause ?? null,
        );
        // A trainee's data is bounded: the oldest attempts beyond `keep` go.
        if (a.id % 50 === 0)
          this.stmt(
            `DELETE FROM attempts WHERE trainee_id = ? AND id <= (SELECT id FROM attempts WHERE trainee_id = ? ORDER BY id DESC ${limitClause(1, keep)})`,
          ).run(traineeId, traineeId);
      }
    })();
  }

  /**
   * The trainer's token. The database keeps only its SHA-256 (`meta.trainer_token_sha256`); the
   * token itself, which the start-up message prints, is in `trainer-token` beside it (0600). An
   * older file's token in clear is moved there (the trainer's address keeps working) and wiped.
   */
  trainerToken(make: () => string): string {
    if (this.trainer) return this.trainer.token;
    const sha = (t: string) => createHash('sha256').update(t).digest();
    if (this.dbPath === ':memory:') {
      const token = make();
      this.trainer = { token, hash: sha(token) };
      return token;
    }
    const file = path.join(path.dirname(this.dbPath), 'trainer-token');
    let kept: string | undefined;
    try {
      kept = readFileSync(file, 'utf8').trim() || undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const clear = this.getMeta('trainer_token');
    const stored = this.getMeta('trainer_token_sha256');
    let token: string;
    if (clear !== undefined) token = clear;
    else if (kept !== undefined && (stored === undefined || sha(kept).toString('hex') === stored))
      token = kept;
    else token = make();
    if (token !== kept) writeFileSync(file, `${token}\n`, { mode: 0o600 });
    ownerOnly(file);
    const hash = sha(token);
    if (clear !== undefined || stored !== hash.toString('hex')) {
      this.db.pragma('secure_delete = ON');
      this.db.transaction(() => {
        this.setMeta('trainer_token_sha256', hash.toString('hex'));
        this.stmt("DELETE FROM meta WHERE key = 'trainer_token'").run();
        this.cache.meta.delete('trainer_token');
      })();
      this.db.pragma('secure_delete = OFF');
      try {
        this.db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // A reader at this moment: a later checkpoint empties the log.
      }
    }
    this.trainer = { token, hash };
    return token;
  }

  /** Whether `credential` is the trainer's token: SHA-256 compared in constant time. */
  isTrainerToken(credential: string, make: () => string): boolean {
    this.trainerToken(make);
    const given = createHash('sha256').update(credential).digest();
    return timingSafeEqual(given, this.trainer!.hash);
  }

  getMeta(key: string): string | undefined {
    if (this.cache.meta.has(key)) return this.cache.meta.get(key);
    const value = (
      this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined
    )?.value;
    this.cache.meta.set(key, value);
    return value;
  }

  setMeta(key: string, value: string): void {
    this.cache.meta.delete(key);
    this.stmt(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  /** The trainee whose sandbox merchant has this login. */
  traineeIdOfLogin(login: string): string | undefined {
    return this.stmt('SELECT id FROM trainees WHERE login = ?').pluck().get(login) as string | undefined;
  }

  trainee(id: string): TraineeRow | undefined {
    return this.stmt('SELECT * FROM trainees WHERE id = ?').get(id) as TraineeRow | undefined;
  }

  trainees(): TraineeRow[] {
    return this.stmt('SELECT * FROM trainees ORDER BY joined_at, id').all() as TraineeRow[];
  }

  /** Ends a session for good: the stored hash is replaced by one no cookie can match. */
  endSession(traineeId: string): void {
    this.db.prepare('UPDATE trainees SET session_hash = ? WHERE id = ?').run(`ended:${traineeId}`, traineeId);
  }

  insertTrainee(row: TraineeRow): void {
    this.stmt(
      'INSERT INTO trainees (id, name, session_hash, login, joined_at) VALUES (@id, @name, @session_hash, @login, @joined_at)',
    ).run(row);
  }

  /** Records an attempt (written with the next flush); its id is given at once. */
  insertAttempt(traineeId: string, a: Omit<AttemptRecord, 'id'>, keep: number): AttemptRecord {
    this.lastAttempt ??= Number(
      this.stmt(
        "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'attempts'), 0), COALESCE((SELECT MAX(id) FROM attempts), 0))",
      )
        .pluck()
        .get(),
    );
    const record: AttemptRecord = { id: ++this.lastAttempt, ...a };
    this.unwritten.set(record.id, { traineeId, record, keep });
    this.flushing ??= setImmediate(() => this.flush());
    return record;
  }

  /** The 3-D Secure version the request asked for (classroom/attempt-fit.ts). */
  setAttemptTds(id: number, tds: '2' | '1.0.2'): void {
    const queued = this.unwritten.get(id);
    if (queued) queued.record.tds = tds;
    else this.stmt('UPDATE attempts SET tds = ? WHERE id = ?').run(tds, id);
  }

  /** A refusal that is not the trainee's mistake: its cause, and no mistake charged. */
  setAttemptCause(id: number, cause: AttemptCause): void {
    const queued = this.unwritten.get(id);
    if (queued) queued.record.cause = cause;
    else this.stmt('UPDATE attempts SET cause = ?, mistake_id = NULL WHERE id = ?').run(cause, id);
  }

  recordKeyRestore(traineeId: string, at: number, replacedPem: string, replacedFingerprint: string): void {
    this.stmt(
      'INSERT INTO key_restores (trainee_id, at, replaced_pem, replaced_fingerprint) VALUES (?, ?, ?, ?)',
    ).run(traineeId, at, replacedPem, replacedFingerprint);
  }

  /** The public keys the trainer's restores replaced for a trainee, newest first (a few at most). */
  keyRestoresOf(
    traineeId: string,
  ): Array<{ at: number; replaced_pem: string; replaced_fingerprint: string }> {
    return this.stmt(
      'SELECT at, replaced_pem, replaced_fingerprint FROM key_restores WHERE trainee_id = ? ORDER BY id DESC LIMIT 5',
    ).all(traineeId) as Array<{ at: number; replaced_pem: string; replaced_fingerprint: string }>;
  }

  // Hints that pick themselves and skipped exercises (classroom/store-migrations.ts)

  autoHints(): Array<{ exercise_id: string; after: number; cost: number }> {
    return this.stmt('SELECT * FROM auto_hints').all() as Array<{
      exercise_id: string;
      after: number;
      cost: number;
    }>;
  }

  setAutoHints(exerciseId: string, after: number | null, cost: number): void {
    if (after === null) this.stmt('DELETE FROM auto_hints WHERE exercise_id = ?').run(exerciseId);
    else
      this.stmt(
        `INSERT INTO auto_hints (exercise_id, after, cost) VALUES (?, ?, ?)
         ON CONFLICT (exercise_id) DO UPDATE SET after = excluded.after, cost = excluded.cost`,
      ).run(exerciseId, after, cost);
  }

  /** True when this hint was not unlocked yet (and is now). */
  unlockHint(traineeId: string, exerciseId: string, mistakeId: string, at: number, cost: number): boolean {
    const unlocked =
      this.stmt(
        'INSERT OR IGNORE INTO hints_unlocked (trainee_id, exercise_id, mistake_id, at, cost) VALUES (?, ?, ?, ?, ?)',
      ).run(traineeId, exerciseId, mistakeId, at, cost).changes > 0;
    if (unlocked) this.cache.hints = undefined;
    return unlocked;
  }

  hintsUnlocked(): readonly HintUnlocked[] {
    this.cache.hints ??= this.stmt('SELECT * FROM hints_unlocked ORDER BY at, rowid').all() as HintUnlocked[];
    return this.cache.hints;
  }

  markAssisted(traineeId: string, exerciseId: string, at: number): void {
    this.cache.assisted.delete(traineeId);
    this.stmt('INSERT OR IGNORE INTO assisted (trainee_id, exercise_id, at) VALUES (?, ?, ?)').run(
      traineeId,
      exerciseId,
      at,
    );
  }

  assistedOf(traineeId: string): ReadonlySet<string> {
    let set = this.cache.assisted.get(traineeId);
    if (!set) {
      const rows = this.stmt('SELECT exercise_id FROM assisted WHERE trainee_id = ?').all(
        traineeId,
      ) as Array<{
        exercise_id: string;
      }>;
      set = new Set(rows.map((r) => r.exercise_id));
      this.cache.assisted.set(traineeId, set);
    }
    return set;
  }

  setAttemptMistake(id: number, mistake: MistakeId): void {
    const queued = this.unwritten.get(id);
    if (queued) queued.record.mistakeId = queued.record.cause ? null : mistake;
    else this.stmt('UPDATE attempts SET mistake_id = ? WHERE id = ? AND cause IS NULL').run(mistake, id);
  }

  attemptsOf(traineeId: string, keep: number): AttemptRecord[] {
    this.flush();
    const rows = this.stmt(
      `SELECT * FROM attempts WHERE trainee_id = ? ORDER BY id DESC ${limitClause(keep)}`,
    ).all(traineeId) as AttemptRow[];
    return rows.reverse().map(toRecord);
  }

  /** How often each mistake id was diagnosed in the room's refused requests. */
  lastAttemptId(traineeId: string): number {
    this.flush();
    const row = this.stmt('SELECT MAX(id) AS id FROM attempts WHERE trainee_id = ?').get(traineeId) as {
      id: number | null;
    };
    return row.id ?? 0;
  }

  mistakeCounts(): Array<{ mistake_id: string; n: number }> {
    this.flush();
    return this.stmt(
      'SELECT mistake_id, COUNT(*) AS n FROM attempts WHERE mistake_id IS NOT NULL GROUP BY mistake_id ORDER BY n DESC, mistake_id',
    ).all() as Array<{ mistake_id: string; n: number }>;
  }

  progressOf(traineeId: string): readonly ProgressRow[] {
    let rows = this.cache.progress.get(traineeId);
    if (!rows) {
      rows = this.stmt('SELECT * FROM progress WHERE trainee_id = ?').all(traineeId) as ProgressRow[];
      this.cache.progress.set(traineeId, rows);
    }
    return rows;
  }

  markDone(traineeId: string, exerciseId: string, at: number, detail: string): void {
    this.cache.progress.delete(traineeId);
    this.stmt(
      `INSERT INTO progress (trainee_id, exercise_id, done_at, detail) VALUES (?, ?, ?, ?)
       ON CONFLICT (trainee_id, exercise_id) DO UPDATE SET done_at = excluded.done_at, detail = excluded.detail`,
    ).run(traineeId, exerciseId, at, detail);
  }

  recordAnswer(
    traineeId: string,
    exerciseId: string,
    choice: string,
    at: number,
    afterAttempt: number,
  ): void {
    this.cache.progress.delete(traineeId);
    this.cache.answers = undefined;
    this.stmt(
      `INSERT INTO progress (trainee_id, exercise_id, answer, answered_at, answers, answered_after) VALUES (?, ?, ?, ?, 1, ?)
       ON CONFLICT (trainee_id, exercise_id) DO UPDATE SET answer = excluded.answer, answered_at = excluded.answered_at,
         answers = answers + 1, answered_after = excluded.answered_after`,
    ).run(traineeId, exerciseId, choice, at, afterAttempt);
    // Each choice counted once per trainee and question: bounded by the choices, however often one answers.
    this.stmt(
      `INSERT INTO answer_choices (trainee_id, exercise_id, choice, n, first_at) VALUES (?, ?, ?, 1, ?)
       ON CONFLICT (trainee_id, exercise_id, choice) DO UPDATE SET n = n + 1`,
    ).run(traineeId, exerciseId, choice, at);
  }

  /** The choices each trainee gave to each question, with how often (first given first). */
  answerCounts(): readonly AnswerCount[] {
    this.cache.answers ??= this.stmt(
      'SELECT trainee_id, exercise_id, choice, n FROM answer_choices ORDER BY first_at, rowid',
    ).all() as AnswerCount[];
    return this.cache.answers;
  }

  /** Forgets a trainee's attempts and progress (their merchant and its sandbox records stay). */
  resetTrainee(traineeId: string): void {
    this.flush();
    this.cache.progress.delete(traineeId);
    this.cache.assisted.delete(traineeId);
    this.cache.hints = undefined;
    this.cache.answers = undefined;
    this.db.transaction(() => {
      this.stmt('DELETE FROM attempts WHERE trainee_id = ?').run(traineeId);
      this.stmt('DELETE FROM progress WHERE trainee_id = ?').run(traineeId);
      this.stmt('DELETE FROM answer_choices WHERE trainee_id = ?').run(traineeId);
      this.stmt('DELETE FROM hints_unlocked WHERE trainee_id = ?').run(traineeId);
      this.stmt('DELETE FROM assisted WHERE trainee_id = ?').run(traineeId);
    })();
  }

  exerciseStates(): ReadonlyArray<{ exercise_id: string; locked: number; hints_shown: number }> {
    this.cache.exerciseStates ??= this.stmt('SELECT * FROM exercise_state').all() as Array<{
      exercise_id: string;
      locked: number;
      hints_shown: number;
    }>;
    return this.cache.exerciseStates;
  }

  setLocked(exerciseId: string, locked: boolean): void {
    this.cache.exerciseStates = undefined;
    this.stmt(
      `INSERT INTO exercise_state (exercise_id, locked) VALUES (?, ?)
       ON CONFLICT (exercise_id) DO UPDATE SET locked = excluded.locked`,
    ).run(exerciseId, locked ? 1 : 0);
  }

  setHintsShown(exerciseId: string, shown: number): void {
    this.cache.exerciseStates = undefined;
    this.stmt(
      `INSERT INTO exercise_state (exercise_id, hints_shown) VALUES (?, ?)
       ON CONFLICT (exercise_id) DO UPDATE SET hints_shown = excluded.hints_shown`,
    ).run(exerciseId, shown);
  }
}
