import { errorReply, type ApiReply } from './replies.ts';

/** The environment variable of the per-client budget, named in every refusal. */
export const HELD_PER_CLIENT_ENV = 'SANDBOX_HELD_PER_CLIENT';
export const HELD_PER_CLIENT_DEFAULT = 16;

/** A slot of a held answer, released once the answer went (or the connection was reset). */
export type Release = () => void;

/**
 * Held answers per client and in all. Each held answer keeps a connection open for its delay, and
 * the server's connection cap is shared: without a bound one client holding answers (a scenario of
 * up to ten minutes, sent as fast as it can) fills the cap and every other client is refused at
 * connect. A client holds at most `perClient` answers at once and all clients together at most
 * `total` (half the connection cap); a call beyond either is refused before the operation runs.
 */
export class HeldBudget {
  /** Per client, the end times of its held answers. */
  private readonly held = new Map<string, number[]>();
  private count = 0;

  constructor(
    readonly perClient: number,
    readonly total: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a slot for `ms`; undefined when the client (or the server) holds its maximum already. */
  take(client: string, ms: number): Release | undefined {
    const ends = this.held.get(client) ?? [];
    if (ends.length >= this.perClient || this.count >= this.total) return undefined;
    const end = this.now() + ms;
    ends.push(end);
    this.held.set(client, ends);
    this.count += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count -= 1;
      const list = this.held.get(client);
      if (!list) return;
      const i = list.indexOf(end);
      if (i !== -1) list.splice(i, 1);
      if (list.length === 0) this.held.delete(client);
    };
  }

  /** Held answers of one client now (tests, the refusal's wording). */
  heldBy(client: string): number {
    return this.held.get(client)?.length ?? 0;
  }

  /** Whole seconds until the client's (or, when it holds none, anyone's) first held answer ends; at least 1. */
  retryAfterSec(client: string): number {
    let first = Infinity;
    const mine = this.held.get(client);
    for (const list of mine ? [mine] : this.held.values())
      for (const end of list) first = Math.min(first, end);
    if (!Number.isFinite(first)) return 1;
    return Math.max(1, Math.ceil((first - this.now()) / 1000));
  }

  /** The 429 of a call beyond the budget: nothing was done, when to retry, and the setting. */
  refusal(client: string): ApiReply {
    const retry = this.retryAfterSec(client);
    const mine = this.heldBy(client) >= this.perClient;
    const message = mine
      ? `Too many held answers: this client already holds ${this.perClient} answers delayed by a scenario (latency, processed-timeout), the most one client may (${HELD_PER_CLIENT_ENV}=${this.perClient}). Nothing was done: retry in ${retry} s, once one has been answered.`
      : `Too many held answers on this server: ${this.total} answers delayed by a scenario are open, half the connection cap (SERVER_MAX_CONNECTIONS). Nothing was done: retry in ${retry} s. Each client may hold ${HELD_PER_CLIENT_ENV}=${this.perClient}.`;
    const r = errorReply(429, message, 'HELD_ANSWERS_LIMIT');
    return { ...r, headers: { ...(r.headers ?? {}), 'retry-after': String(retry), connection: 'close' } };
  }
}
