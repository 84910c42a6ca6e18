/**
 * The life of one Send: the user can cancel it, and it gives up after a timeout the user sets.
 * Either way the request may already have reached the gateway, so the message says to check.
 */

/** The per-request timeout when the user has not chosen one: the gateway answers in a few seconds. */
export const DEFAULT_TIMEOUT_S = 30;
export const MIN_TIMEOUT_S = 1;
export const MAX_TIMEOUT_S = 600;

const STORAGE_KEY = 'pay-console.send-timeout-s';

export type AbortKind = 'cancelled' | 'timeout';

/** A Send that ended without an answer, because of the user or the timeout (stable codes). */
export class SendAborted extends Error {
  override readonly name = 'SendAborted';
  readonly code: 'SEND_CANCELLED' | 'SEND_TIMEOUT';
  constructor(
    readonly kind: AbortKind,
    readonly seconds: number,
    /** The body that was on its way (ids only are read from it, to check with status). */
    readonly sent: ReadonlyArray<{ name: string; value: string }> = [],
  ) {
    super(abortMessage(kind, seconds));
    this.code = kind === 'cancelled' ? 'SEND_CANCELLED' : 'SEND_TIMEOUT';
  }
}

export function abortMessage(kind: AbortKind, seconds: number): string {
  return kind === 'cancelled'
    ? 'Cancelled — the request may already have reached the gateway; check with status.'
    : `Timed out after ${seconds} s — the gateway may still have processed it; check with status.`;
}

/** The timeout typed by the user, or a sentence saying what to type. */
export function parseTimeoutSeconds(
  text: string,
): { ok: true; seconds: number } | { ok: false; message: string } {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < MIN_TIMEOUT_S || Number(t) > MAX_TIMEOUT_S) {
    return {
      ok: false,
      message: `The timeout is a whole number of seconds from ${MIN_TIMEOUT_S} to ${MAX_TIMEOUT_S}, e.g. ${DEFAULT_TIMEOUT_S}.`,
    };
  }
  return { ok: true, seconds: Number(t) };
}

export function loadTimeoutSeconds(storage: Storage | undefined = globalThis.localStorage): number {
  try {
    const r = parseTimeoutSeconds(storage?.getItem(STORAGE_KEY) ?? '');
    return r.ok ? r.seconds : DEFAULT_TIMEOUT_S;
  } catch {
    return DEFAULT_TIMEOUT_S;
  }
}

export function saveTimeoutSeconds(
  seconds: number,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  try {
    if (seconds === DEFAULT_TIMEOUT_S) storage?.removeItem(STORAGE_KEY);
    else storage?.setItem(STORAGE_KEY, String(seconds));
  } catch {
    // storage refused (private mode): the choice lasts for this page
  }
}

/**
 * One send's signal: aborted by {@link SendLifecycle.cancel} or after `seconds`. The timer is
 * the browser's (the console's core never reads a clock); {@link SendLifecycle.settle} clears it.
 */
export class SendLifecycle {
  private readonly user = new AbortController();
  private readonly timer = new AbortController();
  private readonly handle: ReturnType<typeof setTimeout>;
  readonly signal: AbortSignal;

  constructor(readonly seconds: number) {
    this.handle = setTimeout(() => this.timer.abort(), seconds * 1000);
    this.signal = AbortSignal.any([this.user.signal, this.timer.signal]);
  }

  cancel(): void {
    this.user.abort();
  }

  settle(): void {
    clearTimeout(this.handle);
  }

  /** Why the send stopped, if it was stopped: the user's cancel wins over a timeout at the same moment. */
  get aborted(): AbortKind | null {
    if (this.user.signal.aborted) return 'cancelled';
    if (this.timer.signal.aborted) return 'timeout';
    return null;
  }

  /** The error to show for a failure: a {@link SendAborted} when this lifecycle stopped it. */
  explain(error: unknown, sent: ReadonlyArray<{ name: string; value: string }> = []): unknown {
    const kind = this.aborted;
    return kind ? new SendAborted(kind, this.seconds, sent) : error;
  }
}
