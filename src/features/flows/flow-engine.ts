import {
  isPayError,
  verifyCallback,
  type CallbackVerdict,
  type Clock,
  type CryptoPort,
  type NonceSource,
} from '../../core/index.ts';
import { findOperation, type Operation } from '../../catalog/index.ts';
import { RESPONSE_SCHEMAS } from '../../catalog/responses.ts';
import { draftFromValues, isDraftError, type Place, type RequestDraft } from '../../model/index.ts';
import {
  isExchangeRefused,
  prepareExchange,
  type ExchangeRecord,
  type PreparedExchange,
  type Transport,
} from '../../model/exchange.ts';
import { isFinalStatus, POLL_POLICY, pollLimitText, type PollPolicy } from '../../model/poll-policy.ts';
import { describeRefusal } from '../../model/read-answer.ts';
import { signingEnvFor, type SigningContext } from '../../shared/contracts/contracts.ts';
import type {
  CustomerStep,
  FlowDefinition,
  FlowEnv,
  FlowStep,
  MethodStep,
  RequestStep,
  StatusStep,
  Template,
  Vars,
} from './flow-types.ts';

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

type NewEntry = TimelineEntry extends infer E
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

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

/** Fills `{name}` placeholders from the variables; names that have no value yet are reported. */
export function fillTemplate(
  template: Template,
  vars: Vars,
): { values: Record<string, string>; missing: string[] } {
  const missing = new Set<string>();
  const values: Record<string, string> = {};
  for (const [name, raw] of Object.entries(template)) {
    values[name] = raw.replace(PLACEHOLDER, (_m, key: string) => {
      const v = vars[key];
      if (v === undefined || v === '') {
        missing.add(key);
        return '';
      }
      return v;
    });
  }
  return { values, missing: [...missing] };
}

/** The variables every run starts with: the environment, the browser fields and the flow's inputs. */
export function initialVars(
  flow: FlowDefinition,
  env: FlowEnv,
  inputs: Record<string, string>,
  freshOrderId: () => string,
): Vars {
  const vars: Vars = envVars(env);
  for (const input of flow.inputs) vars[input.name] = inputs[input.name] ?? input.value;
  for (const id of flow.freshIds) vars[id] = freshOrderId();
  return vars;
}

