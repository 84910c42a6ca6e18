/**
 * A collection run: the steps of a collection sent in order (or a selection of them), each signed
 * afresh (a new nonce and timestamp: nothing pinned is kept), its variables resolved from the run's
 * saved values, the environment and the collection's defaults, the final status awaited on the one
 * polling policy, its assertions checked and its variables set from the answer. Headless
 * (`subscribe` / `getSnapshot`), the transport, sleep, clock and callback inbox injected: the
 * browser's runner view and `paysign run` both drive this class.
 */
import { z } from 'zod/mini';
import { findOperation } from '../catalog/index.ts';
import { verifyCallback, type CallbackVerdict } from '../core/index.ts';
import type { SigningEnv } from './build-draft.ts';
import { prepareExchange, type Transport } from './exchange.ts';
import { maskDraft } from './mask-draft.ts';
import { resolveDraft } from './place.ts';
import { isFinalStatus, POLL_POLICY, type PollPolicy } from './poll-policy.ts';
import type { AnswerReading } from './read-answer.ts';
import { RequestDraftSchema, type RequestDraft } from './request-draft.ts';
import { checkStep, StepChecksSchema, variablesFromAnswer, type AssertionResult } from './step-checks.ts';
import { applyVariables, VARIABLE_NAME, type VariableSource, type VariableUse } from './variables.ts';
import { unresolvedText } from './variable-words.ts';
import { errorText } from '../core/errors.ts';
import { Store } from '../core/store.ts';

const NAME = z.string().check(z.minLength(1), z.maxLength(200));

/** One step: a saved request with its assertions and variable settings. */
export const RunStepSchema = z.strictObject({
  name: NAME,
  draft: RequestDraftSchema,
  checks: z.optional(StepChecksSchema),
});
export type RunStep = z.infer<typeof RunStepSchema>;

export const RunCollectionSchema = z.strictObject({
  name: NAME,
  /** Defaults of the collection's variables; the environment and saved answers take precedence. */
  variables: z.record(z.string().check(z.regex(VARIABLE_NAME)), z.string().check(z.maxLength(65_536))),
  steps: z.array(RunStepSchema).check(z.maxLength(1_000)),
});
export type RunCollection = z.infer<typeof RunCollectionSchema>;

/** Where callbacks for this run arrive (the console's inbox, the CLI's small server). */
export interface CallbackInbox {
  /** Resolves with the callback's parameters for this order, or undefined once the signal aborts. */
  waitFor(orderid: string, signal: AbortSignal): Promise<Record<string, string> | undefined>;
}

export interface RunPorts {
  env: SigningEnv;
  transport: Transport;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** The environment's variables (and its name, for provenance). */
  environment?: VariableSource;
  callbacks?: CallbackInbox;
  poll?: PollPolicy;
  /** How long to wait for a callback after the final status (default 10 s). */
  callbackWaitMs?: number;
}

export type StepState = 'pending' | 'running' | 'waiting' | 'passed' | 'failed' | 'error' | 'stopped';

export interface StepResult {
  index: number;
  name: string;
  operation: string;
  state: StepState;
  /** What was sent: method, URL and parameters, card numbers, CVVs and secrets withheld. */
  request?: { method: string; url: string; params: Array<{ name: string; value: string }> };
  uses: VariableUse[];
  httpStatus?: number;
  answerBody?: string;
  /** The answer's status, then the final one when the step waited. */
  status?: string;
  statusChecks: number;
  assertions: AssertionResult[];
  /** Variables this step set. */
  saved: Record<string, string>;
  /** Why the step could not run or finish (unresolved variable, refused send, transport error). */
  error?: string;
  durationMs?: number;
}

export interface RunSnapshot {
  name: string;
  running: boolean;
  steps: StepResult[];
  /** Values saved from answers so far. */
  saved: Record<string, string>;
  /** `{{run_id}}`: drawn afresh for each whole run, for order ids no earlier run used. */
  runId: string;
  passed: number;
  failed: number;
}

const NO_STATUS_WAIT = new Set(['v2/status', 'v4/status', 'v2/get-card-info']);

function fresh(step: RunStep, index: number): StepResult {
  return {
    index,
    name: step.name,
    operation: step.draft.operation,
    state: 'pending',
    uses: [],
    statusChecks: 0,
    assertions: [],
    saved: {},
  };
}

function text(e: unknown): string {
  return errorText(e);
}

