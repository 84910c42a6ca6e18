import type { FlowDefinition, Template } from './flow-types.ts';
import { RunInbox } from './flow-run-inbox.ts';
import {
  FlowStepError,
  type FlowDeps,
  type InboxEvent,
  type NewEntry,
  type RunSnapshot,
  type StepHost,
  type StepState,
  type TimelineEntry,
} from './flow-run-types.ts';
import { runStatusStep } from './flow-status-step.ts';
import { runCustomerStep, runMethodStep, runRequestStep } from './flow-steps.ts';
import { envVars, fillTemplate, initialVars, textOf } from './flow-vars.ts';
import { errorText } from '../../core/errors.ts';
import { Store } from '../../core/store.ts';

/**
 * One run of a guided flow: steps run one at a time (Next step) or to the end (Run all); every
 * request is built by the core and sent through the transport, every answer parsed with the
 * catalog's schema before a value is taken from it. The steps themselves live in `flow-steps.ts`
 * and `flow-status-step.ts`; they reach the run through its `StepHost`.
 */
export class FlowRun extends Store<RunSnapshot> {
  protected snap: RunSnapshot;
  private controller: AbortController | null = null;
  private nextKey = 1;
  private readonly lastStatus = new Map<string, string>();
  private readonly host: StepHost;
  private readonly inbox: RunInbox;

  constructor(
    readonly flow: FlowDefinition,
    private readonly deps: FlowDeps,
    inputs: Record<string, string> = {},
  ) {
    super();
    this.host = {
      deps,
      snapshot: () => this.snap,
      set: (next) => this.set(next),
      setStep: (index, state, detail) => this.setStep(index, state, detail),
      push: (entry) => this.push(entry),
      update: (key, patch) => this.update(key, patch),
      fill: (template) => this.fill(template),
      save: (mapping, from) => this.save(mapping, from),
      waitForReturn: (order, field, signal) => this.inbox.waitForReturn(order, field, signal),
      lastStatus: this.lastStatus,
    };
    this.inbox = new RunInbox(this.host);
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

  private set(next: Partial<RunSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    this.notify();
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
    this.inbox.forgetReturns();
    this.lastStatus.clear();
    this.snap = this.fresh(inputs);
    this.notify();
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

  /** A callback or customer return delivered to the run's inbox. */
  receive(event: InboxEvent): void {
    this.inbox.receive(event);
  }

  private async runStep(index: number, signal: AbortSignal): Promise<boolean> {
    const step = this.flow.steps[index]!;
    this.setStep(index, 'running');
    this.set({ phase: 'running', message: `Running: ${step.title}` });
    try {
      let warning = '';
      if (step.kind === 'request') warning = await runRequestStep(this.host, step, signal);
      else if (step.kind === 'status') await runStatusStep(this.host, step, index, signal);
      else if (step.kind === 'method') await runMethodStep(this.host, step, signal);
      else await runCustomerStep(this.host, step, index, signal);
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
      const message = errorText(e);
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
      const v = textOf(from[field]);
      if (v === undefined) throw new FlowStepError(`The answer has no ${field}, which the next steps need.`);
      vars[name] = v;
    }
    this.set({ vars });
  }
}
