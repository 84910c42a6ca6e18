import type { Clock } from '../../../core/index.ts';
import { findOperation } from '../../../catalog/index.ts';
import { draftFromValues, type RequestDraft } from '../../../model/index.ts';
import type { ExchangeParty, ExchangeRecord, PreparedExchange, Transport } from '../../../model/exchange.ts';
import { nextPoll, POLL_POLICY, type PollPolicy } from '../../../model/poll-policy.ts';
import type { AnswerReading } from '../../../model/read-answer.ts';
import { errorText } from '../../../core/errors.ts';
import { Store } from '../../../core/store.ts';

export const STATUS_OPERATION = findOperation('v2/status')!;

export interface PollIds {
  clientOrderId: string;
  orderId?: string;
}

export interface PollCheck {
  sent: ReadonlyArray<{ name: string; value: string }>;
  answer: AnswerReading;
  sentAt: string;
  at: number;
}

export type PollPhase = 'polling' | 'final' | 'refused' | 'failed' | 'expired' | 'stopped';

export interface PollSnapshot {
  phase: PollPhase;
  startedAt: number;
  /** Checks started so far, the one in flight included. */
  checks: number;
  inFlight: boolean;
  last: PollCheck | null;
  /** When the next check is due (the clock's time), while waiting. */
  nextAt: number | null;
  error: string | null;
}

export interface StatusPollPorts {
  /** The model's `prepareExchange` for this page's profile and place. */
  prepare: (draft: RequestDraft) => Promise<PreparedExchange>;
  transport: () => Transport;
  party: () => ExchangeParty;
  clock: Clock;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  onExchange: (record: ExchangeRecord) => void;
  /** Each status answer of HTTP 200, as it arrives (the order's latest state). */
  onStatus?: (check: PollCheck) => void;
  policy?: PollPolicy;
}

/** The status request of an order, left to the profile for its login. */
export function statusDraft(ids: PollIds): RequestDraft {
  return draftFromValues(STATUS_OPERATION, {
    values: { client_orderid: ids.clientOrderId, orderid: ids.orderId ?? '' },
  });
}

/**
 * Status polling of one order, headless: checks through the model's exchange until the catalog's
 * final status, a refusal, or the policy's limit; the view renders the snapshot.
 */
export class StatusPoll extends Store<PollSnapshot> {
  protected snap: PollSnapshot;
  private controller: AbortController | null = null;

  constructor(
    readonly ids: PollIds,
    private readonly ports: StatusPollPorts,
  ) {
    super();
    this.snap = this.fresh();
  }

  private fresh(): PollSnapshot {
    return {
      phase: 'polling',
      startedAt: this.ports.clock(),
      checks: 0,
      inFlight: false,
      last: null,
      nextAt: null,
      error: null,
    };
  }

  private set(next: Partial<PollSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    this.notify();
  }

  get policy(): PollPolicy {
    return this.ports.policy ?? POLL_POLICY;
  }

  /** Starts polling (again, after a stop); returns when it ends. */
  async start(): Promise<void> {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.snap = this.fresh();
    this.notify();
    try {
      await this.loop(controller.signal);
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  stop(): void {
    if (!this.controller) return;
    this.controller.abort();
    this.controller = null;
    if (this.snap.phase === 'polling') this.set({ phase: 'stopped', inFlight: false, nextAt: null });
  }

  private async loop(signal: AbortSignal): Promise<void> {
    const draft = statusDraft(this.ids);
    for (let attempt = 1; ; attempt++) {
      this.set({ checks: attempt, inFlight: true, nextAt: null });
      let prepared: PreparedExchange;
      try {
        prepared = await this.ports.prepare(draft);
      } catch (e) {
        if (!signal.aborted) this.set({ phase: 'failed', inFlight: false, error: message(e) });
        return;
      }
      if (signal.aborted) return;
      const outcome = await prepared.send(this.ports.transport(), signal);
      if (signal.aborted) return;
      try {
        // Every check of a poll is the console's own, even of a poll the user started.
        this.ports.onExchange({ ...prepared.record(this.ports.party(), outcome), automatic: true });
      } catch {
        // History is a convenience: a failure to record never stops polling.
      }
      if (!outcome.ok) {
        this.set({ phase: 'failed', inFlight: false, error: message(outcome.error) });
        return;
      }
      const check: PollCheck = {
        sent: prepared.built.body,
        answer: outcome.answer,
        sentAt: outcome.sentAt,
        at: this.ports.clock(),
      };
      this.set({ last: check, inFlight: false });
      if (outcome.answer.httpStatus !== 200) {
        this.set({ phase: 'refused' });
        return;
      }
      this.ports.onStatus?.(check);
      const step = nextPoll(
        outcome.answer.status,
        attempt,
        this.snap.startedAt,
        this.ports.clock,
        this.policy,
      );
      if (step.kind === 'final') return this.set({ phase: 'final' });
      if (step.kind === 'expired') return this.set({ phase: 'expired' });
      this.set({ nextAt: step.at });
      await this.ports.sleep(step.delayMs, signal);
      if (signal.aborted) return;
    }
  }
}

function message(e: unknown): string {
  return errorText(e);
}
