/**
 * The life of one Send: the user can cancel it, and it gives up after a timeout the user sets.
 * Either way the request may already have reached the gateway, so the message says to check.
 */

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
