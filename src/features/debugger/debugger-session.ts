import type { Clock, CryptoPort } from '../../core/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import {
  CAPTURE_FORMAT_LABEL,
  detectCaptureFormat,
  EMPTY_FORM,
  runDiagnosis,
  type DebuggerForm,
  type DebuggerRun,
  type RunOptions,
} from './run-diagnosis.ts';
import { Store } from '../../core/store.ts';

export interface DebuggerSnapshot {
  form: DebuggerForm;
  /** The control key shown as text. */
  revealKey: boolean;
  /** The active profile's private key checks RSA-SHA256 (it is never shown nor copied). */
  useProfileKey: boolean;
  /** The last Diagnose's answer, or null before one (and after Clear). */
  run: DebuggerRun | null;
  busy: boolean;
}

export interface DebuggerPorts {
  crypto: CryptoPort;
  clock: Clock;
  /** The debugger itself: `runDiagnosis` unless a spec holds its answer back. */
  diagnose?: (form: DebuggerForm, o: RunOptions) => Promise<DebuggerRun>;
}

type Alternative = DebuggerForm['alternatives'][number];

/**
 * The debugger page's state: what the boxes hold, the profile's keys taken or not, and the
 * diagnosis of the last Diagnose. Only the latest Diagnose answers: one still running when another
 * starts, or when the page is cleared, is dropped.
 */
export class DebuggerSession extends Store<DebuggerSnapshot> {
  protected snap: DebuggerSnapshot;
  private runId = 0;

  constructor(
    private readonly ports: DebuggerPorts,
    /** A capture that came with the link (`/debugger#capture=…`). */
    capture?: string,
  ) {
    super();
    this.snap = {
      form: capture === undefined ? EMPTY_FORM : { ...EMPTY_FORM, capture },
      revealKey: false,
      useProfileKey: false,
      run: null,
      busy: false,
    };
  }

  private update(next: Partial<DebuggerSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    this.notify();
  }

  set<K extends keyof DebuggerForm>(field: K, value: DebuggerForm[K]): void {
    this.update({ form: { ...this.snap.form, [field]: value } });
  }

  setRevealKey(revealed: boolean): void {
    this.update({ revealKey: revealed });
  }

  addAlternative(): void {
    this.set('alternatives', [...this.snap.form.alternatives, { label: '', controlKey: '' }]);
  }

  editAlternative(index: number, patch: Partial<Alternative>): void {
    const list = this.snap.form.alternatives.map((a, i) => (i === index ? { ...a, ...patch } : a));
    this.set('alternatives', list);
  }

  removeAlternative(index: number): void {
    this.set(
      'alternatives',
      this.snap.form.alternatives.filter((_, i) => i !== index),
    );
  }

  /** Fills the login, control key and endpoint from the profile; its private key is used, not copied. */
  useProfile(context: SigningContext): void {
    const c = context.credentials;
    this.update({
      form: {
        ...this.snap.form,
        login: c.login,
        controlKey: c.controlKey ?? '',
        ...(context.endpoint.kind === 'group'
          ? { endpointGroupId: context.endpoint.id }
          : { endpointId: context.endpoint.id }),
      },
      useProfileKey: c.privateKey !== undefined,
    });
  }

  stopUsingProfileKey(): void {
    this.update({ useProfileKey: false });
  }

  /** Diagnoses what the boxes hold; `context` is the active profile at the moment of the click. */
  async diagnose(context: SigningContext | null): Promise<void> {
    const id = ++this.runId;
    this.update({ busy: true });
    const privateKey = this.snap.useProfileKey ? context?.credentials.privateKey : undefined;
    const run = await (this.ports.diagnose ?? runDiagnosis)(this.snap.form, {
      crypto: this.ports.crypto,
      clock: this.ports.clock,
      ...(privateKey ? { profilePrivateKey: privateKey } : {}),
    });
    if (id !== this.runId) return;
    this.update({ run, busy: false });
  }

  clear(): void {
    this.runId++;
    this.update({ form: EMPTY_FORM, useProfileKey: false, revealKey: false, run: null, busy: false });
  }
}

/** The error of the last Diagnose that belongs under `field`, if any. */
export function fieldError(run: DebuggerRun | null, field: string): string | undefined {
  return run && !run.ok && run.field === field ? run.message : undefined;
}

/** What the "Detected format" line says of the pasted capture. */
export function detectedFormatText(form: Pick<DebuggerForm, 'capture' | 'format'>): string {
  if (form.format !== 'auto') return `Read as a ${CAPTURE_FORMAT_LABEL[form.format]} (chosen)`;
  if (form.capture.trim() === '') return 'Nothing pasted yet';
  const detected = detectCaptureFormat(form.capture);
  return detected
    ? `Detected: ${CAPTURE_FORMAT_LABEL[detected]}`
    : 'Not recognised: paste raw HTTP, a curl command, a HAR entry or a key=value log line';
}
