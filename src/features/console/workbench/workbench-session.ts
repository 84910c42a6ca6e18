import type { EndpointRef } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import {
  draftFromValues,
  draftKey,
  missingValues,
  returnUrlOf,
  type RequestDraft,
  type SigningEnv,
  type WithheldReason,
} from '../../../model/index.ts';
import { signingEnvFor } from '../../../model/signing-context.ts';
import { Store } from '../../../core/store.ts';
import { parseTimeoutSeconds } from '../send/send-timeout.ts';
import type { SendSession, SendSnapshot } from '../send/send-session.ts';
import type { WorkbenchPorts, WorkbenchWhere } from './workbench-ports.ts';
import { freshOrderId, testDataFor } from '../form/test-data.ts';
import { fromFormulaRows, toFormulaRows } from '../form/form-params.ts';
import type { FieldValues, MetaValues } from '../form/meta.ts';
import type { LiveRequest } from '../panes/build.ts';
import { LiveBuild } from './live-build.ts';
import { resolveWorkbenchVariables } from '../variables/workbench-variables.ts';

export type { WorkbenchPorts, WorkbenchWhere } from './workbench-ports.ts';

type Withheld = Readonly<Record<string, WithheldReason>>;

/** What the form holds: the operation's fields and the rest (extra rows, formula, scheme, pin). */
export interface FormState {
  values: FieldValues;
  meta: Partial<MetaValues>;
}

export interface WorkbenchOpened {
  /** The endpoint the opened request came with, used instead of the profile's. */
  endpoint?: EndpointRef | undefined;
  /** Values the opened request came without. */
  withheld?: Withheld | undefined;
  /** Send once as soon as a profile is active ("re-send in one click"). */
  sendOnOpen?: boolean | undefined;
}

export interface WorkbenchSnapshot {
  endpoint: EndpointRef | undefined;
  withheld: Withheld | undefined;
  /** Names of the fields that failed the checks of the last Send (or a sentence to show), or null. */
  invalid: string[] | null;
  /** Sends refused for missing withheld values (the box above the form says which). */
  refusals: number;
  /** A money-moving request to a production target waits for this confirmation. */
  confirming: boolean;
  timeoutText: string;
  timeout: ReturnType<typeof parseTimeoutSeconds>;
  /** The form no longer matches the request of the answer on screen. */
  stale: boolean;
  live: LiveRequest;
  send: SendSnapshot;
}

const NO_VARIABLES: LiveRequest['variables'] = { uses: [], unresolved: [] };
const IDLE: SendSnapshot = { pending: false, outcome: null, error: null, unknown: null };
// The send (the SendSession, then the model's exchange) loads with the first Send: not on the first page.
const loadSend = () => import('./workbench-send.ts');
type Sending = {
  sender: SendSession;
  job: Awaited<ReturnType<typeof loadSend>>['sendJob'];
};

/**
 * The workbench of one operation, headless: the form's values → the draft → the live build (once
 * per change) → the send → the answer, as one snapshot. It also holds the road to a send (timeout,
 * withheld values, the form's checks, production confirmation), the opened request's endpoint,
 * send-on-open, test-data fills and whether the answer still matches the form. The view only
 * reports the form's changes and the user's intents, and renders the snapshot.
 */
export class WorkbenchSession extends Store<WorkbenchSnapshot> {
  protected snap: WorkbenchSnapshot;
  private sendOnOpen: boolean;
  private sentKey: string | null = null;
  private fills = 0;
  private at: WorkbenchWhere;
  private form: FormState = { values: {}, meta: {} };
  /** The form's draft as typed, and with its variables resolved (what is signed and sent). */
  private typed: RequestDraft;
  private resolved: RequestDraft;
  private key = '';
  private readonly live: LiveBuild;
  private sender: Sending | null = null;
  private loading: Promise<Sending> | null = null;
  /** Cancelled (the operation left) while the first send was loading: it does not go. */
  private dropped = false;
  private unwatchVariables: (() => void) | null = null;