/** The draft as sent, without what is never kept: what a step's view, JSON and JUnit show. */
function shownParams(draft: RequestDraft, env: SigningEnv): Array<{ name: string; value: string }> {
  const masked = maskDraft(draft);
  const resolved = resolveDraft(masked, env.place);
  const withheld = new Set(
    [...Object.entries(masked.values), ...masked.extras.map((e) => [e.name, e.value] as const)]
      .filter(([, v]) => typeof v === 'object' && 'withheld' in v)
      .map(([n]) => n),
  );
  return [
    ...Object.entries(resolved.values).filter(([n, v]) => v !== '' || withheld.has(n)),
    ...resolved.extras.map((e) => [e.name, e.value] as const),
  ].map(([name, value]) => ({ name, value: withheld.has(name) ? '[withheld]' : value }));
}

export class CollectionRun extends Store<RunSnapshot> {
  protected snap: RunSnapshot;
  private controller: AbortController | null = null;

  constructor(
    private collection: RunCollection,
    private readonly ports: RunPorts,
  ) {
    super();
    this.snap = {
      name: collection.name,
      running: false,
      steps: collection.steps.map(fresh),
      saved: {},
      runId: this.newRunId(),
      passed: 0,
      failed: 0,
    };
  }

  private newRunId(): string {
    const { clock, nonce } = this.ports.env.runtime;
    return `${clock().toString(36)}${nonce()
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 6)}`;
  }

  private set(next: Partial<RunSnapshot>): void {
    const steps = next.steps ?? this.snap.steps;
    this.snap = {
      ...this.snap,
      ...next,
      passed: steps.filter((s) => s.state === 'passed').length,
      failed: steps.filter((s) => s.state === 'failed' || s.state === 'error').length,
    };
    this.notify();
  }

  private patch(index: number, change: Partial<StepResult>): void {
    const steps = this.snap.steps.slice();
    steps[index] = { ...steps[index]!, ...change };
    this.set({ steps });
  }

  /**
   * Replaces one step (its assertions edited in the runner view), its result cleared: the next run
   * or re-run of it checks the new ones. Refused while the run is going.
   */
  setStep(index: number, step: RunStep): void {
    if (this.snap.running || !this.collection.steps[index]) return;
    const steps = this.collection.steps.slice();
    steps[index] = step;
    this.collection = { ...this.collection, steps };
    this.patch(index, fresh(step, index));
  }

  /** Stops the run: the step in flight is cancelled and marked stopped. */
  stop(): void {
    this.controller?.abort();
  }

  /**
   * Runs the given steps (all by default) in order; a step that fails does not stop the next ones
   * (its assertions are reported), one that cannot be sent does not either. Resolves when done.
   */
  async run(selection?: readonly number[]): Promise<RunSnapshot> {
    if (this.snap.running) return this.snap;
    const indexes = selection ?? this.collection.steps.map((_s, i) => i);
    const controller = new AbortController();
    this.controller = controller;
    const steps = this.snap.steps.slice();
    for (const i of indexes) if (steps[i]) steps[i] = fresh(this.collection.steps[i]!, i);
    this.set({ running: true, steps, ...(selection ? {} : { saved: {}, runId: this.newRunId() }) });
    for (const i of indexes) {
      if (!this.collection.steps[i]) continue;
      if (controller.signal.aborted) {
        this.patch(i, { state: 'stopped' });
        continue;
      }
      await this.runStep(i, controller.signal);
    }
    this.controller = null;
    this.set({ running: false });
    return this.snap;
  }

  /** Runs one step again (signed afresh), with the variables saved so far. */
  rerun(index: number): Promise<RunSnapshot> {
    return this.run([index]);
  }

