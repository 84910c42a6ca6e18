/** When something happens, on an injected clock: `after` schedules and returns its cancel. */
import { asError } from '../core/errors.ts';
export interface Timers {
  now(): number;
  after(ms: number, run: () => void): () => void;
}

export const browserTimers: Timers = {
  now: () => Date.now(),
  after(ms, run) {
    const t = setTimeout(run, ms);
    return () => clearTimeout(t);
  },
};

type State<T> =
  { status: 'idle' | 'pending' } | { status: 'success'; data: T } | { status: 'error'; error: Error };

/**
 * A value fetched once and kept (TanStack's useQuery with `staleTime: Infinity`, without TanStack on
 * the first page), headless: the profiles model and `useResource` (use-async.ts) share it. A failed
 * first fetch is retried once after a second, as the app's queries are. `initial`: an answer
 * already in hand (nothing is fetched until a reset).
 */
export class RemoteValue<T> {
  #state: State<T>;
  // The generation whose fetch has started; a reset starts a new one and drops the old one's answers.
  #started: number;
  #generation = 0;

  readonly #fetch: () => Promise<T>;
  readonly #timers: Timers;
  readonly #onChange: () => void;

  constructor(fetch: () => Promise<T>, timers: Timers, onChange: () => void, initial?: T) {
    this.#fetch = fetch;
    this.#timers = timers;
    this.#onChange = onChange;
    this.#state = initial === undefined ? { status: 'idle' } : { status: 'success', data: initial };
    this.#started = initial === undefined ? -1 : 0;
  }

  get data(): T | undefined {
    return this.#state.status === 'success' ? this.#state.data : undefined;
  }

  get error(): Error | null {
    return this.#state.status === 'error' ? this.#state.error : null;
  }

  /** True until the first answer while wanted. */
  pending(wanted: boolean): boolean {
    return this.#state.status === 'pending' || (wanted && this.#state.status === 'idle');
  }

  /** Starts this generation's fetch unless it has started (quietly: the caller renders next). */
  want(): void {
    if (this.#started === this.#generation) return;
    this.#started = this.#generation;
    this.#state = { status: 'pending' };
    this.#load(this.#generation, 1);
  }

  /** Fetches again, keeping the current data until the answer. */
  refetch = (): void => this.#load(this.#generation, 0);

  /** Forgets the data; the next `want` fetches again. */
  reset = (): void => {
    this.#generation += 1;
    this.#state = { status: 'idle' };
    this.#onChange();
  };

  #load(gen: number, retries: number): void {
    this.#fetch().then(
      (data) => this.#set(gen, { status: 'success', data }),
      (e: unknown) =>
        retries > 0
          ? this.#timers.after(1000, () => gen === this.#generation && this.#load(gen, retries - 1))
          : this.#set(gen, { status: 'error', error: asError(e) }),
    );
  }

  #set(gen: number, state: State<T>): void {
    if (gen !== this.#generation) return;
    this.#state = state;
    this.#onChange();
  }
}
