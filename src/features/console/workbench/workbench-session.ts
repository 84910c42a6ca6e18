import type { EndpointRef } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import {
  draftKey,
  missingValues,
  returnUrlOf,
  type Place,
  type RequestDraft,
  type WithheldReason,
} from '../../../model/index.ts';
import { parseTimeoutSeconds } from '../send/send-timeout.ts';
import { freshOrderId, testDataFor } from '../form/test-data.ts';
import { Store } from '../../../core/store.ts';

type Withheld = Readonly<Record<string, WithheldReason>>;

/** The form and the page around it, as the session reads and moves them. */
export interface WorkbenchPorts {
  /** Milliseconds since the epoch (the app's runtime clock): dates the test data. */
  clock: () => number;
  /** The timeout kept between visits (send-timeout.ts and localStorage in the browser). */
  timeouts: { load(): number; save(seconds: number): void };
  /** The form's request now. */
  draft: () => RequestDraft;
  /** Runs the form's checks: the names of the fields that fail them, none when it may be sent. */
  check: () => Promise<string[]>;
  focusField: (name: string) => void;
  focusTimeout: () => void;
  /** Whether the active profile's target is a production gateway. */
  production: () => boolean;
  /** Whether a send is under way (the SendSession's snapshot). */
  sending: () => boolean;
  /** Starts the send (the SendSession), with the timeout to give it. */
  send: (timeoutSeconds: number) => void;
  /** A new order id for the test data (random in the browser). */
  orderId?: (now: number) => string;
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
}

/**
 * The workbench around its Send, headless: the opened request's endpoint and withheld values, the
 * road to a send (timeout, withheld values, the form's checks, production confirmation), the
 * timeout box, the send-on-open, test-data fills and whether the answer still matches the form.
 */
export class WorkbenchSession extends Store<WorkbenchSnapshot> {
  protected snap: WorkbenchSnapshot;
  private sendOnOpen: boolean;
  private sentKey: string | null = null;
  private fills = 0;

  constructor(
    private readonly op: Operation,
    private readonly ports: WorkbenchPorts,
    opened: WorkbenchOpened = {},
  ) {
    super();
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
    };
    this.sendOnOpen = opened.sendOnOpen ?? false;
  }

  private set(next: Partial<WorkbenchSnapshot>): void {
    // Typing calls formChanged on every key: no new snapshot (no render) unless something changed.
    if ((Object.keys(next) as (keyof WorkbenchSnapshot)[]).every((k) => this.snap[k] === next[k])) return;
    this.snap = { ...this.snap, ...next };
    this.notify();
  }

  useProfileEndpoint(): void {
    this.set({ endpoint: undefined });
  }

  /** The form was cleared: no failed checks, nothing withheld any more. */
  cleared(): void {
    this.set({ invalid: null, withheld: undefined });
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

  /** The form's request now (the failed Send's summary reads what can be signed). */
  draft(): RequestDraft {
    return this.ports.draft();
  }

  /** Send, or say first what stands in the way; `force` skips the form's checks ("Send anyway"). */
  async requestSend(force = false): Promise<void> {
    if (this.ports.sending()) return;
    if (!this.snap.timeout.ok) return this.ports.focusTimeout();
    // Not even "send anyway" without a value the opened request had: it would send less.
    if (missingValues(this.ports.draft())[0]) {
      return this.set({ invalid: null, refusals: this.snap.refusals + 1 });
    }
    if (!force) {
      const names = await this.ports.check();
      if (names[0] !== undefined) {
        this.set({ invalid: names });
        return this.ports.focusField(names[0]);
      }
    }
    if (this.op.movesMoney && this.ports.production()) return this.set({ confirming: true });
    this.send();
  }

  /** Sends now (the production confirmation said yes). */
  send(): void {
    this.set({ confirming: false, invalid: null });
    this.ports.send(this.timeoutSeconds());
  }

  cancelConfirmation(): void {
    this.set({ confirming: false });
  }

  /** A profile is active: the send asked for on opening goes, once, through requestSend. */
  profileReady(): Promise<void> {
    if (!this.sendOnOpen) return Promise.resolve();
    this.sendOnOpen = false;
    return this.requestSend();
  }

  /** The answer on screen belongs to the request with this draft key. */
  answered(sentKey: string): void {
    this.sentKey = sentKey;
    this.set({ stale: false });
  }

  /** The form changed (every keystroke): only a flip of `stale` makes a new snapshot. */
  formChanged(draft: RequestDraft): void {
    if (this.sentKey !== null) this.set({ stale: draftKey(draft) !== this.sentKey });
  }

  /** Test data for the form, dated by the clock; `fill` tells whether a later fill replaced it. */
  testData(cvv: string, place: Place): { values: Record<string, string>; now: number; fill: number } {
    const now = this.ports.clock();
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
}