  private async runStep(index: number, signal: AbortSignal): Promise<void> {
    const step = this.collection.steps[index]!;
    const { env } = this.ports;
    const started = env.runtime.clock();
    this.patch(index, { state: 'running' });
    const sources: VariableSource[] = [
      { kind: 'answer', name: 'saved from answers', values: this.snap.saved },
      { kind: 'run', name: 'this run', values: { run_id: this.snap.runId } },
      ...(this.ports.environment ? [this.ports.environment] : []),
      { kind: 'collection', name: this.collection.name, values: this.collection.variables },
    ];
    // A fresh nonce and timestamp on every run: a pinned pair would be refused as a replay.
    const { pinned: _pinned, ...unpinned } = step.draft;
    const applied = applyVariables(unpinned, sources);
    const finish = (change: Partial<StepResult>) =>
      this.patch(index, { ...change, durationMs: env.runtime.clock() - started });
    if (applied.unresolved.length > 0) {
      finish({
        state: 'error',
        uses: applied.uses,
        error: `Not sent: ${unresolvedText(applied.unresolved)}`,
      });
      return;
    }
    let answer: AnswerReading;
    try {
      const prepared = await prepareExchange(applied.draft, env);
      this.patch(index, {
        uses: applied.uses,
        request: {
          method: prepared.built.method,
          url: prepared.built.url,
          params: shownParams(applied.draft, env),
        },
      });
      const outcome = await prepared.send(this.ports.transport, signal);
      if (!outcome.ok) {
        finish({
          state: signal.aborted ? 'stopped' : 'error',
          error: `Not answered: ${text(outcome.error)}`,
        });
        return;
      }
      answer = outcome.answer;
    } catch (e) {
      finish({ state: 'error', uses: applied.uses, error: text(e) });
      return;
    }
    const saved = variablesFromAnswer(step.checks, answer);
    this.set({ saved: { ...this.snap.saved, ...saved } });
    this.patch(index, {
      httpStatus: answer.httpStatus,
      answerBody: answer.pretty,
      ...(answer.status !== undefined ? { status: answer.status } : {}),
      saved,
    });
    const resolved = resolveDraft(applied.draft, env.place);
    const orderid = answerText(answer, 'paynet-order-id');
    const clientOrderId =
      answerText(answer, 'merchant-order-id') ??
      resolved.values.client_orderid ??
      resolved.values['client-order-id'];
    const wait =
      step.checks?.wait ??
      (answer.accepted && orderid !== undefined && !NO_STATUS_WAIT.has(step.draft.operation));
    let finalStatus: string | undefined;
    try {
      if (wait && orderid !== undefined && clientOrderId !== undefined)
        finalStatus = await this.waitFinal(index, applied.draft, clientOrderId, orderid, signal);
      let callback: CallbackVerdict | 'none' | undefined;
      if (step.checks?.expect?.callback && orderid !== undefined)
        callback = await this.awaitCallback(orderid, signal);
      if (signal.aborted) {
        finish({ state: 'stopped' });
        return;
      }
      const assertions = checkStep(step.checks, {
        answer,
        ...(finalStatus !== undefined ? { finalStatus } : {}),
        ...(callback !== undefined ? { callback } : {}),
      });
      finish({
        state: assertions.every((a) => a.ok) ? 'passed' : 'failed',
        assertions,
        ...(finalStatus !== undefined ? { status: finalStatus } : {}),
      });
    } catch (e) {
      finish({ state: signal.aborted ? 'stopped' : 'error', error: text(e) });
    }
  }

  /** Status checks on the polling policy until a final status; the policy's limit ends it. */
  private async waitFinal(
    index: number,
    from: RequestDraft,
    clientOrderId: string,
    orderid: string,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const { env } = this.ports;
    const policy = this.ports.poll ?? POLL_POLICY;
    const op = findOperation('v2/status')!;
    const draft: RequestDraft = {
      v: 2,
      operation: op.path,
      values: { login: { place: 'login' }, client_orderid: clientOrderId, orderid },
      extras: [],
      ...(from.endpoint ? { endpoint: from.endpoint } : {}),
    };
    const started = env.runtime.clock();
    for (let attempt = 1; ; attempt++) {
      const prepared = await prepareExchange(draft, env);
      const outcome = await prepared.send(this.ports.transport, signal);
      if (!outcome.ok) throw new Error(`The status check was not answered: ${text(outcome.error)}`);
      const status = outcome.answer.status;
      this.patch(index, { statusChecks: attempt, ...(status ? { status } : {}) });
      if (isFinalStatus(status)) return status;
      if (!outcome.answer.accepted)
        throw new Error(`The status check was refused: ${outcome.answer.badge.label}`);
      if (env.runtime.clock() - started > policy.limitMs)
        throw new Error(`Still ${status ?? 'without a status'} after the polling policy's limit.`);
      this.patch(index, { state: 'waiting' });
      await this.ports.sleep(policy.delayMs(attempt), signal);
      if (signal.aborted) return undefined;
    }
  }

  private async awaitCallback(orderid: string, signal: AbortSignal): Promise<CallbackVerdict | 'none'> {
    const inbox = this.ports.callbacks;
    if (!inbox) return 'none';
    const limit = new AbortController();
    const onAbort = () => limit.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = this.ports
      .sleep(this.ports.callbackWaitMs ?? 10_000, limit.signal)
      .then(() => limit.abort());
    try {
      const query = await inbox.waitFor(orderid, limit.signal);
      if (!query) return 'none';
      return await verifyCallback(
        query,
        this.ports.env.credentials.controlKey,
        this.ports.env.runtime.crypto,
      );
    } finally {
      limit.abort();
      signal.removeEventListener('abort', onAbort);
      await timer.catch(() => undefined);
    }
  }
}

function answerText(answer: AnswerReading, field: string): string | undefined {
  const json = answer.json;
  if (!json || typeof json !== 'object') return undefined;
  const v = (json as Record<string, unknown>)[field];
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}