  constructor(
    private readonly op: Operation,
    private readonly ports: WorkbenchPorts,
    where: WorkbenchWhere,
    opened: WorkbenchOpened = {},
  ) {
    super();
    this.at = where;
    this.live = new LiveBuild(ports.runtime, (result) => this.setLive({ result }));
    const timeoutText = String(ports.timeouts.load());
    this.snap = {
      endpoint: opened.endpoint,
      withheld: opened.withheld,
      invalid: null,
      refusals: 0,
      confirming: false,
      timeoutText,
      timeout: parseTimeoutSeconds(timeoutText),
      stale: false,
      live: { result: null, pinned: false, variables: NO_VARIABLES },
      send: IDLE,
    };
    this.sendOnOpen = opened.sendOnOpen ?? false;
    this.typed = this.resolved = this.draftOf(this.form);
  }

  private set(next: Partial<WorkbenchSnapshot>): void {
    // Typing reports every key: no new snapshot (no render) unless something changed.
    if ((Object.keys(next) as (keyof WorkbenchSnapshot)[]).every((k) => this.snap[k] === next[k])) return;
    this.publish({ ...this.snap, ...next });
  }

  private setLive(next: Partial<LiveRequest>): void {
    this.set({ live: { ...this.snap.live, ...next } });
  }

  // A profile's variables edited elsewhere (another tab, the variables panel) sign again.
  protected override onFirstListener(): void {
    this.unwatchVariables = this.ports.variables.subscribe(() => this.derive(false));
  }

  protected override onLastListener(): void {
    this.unwatchVariables?.();
    this.unwatchVariables = null;
  }

  /** The form changed (every keystroke, inside its input event): one draft, at most one build. */
  formChanged(form: FormState): void {
    this.form = form;
    this.derive();
  }

  /** The active profile or this console's place changed; a send asked for on opening goes now. */
  profileChanged(where: WorkbenchWhere): Promise<void> {
    if (where.context !== this.at.context || where.place !== this.at.place) {
      this.at = where;
      this.derive();
    }
    if (!where.context || !this.sendOnOpen) return Promise.resolve();
    this.sendOnOpen = false;
    // Through requestSend, so the form's checks and the production confirmation still apply.
    return this.requestSend();
  }

  useProfileEndpoint(): void {
    this.set({ endpoint: undefined });
    this.derive();
  }

  /** The form was cleared: no failed checks, nothing withheld any more. */
  cleared(): void {
    this.set({ invalid: null, withheld: undefined });
    this.derive();
  }

  /** Shows a list of names or sentences where the failed checks go (or hides it with null). */
  showInvalid(invalid: string[] | null): void {
    this.set({ invalid });
  }

  setTimeoutText(text: string): void {
    const timeout = parseTimeoutSeconds(text);
    if (timeout.ok) this.ports.timeouts.save(timeout.seconds);
    this.set({ timeoutText: text, timeout });
  }

  /** The timeout a send gets: the one typed, else the one kept. */
  timeoutSeconds(): number {
    return this.snap.timeout.ok ? this.snap.timeout.seconds : this.ports.timeouts.load();
  }

  /** The form's request now, as typed (the failed Send's summary reads what can be signed). */
  draft(): RequestDraft {
    return this.typed;
  }

  /** The nonce and timestamp the panes show for an OAuth request (the pin box takes them), else null. */
  readonly preview = (): { nonce: string; timestamp: string } | null => {
    const r = this.snap.live.result;
    const s = r?.ok ? r.built.signing : null;
    return s && s.scheme !== 'control' ? { nonce: s.nonce, timestamp: s.timestamp } : null;
  };

  /** The active profile with this place and the runtime, or null without a profile. */
  signingEnv(): SigningEnv | null {
    const { context, place } = this.at;
    return context ? signingEnvFor(context, place, this.ports.runtime) : null;
  }

  /** The active profile (or null) and this console's place, as last told. */
  where(): WorkbenchWhere {
    return this.at;
  }

  /** Send, or say first what stands in the way; `force` skips the form's checks ("Send anyway"). */
  async requestSend(force = false): Promise<void> {
    if (this.snap.send.pending) return;
    if (!this.snap.timeout.ok) return this.ports.focusTimeout();
    // Not even "send anyway" without a value the opened request had: it would send less.
    if (missingValues(this.typed)[0]) {
      return this.set({ invalid: null, refusals: this.snap.refusals + 1 });
    }
    if (!force) {
      const names = await this.ports.check();
      if (names[0] !== undefined) {
        this.set({ invalid: names });
        return this.ports.focusField(names[0]);
      }
    }
    if (this.op.movesMoney && this.at.context?.target.kind === 'production')
      return this.set({ confirming: true });
    return this.send();
  }