export function envVars(env: FlowEnv): Vars {
  const vars: Vars = {
    'env.login': env.login,
    'env.callbackUrl': env.callbackUrl,
    'env.returnUrl': env.returnUrl,
    'env.expireYear': env.expireYear,
  };
  for (const [k, v] of Object.entries(env.browser)) vars[`browser.${k}`] = v;
  return vars;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** The step's request to open in the workbench: its CVV is not carried over. */
function reopenDraft(op: Operation, values: Record<string, string>, context: SigningContext): RequestDraft {
  const withheld: Record<string, 'cvv'> = {};
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const cvv = op.fields.some((f) => f.name === name && f.sensitive === 'cvv');
    if (cvv && value !== '') withheld[name] = 'cvv';
    kept[name] = cvv ? '' : value;
  }
  return draftFromValues(op, { values: kept, endpoint: context.endpoint, withheld });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

interface Answer {
  json: Record<string, unknown>;
  httpStatus: number;
}

/**
 * One run of a guided flow: steps run one at a time (Next step) or to the end (Run all); every
 * request is built by the core and sent through the transport, every answer parsed with the
 * catalog's schema before a value is taken from it.
 */
export class FlowRun {
  private snap: RunSnapshot;
  private readonly listeners = new Set<() => void>();
  private controller: AbortController | null = null;
  private nextKey = 1;
  private readonly seenEvents = new Set<number>();
  private returns: InboxEvent[] = [];
  private returnWaiters = new Set<() => void>();
  private lastStatus = new Map<string, string>();

  constructor(
    readonly flow: FlowDefinition,
    private readonly deps: FlowDeps,
    inputs: Record<string, string> = {},
  ) {
    this.snap = this.fresh(inputs);
  }

  private fresh(inputs: Record<string, string>): RunSnapshot {
    return {
      phase: 'ready',
      cursor: 0,
      steps: this.flow.steps.map((s) => ({
        id: s.id,
        title: s.title,
        kind: s.kind,
        state: 'pending',
        detail: '',
      })),
      vars: initialVars(this.flow, this.deps.env(), inputs, this.deps.freshOrderId),
      timeline: [],
      customer: null,
      message: '',
    };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): RunSnapshot => this.snap;

  private set(next: Partial<RunSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    for (const l of this.listeners) l();
  }

  private setStep(index: number, state: StepState, detail = ''): void {
    const steps = this.snap.steps.map((s, i) => (i === index ? { ...s, state, detail } : s));
    this.set({ steps });
  }

  private push(entry: NewEntry): number {
    const key = this.nextKey++;
    this.set({
      timeline: [...this.snap.timeline, { at: this.deps.clock(), ...entry, key } as TimelineEntry],
    });
    return key;
  }

  private update(key: number, patch: Partial<TimelineEntry>): void {
    this.set({
      timeline: this.snap.timeline.map((e) => (e.key === key ? ({ ...e, ...patch } as TimelineEntry) : e)),
    });
  }

  get busy(): boolean {
    return this.controller !== null;
  }

  /** Changes an input before the first step has run. */
  setInput(name: string, value: string): void {
    if (this.snap.cursor > 0 || this.busy) return;
    this.set({ vars: { ...this.snap.vars, [name]: value } });
  }

  reset(inputs: Record<string, string> = {}): void {
    this.stop();
    this.returns = [];
    this.lastStatus.clear();
    this.snap = this.fresh(inputs);
    for (const l of this.listeners) l();
  }

  stop(): void {
    if (!this.controller) return;
    this.controller.abort();
    this.controller = null;
    const i = this.snap.cursor;
    if (i < this.snap.steps.length) this.setStep(i, 'pending', 'Stopped: run it again with Next step.');
    this.set({ phase: 'stopped', customer: null, message: 'Stopped.' });
  }

  /** Runs the next step; true when it succeeded. */
  async next(): Promise<boolean> {
    if (this.busy || this.snap.cursor >= this.flow.steps.length) return false;
    const controller = new AbortController();
    this.controller = controller;
    if (this.snap.cursor === 0) this.set({ vars: { ...this.snap.vars, ...envVars(this.deps.env()) } });
    const ok = await this.runStep(this.snap.cursor, controller.signal);
    if (this.controller === controller) this.controller = null;
    return ok;
  }

  /** Runs the remaining steps until one fails, the run is stopped, or the flow is complete. */
  async runAll(): Promise<boolean> {
    while (this.snap.cursor < this.flow.steps.length) {
      if (!(await this.next())) return false;
    }
    return true;
  }

  private async runStep(index: number, signal: AbortSignal): Promise<boolean> {
    const step = this.flow.steps[index]!;
    this.setStep(index, 'running');
    this.set({ phase: 'running', message: `Running: ${step.title}` });
    try {
      let warning = '';
      if (step.kind === 'request') warning = await this.request(step, signal);
      else if (step.kind === 'status') await this.poll(step, index, signal);
      else if (step.kind === 'method') await this.method(step, signal);
      else await this.customer(step, index, signal);
      if (signal.aborted) return false;
      this.setStep(index, warning ? 'warning' : 'done', warning);
      const cursor = index + 1;
      const complete = cursor >= this.flow.steps.length;
      this.set({
        cursor,
        customer: null,
        phase: complete ? 'done' : 'ready',
        message: complete
          ? `Flow complete: all ${this.flow.steps.length} steps succeeded.`
          : `Done: ${step.title}. Next: ${this.flow.steps[cursor]!.title}.`,
      });
      return true;
    } catch (e) {
      if (signal.aborted) return false;
      const message = e instanceof Error ? e.message : String(e);
      this.setStep(index, 'failed', message);
      this.push({ kind: 'note', text: `${step.title} failed: ${message}`, tone: 'bad' });
      this.set({ phase: 'failed', customer: null, message: `${step.title} failed: ${message}` });
      return false;
    }
  }

  private fill(template: Template): Record<string, string> {
    const { values, missing } = fillTemplate(template, this.snap.vars);
    if (missing.length > 0) {
      throw new FlowStepError(
        `It needs ${missing.join(', ')} from an earlier step: run the steps before it first.`,
      );
    }
    return values;
  }

  private save(mapping: Record<string, string> | undefined, from: Record<string, unknown>): void {
    if (!mapping) return;
    const vars = { ...this.snap.vars };
    for (const [name, field] of Object.entries(mapping)) {
      const v = text(from[field]);
      if (v === undefined) throw new FlowStepError(`The answer has no ${field}, which the next steps need.`);
      vars[name] = v;
    }
    this.set({ vars });
  }

  private async send(
    stepId: string,
    op: Operation,
    values: Record<string, string>,
    signal: AbortSignal,
    entryKey?: number,
  ): Promise<Answer & { key: number }> {
    const context = this.deps.context();
    if (!context) throw new FlowStepError('No profile is active: fill in the profile bar first.');
    let prepared: PreparedExchange;
    try {
      const env = this.deps.env();
      // A flow's values are filled in already; the place only resolves a login left to the profile.
      const place: Place = {
        origin: originOf(env.returnUrl),
        inboxUrl: env.callbackUrl,
        login: context.credentials.login,
      };
      const runtime = { crypto: this.deps.crypto, clock: this.deps.clock, nonce: this.deps.nonce };
      prepared = await prepareExchange(
        draftFromValues(op, { values }),
        signingEnvFor(context, place, runtime),
      );
    } catch (e) {
      throw new FlowStepError(
        isPayError(e) || isDraftError(e) || isExchangeRefused(e)
          ? e.message
          : `The request could not be built: ${String(e)}`,
      );
    }
    const draft = reopenDraft(op, values, context);
    const key =
      entryKey ??
      this.push({
        kind: 'request',
        stepId,
        operation: op.path,
        title: op.title,
        httpStatus: null,
        type: null,
        elapsedMs: null,
        ok: false,
        summary: 'sending…',
        draft,
        checks: 0,
      });
    const outcome = await prepared.send(this.deps.transport(context), signal);
    this.report(
      prepared.record({ profileName: context.profileName, targetName: context.target.name }, outcome),
    );
    if (!outcome.ok) {
      const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      if (!signal.aborted) this.update(key, { summary: message, ok: false });
      throw new FlowStepError(message);
    }
    const answer = outcome.answer;
    if (!answer.isJson) {
      this.update(key, {
        httpStatus: answer.httpStatus,
        elapsedMs: outcome.wire.elapsedMs,
        summary: 'not JSON',
        ok: false,
      });
      throw new FlowStepError(
        `The answer (HTTP ${answer.httpStatus}) is not JSON: check the target's base URL.`,
      );
    }
    const obj =
      answer.json && typeof answer.json === 'object' ? (answer.json as Record<string, unknown>) : {};
    const base = {
      httpStatus: answer.httpStatus,
      elapsedMs: outcome.wire.elapsedMs,
      type: answer.type ?? null,
    };
    if (answer.httpStatus !== 200 || answer.type === 'validation-error' || answer.type === 'error') {
      const why = describeRefusal(answer);
      this.update(key, { ...base, ok: false, summary: why });
      throw new FlowStepError(why);
    }
    if (!answer.schemaOk) {
      const issue = answer.schemaIssues[0];
      const why = `The answer is not a ${answer.schema}${issue ? `: ${issue}` : ''}.`;
      this.update(key, { ...base, ok: false, summary: why });
      throw new FlowStepError(why);
    }
    this.update(key, { ...base, ok: true, summary: summarize(obj) });
    return { json: obj, httpStatus: answer.httpStatus, key };
  }

  private report(record: ExchangeRecord): void {
    if (!this.deps.onExchange) return;
    try {
      this.deps.onExchange(record);
    } catch {
      // History is a convenience: a failure to record never stops the flow.
    }
  }

  private operation(path: string): Operation {
    const op = findOperation(path);
    if (!op) throw new FlowStepError(`The flow names an unknown operation ${path}.`);
    return op;
  }

  private async request(step: RequestStep, signal: AbortSignal): Promise<string> {
    const op = this.operation(step.operation);
    const values = this.fill(step.values);
    const { json } = await this.send(step.id, op, values, signal);
    this.save(step.save, json);
    const warnings: string[] = [];
    for (const [field, want] of Object.entries(step.hope ?? {})) {
      const got = text(json[field]);
      if (got !== want) warnings.push(`${field} is ${got ?? 'missing'}, not ${want}`);
    }
    if (warnings.length > 0) {
      const text = `${step.title}: ${warnings.join('; ')}.`;
      this.push({ kind: 'note', text, tone: 'warn' });
      return text;
    }
    return '';
  }

  private recordStatus(obj: Record<string, unknown>, orderid: string): void {
    const status = text(obj.status) ?? '?';
    const parts = [
      text(obj['transaction-type']),
      text(obj['threeds-stage']) && `3DS ${String(obj['threeds-stage'])}`,
    ]
      .filter(Boolean)
      .join(', ');
    const error = text(obj['error-message']);
    const detail = [parts, error].filter(Boolean).join(' · ');
    const id = `${status}|${detail}`;
    if (this.lastStatus.get(orderid) === id) return;
    this.lastStatus.set(orderid, id);
    this.push({ kind: 'status', status, detail, orderid });
  }

  private async poll(step: StatusStep, index: number, signal: AbortSignal): Promise<void> {
    const op = this.operation('v2/status');
    const order = this.fill(step.order);
    const values = { login: this.snap.vars['env.login'] ?? '', ...order };
    const policy = this.deps.poll ?? POLL_POLICY;
    const started = this.deps.clock();
    let key: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const { json, key: k } = await this.send(step.id, op, values, signal, key);
      key = k;
      this.update(key, { checks: attempt });
      const parsed = RESPONSE_SCHEMAS.StatusResponse.safeParse(json);
      if (!parsed.success) throw new FlowStepError('The status answer has no status.');
      this.recordStatus(json, order.orderid ?? '');
      const status = parsed.data.status;
      const reached =
        step.until === 'final'
          ? isFinalStatus(status)
          : step.until === 'redirect-to'
            ? text(json['redirect-to']) !== undefined
            : text(json['threeds-method-url']) !== undefined;
      if (reached) {
        if (step.until === 'final' && step.expect && !step.expect.includes(status)) {
          const why = text(json['error-message']);
          throw new FlowStepError(
            `The final status is ${status}${why ? `: ${why}` : ''}; expected ${step.expect.join(' or ')}.`,
          );
        }
        this.save(step.save, json);
        return;
      }
      if (isFinalStatus(status)) {
        const why = text(json['error-message']);
        throw new FlowStepError(
          `The transaction became ${status}${why ? ` (${why})` : ''} before ${goalText(step)}.`,
        );
      }
      if (this.deps.clock() - started > policy.limitMs) {
        throw new FlowStepError(
          `Still ${status} after ${pollLimitText(policy)}: the gateway has not answered ${goalText(step)}. Try Next step later.`,
        );
      }
      this.setStep(index, 'waiting', `${status} after ${attempt} check${attempt === 1 ? '' : 's'}…`);
      await this.deps.sleep(policy.delayMs(attempt), signal);
      if (signal.aborted) throw new FlowStepError('Stopped.');
    }
  }

  private async method(step: MethodStep, signal: AbortSignal): Promise<void> {
    const url = this.fill({ url: step.url }).url!;
    await this.deps.loadMethodUrl(url, signal);
    this.push({ kind: 'note', text: '3DS Method URL loaded in a hidden frame.', tone: 'info' });
  }

  private async customer(step: CustomerStep, index: number, signal: AbortSignal): Promise<void> {
    const filled = this.fill({ url: step.url, order: step.clientOrderId });
    const target = filled.url!;
    const clientOrderId = filled.order!;
    this.setStep(index, 'waiting', 'Waiting for the customer to come back from the issuer page…');
    this.set({
      phase: 'waiting-customer',
      customer: { url: target, title: step.title, returns: step.returns },
      message: `Waiting for the customer: open the issuer page and enter the password.`,
    });
    const back = await this.waitForReturn(clientOrderId, step.returns, signal);
    this.push({
      kind: 'customer',
      text: `Customer returned to redirect_url with ${step.returns}.`,
      at: Date.parse(back.receivedAt) || this.deps.clock(),
    });
    this.save(step.save, back.query);
    this.set({ phase: 'running', customer: null });
  }

  private waitForReturn(clientOrderId: string, field: string, signal: AbortSignal): Promise<InboxEvent> {
    const match = () =>
      this.returns.find((e) => e.query[field] && (e.query.client_orderid ?? clientOrderId) === clientOrderId);
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = match();
        if (found) {
          this.returnWaiters.delete(check);
          resolve(found);
        }
      };
      const abort = () => {
        this.returnWaiters.delete(check);
        reject(new FlowStepError('Stopped.'));
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      this.returnWaiters.add(check);
      check();
    });
  }

  /** A callback or customer return delivered to the run's inbox. */
  receive(event: InboxEvent): void {
    if (this.seenEvents.has(event.id)) return;
    this.seenEvents.add(event.id);
    const q = event.query;
    const at = Date.parse(event.receivedAt) || this.deps.clock();
    if (q.PaRes || q.cres) {
      this.returns.push(event);
      for (const w of [...this.returnWaiters]) w();
      return;
    }
    const key = this.push({
      kind: 'callback',
      at,
      status: q.status ?? '',
      type: q.type ?? '',
      orderid: q.orderid ?? '',
      control: 'checking',
    });
    void this.checkControl(q).then((control) => this.update(key, { control }));
  }

  private checkControl(q: Record<string, string>): Promise<ControlCheck> {
    return verifyCallback(q, this.deps.context()?.credentials.controlKey, this.deps.crypto);
  }
}

function goalText(step: StatusStep): string {
  return step.until === 'final'
    ? 'a final status'
    : step.until === 'redirect-to'
      ? 'an issuer page (redirect-to)'
      : 'a 3DS Method URL';
}

function summarize(obj: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of [
    'status',
    'paynet-order-id',
    'card-ref-id',
    'recurring-payment-id',
    'masked-card-number',
    'card-brand',
    'threeds-comp-ind',
  ]) {
    const v = text(obj[k]);
    if (v) parts.push(`${k} ${v}`);
  }
  return parts.join(', ');
}
