import type { CallbackVerdict, Clock, CryptoPort, NonceSource } from '../../core/index.ts';
import type { RequestDraft } from '../../model/index.ts';
import type { ExchangeRecord, Transport } from '../../model/exchange.ts';
import type { PollPolicy } from '../../model/poll-policy.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import type { FlowEnv, FlowStep, Template, Vars } from './flow-types.ts';

/** The ports of a run: the profile, crypto, clock, transport and the browser's side of 3-D Secure. */
export interface FlowDeps {
  /** The active profile, read again before every request. */
  context: () => SigningContext | null;
  crypto: CryptoPort;
  clock: Clock;
  nonce: NonceSource;
  /** Read when a run starts: the login and the inbox addresses of the moment. */
  env: () => FlowEnv;
  /** The transport to the profile's target (the browser's proxy; a test's sandbox). */
  transport: (context: SigningContext) => Transport;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  loadMethodUrl: (url: string, signal: AbortSignal) => Promise<void>;
  freshOrderId: () => string;
  onExchange?: (ex: ExchangeRecord) => void;
  /** The model's polling policy unless a test passes a quicker one. */
  poll?: PollPolicy;
}

/** One callback or customer return that reached the run's inbox. */
export interface InboxEvent {
  id: number;
  receivedAt: string;
  query: Record<string, string>;
}

export type StepState = 'pending' | 'running' | 'waiting' | 'done' | 'warning' | 'failed';
export type ControlCheck = 'checking' | CallbackVerdict;

export type TimelineEntry =
  | {
      kind: 'request';
      key: number;
      at: number;
      stepId: string;
      operation: string;
      title: string;
      httpStatus: number | null;
      type: string | null;
      elapsedMs: number | null;
      ok: boolean;
      summary: string;
      draft: RequestDraft | null;
      checks: number;
    }
  | { kind: 'status'; key: number; at: number; status: string; detail: string; orderid: string }
  | {
      kind: 'callback';
      key: number;
      at: number;
      status: string;
      type: string;
      orderid: string;
      control: ControlCheck;
    }
  | { kind: 'customer'; key: number; at: number; text: string }
  | { kind: 'note'; key: number; at: number; text: string; tone: 'info' | 'warn' | 'bad' };

/** A timeline entry before the run gives it its key (and, unless given, its time). */
export type NewEntry = TimelineEntry extends infer E
  ? E extends TimelineEntry
    ? Omit<E, 'key' | 'at'> & { at?: number }
    : never
  : never;

export interface StepView {
  id: string;
  title: string;
  kind: FlowStep['kind'];
  state: StepState;
  detail: string;
}

export type RunPhase = 'ready' | 'running' | 'waiting-customer' | 'done' | 'failed' | 'stopped';

export interface RunSnapshot {
  phase: RunPhase;
  cursor: number;
  steps: StepView[];
  vars: Vars;
  timeline: TimelineEntry[];
  customer: { url: string; title: string; returns: string } | null;
  message: string;
}

export class FlowStepError extends Error {
  override readonly name = 'FlowStepError';
}

/**
 * What a step may do to the run that executes it. `FlowRun` hands one to the step functions
 * (`flow-steps.ts`, `flow-status-step.ts`, `flow-send.ts`) so that they change its snapshot
 * only through it, and `FlowRun` keeps its own methods private.
 */
export interface StepHost {
  readonly deps: FlowDeps;
  snapshot(): RunSnapshot;
  set(next: Partial<RunSnapshot>): void;
  setStep(index: number, state: StepState, detail?: string): void;
  /** Adds a timeline entry; returns its key. */
  push(entry: NewEntry): number;
  update(key: number, patch: Partial<TimelineEntry>): void;
  /** The template filled from the run's variables; a missing one is a `FlowStepError`. */
  fill(template: Template): Record<string, string>;
  /** Saves answer fields into the run's variables; a missing one is a `FlowStepError`. */
  save(mapping: Record<string, string> | undefined, from: Record<string, unknown>): void;
  /** Resolves with the customer's return that names the order and carries `field`. */
  waitForReturn(clientOrderId: string, field: string, signal: AbortSignal): Promise<InboxEvent>;
  /** The last status shown per order, so that a repeated one is not drawn again. */
  readonly lastStatus: Map<string, string>;
}
