import { toOAuthTimestamp, type BuiltRequest, type Scheme } from '../../core/index.ts';
import {
  mistakeById,
  type Mistake,
  type MistakeId,
  type TeachResult,
  type Walkthrough,
} from '../../diagnose/index.ts';
import type { Operation } from '../../catalog/index.ts';
import { schemeOf, type Place, type RequestDraft, type SigningRuntime } from '../../model/index.ts';
import { prepareExchange, type Transport } from '../../model/exchange.ts';
import { failureError } from '../../model/send-certainty.ts';
import type { AnswerReading } from '../../model/read-answer.ts';
import { signingEnvFor, type SigningContext } from '../../model/signing-context.ts';
import { type ProxyTarget } from '../../contracts/proxy.ts';
import {
  editDraft,
  flatValues,
  orderIdField,
  runTeaching,
  switchesFor,
  teachingStart,
  teachingWalkthrough,
  testValues,
  withTestValues,
  withValue,
  type TeachingArgs,
  type TeachingProfile,
} from './teaching-model.ts';
import { asError, errorText } from '../../core/errors.ts';
import { Store } from '../../core/store.ts';

export type Pinned = { nonce: string; timestamp: string };
export type SendSide = 'mistaken' | 'correct';

/** A request sent to the sandbox and what it answered. */
export interface TeachingSent {
  which: SendSide;
  mistakeId: MistakeId | null;
  mistakeTitle: string | null;
  request: BuiltRequest;
  signingInput: string;
  correctSigningInput: string;
  answer: AnswerReading;
  newOrderId: boolean;
}

export interface TeachingSnapshot {
  op: Operation;
  /** The request as the model holds it: the workbench's formula, endpoint and pinned values survive. */
  draft: RequestDraft;
  scheme: Scheme;
  /** One text per name, fields and extras alike, at this place. */
  values: Readonly<Record<string, string>>;
  /** The extra parameters' names (not fields of the operation), in the draft's order. */
  extraNames: readonly string[];
  switches: readonly Mistake[];
  pinned: Pinned;
  mistake: MistakeId | null;
  /** The merchant's other id: typed, else the profile's. */
  otherId: string;
  /** The throwaway RSA key of "sign with the wrong key": not wanted now, being made, made. */
  wrongKey: 'unwanted' | 'making' | 'ready';
  teach: TeachResult | null;
  walk: Walkthrough | null;
  error: string | null;
  sending: boolean;
  sent: TeachingSent | null;
  sendError: Error | null;
  /** The walkthrough's current step (0-based). */
  step: number;
}

export interface TeachingPorts {
  /** The app's crypto port, nonce source and clock. */
  runtime: SigningRuntime;
  /** The transport to the profile's target (the browser's proxy; a test's sandbox). */
  transport: (target: ProxyTarget) => Transport;
  /** The throwaway key "sign with the wrong key" signs RSA-SHA256 with; default a fresh RSA-2048 key. */
  makeWrongKey?: () => Promise<CryptoKey>;
}

export interface TeachingStartArgs {
  op: Operation;
  /** The request to start from (the workbench's), for this operation. */
  given: RequestDraft | null;
  context: SigningContext | null;
  place: Place;
}

type DraftFacts = Pick<TeachingSnapshot, 'draft' | 'scheme' | 'values' | 'extraNames' | 'switches'>;

/** What the view reads off a draft: its scheme, its values at this place, the switches offered. */
function factsOf(op: Operation, draft: RequestDraft, place: Place): DraftFacts {
  const values = flatValues(draft, place);
  const scheme = schemeOf(op, draft);
  return { draft, scheme, values, extraNames: extraNamesOf(op, values), switches: switchesFor(scheme) };
}

function extraNamesOf(op: Operation, values: Record<string, string>): string[] {
  const known = new Set(op.fields.map((f) => f.name));
  return Object.keys(values).filter((k) => !known.has(k) && k !== 'control');
}

/**
 * The teaching page, headless: the request taught on, the mistake injected, the correct and
 * mistaken signings (recomputed on every change, the latest wins), the send to the local sandbox
 * and its answer, and the walkthrough's step. `subscribe` / `getSnapshot` for the view.
 */
