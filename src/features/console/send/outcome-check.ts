import type { Clock } from '../../../core/index.ts';
import type { RequestDraft } from '../../../model/index.ts';
import type { ExchangeParty, ExchangeRecord, PreparedExchange, Transport } from '../../../model/exchange.ts';
import { POLL_POLICY, type PollPolicy } from '../../../model/poll-policy.ts';
import type { AnswerReading } from '../../../model/read-answer.ts';
import type { UnknownOutcome } from '../../../model/send-certainty.ts';
import { statusDraft } from './status-poll.ts';
import { errorText } from '../../../core/errors.ts';
import { Store } from '../../../core/store.ts';

export interface OutcomeCheckPorts {
  prepare: (draft: RequestDraft) => Promise<PreparedExchange>;
  transport: () => Transport;
  party: () => ExchangeParty;
  clock: Clock;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  onExchange: (record: ExchangeRecord) => void;
  /** A status answer of HTTP 200 (the order's state, for follow-ups and the ids store). */
  onStatus?: (
    sent: ReadonlyArray<{ name: string; value: string }>,
    answer: AnswerReading,
    sentAt: string,
  ) => void;
  policy?: PollPolicy;
}

export type OutcomeCheckPhase = 'waiting' | 'checking' | 'answered' | 'failed';

export interface OutcomeCheckSnapshot {
  phase: OutcomeCheckPhase;
  /** When the automatic check is due (the clock's time), while waiting for it. */
  nextAt: number | null;
  checks: number;
  answer: AnswerReading | null;
  error: string | null;
}

/**
 * The status check of an unknown outcome, headless: once by itself after the polling policy's
 * first wait, then on demand ("Check with status"). By `orderid` when one came back, else by
 * `client_orderid` (the description's rule); every check is recorded, so history resolves.
 */
export class OutcomeCheck extends Store<OutcomeCheckSnapshot> {
  protected snap: OutcomeCheckSnapshot = {
    phase: 'waiting',
    nextAt: null,
    checks: 0,
    answer: null,
    error: null,
  };
  private readonly controller = new AbortController();

  constructor(
    readonly unknown: UnknownOutcome,
    private readonly ports: OutcomeCheckPorts,
  ) {
    super();
  }

  private set(next: Partial<OutcomeCheckSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    this.notify();
  }

  /** Whether the order can be looked up at all (an id was sent). */
  get checkable(): boolean {
    return this.unknown.clientOrderId !== undefined;
  }

  /** The one automatic check, after the policy's first wait (1 s). */
  async auto(): Promise<void> {
    if (!this.checkable) return;
    const delay = (this.ports.policy ?? POLL_POLICY).delayMs(1);
    this.set({ nextAt: this.ports.clock() + delay });
    await this.ports.sleep(delay, this.controller.signal);
    if (this.controller.signal.aborted || this.snap.checks > 0) return;
    await this.check(true);
  }

  /** One status check now: the user's ("Check with status") unless `automatic`. */
  async check(automatic = false): Promise<void> {
    const { clientOrderId, orderId } = this.unknown;
    if (clientOrderId === undefined || this.snap.phase === 'checking') return;
    const signal = this.controller.signal;
    this.set({ phase: 'checking', nextAt: null, checks: this.snap.checks + 1, error: null });
    let prepared: PreparedExchange;
    try {
      prepared = await this.ports.prepare(statusDraft({ clientOrderId, ...(orderId ? { orderId } : {}) }));
    } catch (e) {
      if (!signal.aborted) this.set({ phase: 'failed', error: message(e) });
      return;
    }
    const outcome = await prepared.send(this.ports.transport(), signal);
    if (signal.aborted) return;
    try {
      const record = prepared.record(this.ports.party(), outcome);
      this.ports.onExchange(automatic ? { ...record, automatic } : record);
    } catch {
      // History is a convenience.
    }
    if (!outcome.ok) return this.set({ phase: 'failed', error: message(outcome.error) });
    if (outcome.answer.httpStatus === 200)
      this.ports.onStatus?.(prepared.built.body, outcome.answer, outcome.sentAt);
    this.set({ phase: 'answered', answer: outcome.answer });
  }

  dispose(): void {
    this.controller.abort();
  }
}

function message(e: unknown): string {
  return errorText(e);
}