  /** Sends now (the production confirmation said yes). */
  async send(): Promise<void> {
    this.set({ confirming: false, invalid: null });
    const seconds = this.timeoutSeconds();
    const { sender, job } = await this.sending();
    if (this.dropped) return;
    return sender.send(() => job(this.op, this.ports, this.at, this.resolved, this.key, this.live, seconds));
  }

  cancelConfirmation(): void {
    this.set({ confirming: false });
  }

  /** Stops the send under way (the user's Cancel, or leaving the operation). */
  cancel(): void {
    if (this.sender) this.sender.sender.cancel();
    else if (this.loading) this.dropped = true;
  }

  /** Sends the last request again, identical (an unknown outcome's "Send again"). */
  resend(): Promise<void> {
    return this.sender ? this.sender.sender.resend() : Promise.resolve();
  }

  /** Test data for the form, dated by the clock; `fill` tells whether a later fill replaced it. */
  testData(cvv: string): { values: Record<string, string>; now: number; fill: number } {
    const now = this.ports.runtime.clock();
    const { place } = this.at;
    const values = testDataFor(this.op, {
      cvv,
      callbackUrl: place.inboxUrl,
      returnUrl: returnUrlOf(place),
      now: new Date(now),
      orderId: (this.ports.orderId ?? freshOrderId)(now),
    });
    return { values, now, fill: ++this.fills };
  }

  /** Whether this fill is the latest (an earlier one that finishes late must not overwrite it). */
  isLatestFill(fill: number): boolean {
    return fill === this.fills;
  }

  private draftOf({ values, meta: m }: FormState): RequestDraft {
    const op = this.op;
    return draftFromValues(
      op,
      {
        values,
        extras: (m.extras ?? []).map((e) => ({ name: e.name, value: e.value })),
        scheme: m.scheme ?? op.scheme,
        formula: fromFormulaRows(m.formula ?? toFormulaRows(op.formula ?? [])),
        pinned: m.pin ? { nonce: m.nonce ?? '', timestamp: m.timestamp ?? '' } : undefined,
        endpoint: this.snap.endpoint,
        withheld: this.snap.withheld,
      },
      this.at.place,
    );
  }

  /**
   * The draft from the form (unless only the variables changed), its variables resolved, the stale
   * mark, and the live build.
   */
  private derive(typedChanged = true): void {
    if (typedChanged) this.typed = this.draftOf(this.form);
    const applied = resolveWorkbenchVariables(
      this.typed,
      this.at.context,
      this.ports.variables.getSnapshot(),
    );
    this.resolved = applied.draft;
    this.key = draftKey(applied.draft);
    if (typedChanged) this.ports.draftChanged?.(this.typed);
    if (this.sentKey !== null) this.set({ stale: this.key !== this.sentKey });
    const live = this.snap.live;
    const pinned = applied.draft.pinned !== undefined;
    const variables = sameUses(live.variables, applied)
      ? live.variables
      : { uses: applied.uses, unresolved: applied.unresolved };
    if (pinned !== live.pinned || variables !== live.variables) this.setLive({ pinned, variables });
    if (this.at.context) this.live.build(this.resolved, this.key, this.at.context, this.at.place);
  }

  /** The send, made on first use (its module with it); its snapshot is this one's `send`. */
  private sending(): Promise<Sending> {
    return (this.loading ??= loadSend().then((m) => {
      const sender = m.workbenchSender(this.ports, () => this.at, {
        built: (key, built) => {
          if (this.at.context) this.live.show(key, this.at.context, built);
        },
        answered: (key) => {
          this.sentKey = key;
          this.set({ stale: false });
        },
      });
      sender.subscribe(() => this.set({ send: sender.getSnapshot() }));
      return (this.sender = { sender, job: m.sendJob });
    }));
  }
}

function sameUses(a: LiveRequest['variables'], b: LiveRequest['variables']): boolean {
  if (a.uses.length + a.unresolved.length + b.uses.length + b.unresolved.length === 0) return true;
  return JSON.stringify([a.uses, a.unresolved]) === JSON.stringify([b.uses, b.unresolved]);
}