export class TeachingSession extends Store<TeachingSnapshot> {
  protected snap: TeachingSnapshot;
  private context: SigningContext | null;
  private place: Place;
  private typedOtherId: string | null = null;
  private wrongPrivateKey: CryptoKey | null = null;
  private makingKey = false;
  private generation = 0;
  private computedOnce = false;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    start: TeachingStartArgs,
    private readonly ports: TeachingPorts,
  ) {
    super();
    const { op, given } = start;
    this.context = start.context;
    this.place = start.place;
    const draft = teachingStart(op, given, ports.runtime.clock());
    this.snap = {
      op,
      ...factsOf(op, draft, start.place),
      pinned: given?.pinned ?? this.freshPinned(),
      mistake: null,
      otherId: this.otherId(),
      wrongKey: 'unwanted',
      teach: null,
      walk: null,
      error: null,
      sending: false,
      sent: null,
      sendError: null,
      step: 0,
    };
  }

  /** Resolves once every signing, key and send started so far has landed (for tests and callers). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** The profile and the place changed (or are first known): signs again. */
  update(next: { context: SigningContext | null; place: Place }): void {
    const changed = next.context !== this.context || next.place !== this.place;
    this.context = next.context;
    this.place = next.place;
    if (!changed && this.computedOnce) return;
    this.set({ ...this.draftFacts(this.snap.draft), otherId: this.otherId() });
    this.recompute();
  }

  /** One value typed (a field, or an extra parameter by name). */
  setValue(name: string, value: string): void {
    if (this.snap.values[name] === value) return;
    this.setDraft(withValue(this.snap.op, this.snap.draft, this.place, name, value));
  }

  /** "Fill with test data": the test request's values in the draft's scheme, formula, endpoint and pinned values. */
  fillTestValues(): void {
    this.setDraft(withTestValues(this.snap.op, this.snap.draft, this.ports.runtime.clock()));
  }

  pickScheme(scheme: Scheme): void {
    const draft = editDraft(this.snap.op, this.snap.draft, this.place, (form) => ({ ...form, scheme }));
    const m = this.snap.mistake;
    // A switch the new scheme does not offer is dropped with it.
    const mistake = m && switchesFor(scheme).some((s) => s.id === m) ? m : null;
    this.set({ ...this.draftFacts(draft), mistake });
    this.afterMistake();
  }

  pickMistake(mistake: MistakeId | null): void {
    this.set({ mistake });
    this.afterMistake();
  }

  setOtherId(text: string): void {
    this.typedOtherId = text;
    this.set({ otherId: this.otherId() });
    this.recompute();
  }

  /** "New nonce and timestamp". */
  freshNonce(): void {
    this.set({ pinned: this.freshPinned() });
    this.recompute();
  }

  /** The walkthrough's step, kept within its steps. */
  goStep(step: number): void {
    const count = this.snap.walk?.steps.length ?? 0;
    this.set({ step: Math.max(0, Math.min(step, count - 1)) });
  }

  /** Signs the request once more (fresh nonce and timestamp) and sends one side to the local sandbox. */
  async send(which: SendSide): Promise<void> {
    if (this.snap.sending) return;
    this.set({ sending: true, sent: null, sendError: null });
    const run = this.sendNow(which).then(
      (sent) => this.set({ sending: false, sent, sendError: null }),
      (e: unknown) => this.set({ sending: false, sendError: asError(e) }),
    );
    await this.track(run);
  }

  private async sendNow(which: SendSide): Promise<TeachingSent> {
    const { context, place } = this;
    const profile = this.profile();
    if (!context || !profile) throw new Error('No profile is active: fill in the profile bar first.');
    if (context.target.kind !== 'local')
      throw new Error(
        'The teaching mode sends only to the local sandbox: pick the target "local" in the profile bar.',
      );
    const { op, draft, mistake } = this.snap;
    const pinned = this.freshPinned();
    this.set({ pinned });
    this.recompute();
    const r = await runTeaching({
      ...this.args(profile),
      draft,
      pinned,
      mistake: which === 'mistaken' ? mistake : null,
    });
    const side = which === 'mistaken' ? r.mistaken : r.correct;
    if (side.signature === null)
      throw new Error(
        `Not sent: ${r.correct.request.problems.map((p) => p.message).join(' ') || 'no signature.'}`,
      );
    // A default port written out is the same address: send it to the target's own URL.
    const wire = { ...side.request, url: r.correct.request.url };
    // Through the model's exchange, the request built here (mistake and all) sent as is.
    const prepared = await prepareExchange(draft, signingEnvFor(context, place, this.ports.runtime), {
      built: wire,
    });
    const outcome = await prepared.send(this.ports.transport(context.target));
    // An order that may exist is said so (the model's decision), never "retry".
    if (!outcome.ok) throw failureError(op.path, wire.body, outcome.error);
    const answer = outcome.answer;
    const idField = orderIdField(op);
    const newOrderId = answer.accepted && idField !== undefined;
    // The sandbox refuses an order id it has seen: the next send gets a fresh one.
    if (newOrderId) this.setValue(idField, testValues(op, this.ports.runtime.clock(), place)[idField] ?? '');
    return {
      which,
      mistakeId: which === 'mistaken' ? mistake : null,
      mistakeTitle: which === 'mistaken' && mistake ? (mistakeById(mistake).teachingSwitch ?? null) : null,
      request: wire,
      signingInput: side.signingInput,
      correctSigningInput: r.correct.signingInput,
      answer,
      newOrderId,
    };
  }

  private set(next: Partial<TeachingSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    this.snap.wrongKey = this.wrongKeyState();
    this.notify();
  }

  private setDraft(draft: RequestDraft): void {
    this.set(this.draftFacts(draft));
    this.recompute();
  }

  private draftFacts(draft: RequestDraft): DraftFacts {
    return factsOf(this.snap.op, draft, this.place);
  }

  private freshPinned(): Pinned {
    const { nonce, clock } = this.ports.runtime;
    return { nonce: nonce(), timestamp: toOAuthTimestamp(clock()) };
  }

  private otherId(): string {
    return this.typedOtherId ?? this.context?.otherEndpoint?.id ?? '';
  }

  private profile(): TeachingProfile | null {
    const c = this.context;
    return c ? { baseUrl: c.target.baseUrl, endpoint: c.endpoint, credentials: c.credentials } : null;
  }

  private wantsWrongRsaKey(): boolean {
    return this.snap.mistake === 'wrong-key' && this.snap.scheme === 'oauth-rsa-sha256';
  }

  private wrongKeyState(): TeachingSnapshot['wrongKey'] {
    if (!this.wantsWrongRsaKey()) return 'unwanted';
    return this.wrongPrivateKey ? 'ready' : 'making';
  }

  private afterMistake(): void {
    if (this.wantsWrongRsaKey() && !this.wrongPrivateKey && !this.makingKey) this.makeWrongKey();
    this.recompute();
  }

  private makeWrongKey(): void {
    this.makingKey = true;
    const make = this.ports.makeWrongKey ?? (() => rsa2048(this.ports.runtime));
    const run = make().then(
      (key) => {
        this.wrongPrivateKey = key;
        this.makingKey = false;
        this.set({});
        this.recompute();
      },
      (e: unknown) => {
        this.makingKey = false;
        this.set({ error: `The throwaway key could not be made: ${errorText(e)}` });
      },
    );
    void this.track(run);
  }

  private args(profile: TeachingProfile): TeachingArgs {
    const { op, draft, pinned, mistake, otherId } = this.snap;
    const { crypto, clock } = this.ports.runtime;
    return {
      op,
      draft,
      place: this.place,
      profile,
      pinned,
      mistake,
      crypto,
      clock,
      otherId,
      ...(this.wrongPrivateKey ? { wrongPrivateKey: this.wrongPrivateKey } : {}),
    };
  }

  /** Signs the current request, correct and mistaken, and its walkthrough; a later change wins. */
  private recompute(): void {
    const profile = this.profile();
    if (!profile) return;
    this.computedOnce = true;
    const generation = ++this.generation;
    const args = this.args(profile);
    const run = (async () => {
      try {
        const teach = await runTeaching(args);
        const walk = teachingWalkthrough(args, teach.correct.request);
        if (generation !== this.generation) return;
        const count = walk.steps.length;
        const step = this.snap.step >= count && count > 0 ? count - 1 : this.snap.step;
        this.set({ teach, walk, error: null, step });
      } catch (e) {
        if (generation === this.generation) this.set({ teach: null, walk: null, error: errorText(e) });
      }
    })();
    void this.track(run);
  }

  private track(run: Promise<unknown>): Promise<unknown> {
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }
}

function rsa2048(runtime: SigningRuntime): Promise<CryptoKey> {
  return runtime.crypto.subtle
    .generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      false,
      ['sign', 'verify'],
    )
    .then((pair) => pair.privateKey);
}
