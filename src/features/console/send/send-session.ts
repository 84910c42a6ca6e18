import type { BuiltRequest } from '../../../core/index.ts';
import type { RequestDraft, SigningEnv } from '../../../model/index.ts';
import type {
  ExchangeParty,
  ExchangeRecord,
  PreparedExchange,
  PrepareOptions,
  Transport,
  WireAnswer,
} from '../../../model/exchange.ts';
import type { AnswerReading } from '../../../model/read-answer.ts';
import type { UnknownOutcome } from '../../../model/send-certainty.ts';
import type { AbortKind } from './send-lifecycle.ts';
import { asError } from '../../../core/errors.ts';
import { Store } from '../../../core/store.ts';

/** The answer on screen and the request it belongs to. */
export interface SendOutcome {
  opPath: string;
  built: BuiltRequest;
  envelope: WireAnswer;
  interpreted: AnswerReading;
  sentAt: string;
  /** The draft key of what was sent: the form differs from it once edited. */
  sentKey: string;
  /** A 5xx may come after the order was committed: the model's unknown outcome, else null. */
  unknown: UnknownOutcome | null;
}

/** One Send: the form's draft, how to sign it, where it goes and for how long. */
export interface SendJob {
  draft: RequestDraft;
  key: string;
  env: SigningEnv;
  /** The request the panes show, sent byte for byte; absent: built now (a fresh OAuth nonce). */
  built?: BuiltRequest;
  party: ExchangeParty;
  transport: Transport;
  timeoutSeconds: number;
}

/** A send's cancel and timeout (send-lifecycle.ts in the browser). */
export interface Lifecycle {
  readonly signal: AbortSignal;
  readonly aborted: AbortKind | null;
  cancel(): void;
  settle(): void;
  explain(error: unknown, sent?: ReadonlyArray<{ name: string; value: string }>): unknown;
}

export interface SendSessionPorts {
  /** The model's `prepareExchange` (loaded on the first send in the browser). */
  prepare: (draft: RequestDraft, env: SigningEnv, options: PrepareOptions) => Promise<PreparedExchange>;
  lifecycle: (seconds: number) => Promise<Lifecycle>;
  /** Every exchange, answered or failed, for history. */
  onExchange: (record: ExchangeRecord) => void;
  /** A request built for this send (not the one the panes showed): the panes show it. */
  onBuilt?: (key: string, built: BuiltRequest) => void;
  /** The answer is on screen. */
  onAnswer?: (outcome: SendOutcome) => void;
}

export interface SendSnapshot {
  pending: boolean;
  outcome: SendOutcome | null;
  error: Error | null;
  /** The failed send may have reached the gateway (the model's decision), else null. */
  unknown: UnknownOutcome | null;
}

const IDLE: SendSnapshot = { pending: false, outcome: null, error: null, unknown: null };

/**
 * The workbench's Send, headless: one send at a time through the model's exchange, its cancel and
 * timeout, the record for history, and the state the view renders (`subscribe` / `getSnapshot`).
 */
export class SendSession extends Store<SendSnapshot> {
  protected snap: SendSnapshot = IDLE;
  private life: Lifecycle | null = null;
  // A Cancel pressed before the send's lifecycle exists still cancels it.
  private cancelPending = false;
  private last: SendJob | null = null;
  private failedUnknown: UnknownOutcome | null = null;

  constructor(private readonly ports: SendSessionPorts) {
    super();
  }

  private set(next: Partial<SendSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    this.notify();
  }

  cancel(): void {
    this.cancelPending = true;
    this.life?.cancel();
  }

  /** Runs one send; the outcome or the error lands in the snapshot. Ignored while one is pending. */
  async send(job: () => Promise<SendJob> | SendJob): Promise<void> {
    if (this.snap.pending) return;
    this.cancelPending = false;
    this.failedUnknown = null;
    this.set({ pending: true, error: null, unknown: null });
    try {
      const outcome = await this.run(await job());
      this.set({ pending: false, outcome, error: null });
      this.ports.onAnswer?.(outcome);
    } catch (e) {
      this.set({ pending: false, error: asError(e), unknown: this.failedUnknown });
    }
  }

  /**
   * Sends the last request again, identical: the same draft (same `client_orderid` and
   * parameters), the same bytes when they were pinned. For an unknown outcome the gateway answers
   * with the original acknowledgement.
   */
  async resend(): Promise<void> {
    const job = this.last;
    if (job) await this.send(() => job);
  }

  private async run(job: SendJob): Promise<SendOutcome> {
    this.last = job;
    const prepared = await this.ports.prepare(job.draft, job.env, job.built ? { built: job.built } : {});
    if (!job.built) this.ports.onBuilt?.(job.key, prepared.built);
    const life = await this.ports.lifecycle(job.timeoutSeconds);
    this.life = life;
    if (this.cancelPending) life.cancel();
    try {
      let outcome = await prepared.send(job.transport, life.signal);
      if (outcome.ok && life.aborted) {
        outcome = { ok: false, sentAt: outcome.sentAt, error: new Error('The send was stopped.') };
      }
      if (!outcome.ok) {
        const error = life.explain(outcome.error, prepared.built.body);
        this.report(prepared.record(job.party, { ...outcome, error }));
        this.failedUnknown = prepared.unknown({ ...outcome, error });
        throw error;
      }
      this.report(prepared.record(job.party, outcome));
      return {
        opPath: job.draft.operation,
        built: prepared.built,
        envelope: outcome.wire,
        interpreted: outcome.answer,
        sentAt: outcome.sentAt,
        sentKey: job.key,
        unknown: prepared.unknown(outcome),
      };
    } finally {
      life.settle();
      if (this.life === life) this.life = null;
    }
  }

  private report(record: ExchangeRecord): void {
    try {
      this.ports.onExchange(record);
    } catch {
      // History is a convenience: a failure to record never fails the send.
    }
  }
}
