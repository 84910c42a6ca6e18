/**
 * The one listener set of the headless models (after TanStack Query's `Subscribable`): a class
 * keeps its state, calls {@link Subscribable.notify} when it changed, and a view reads it with
 * `useStore` (`src/ui/use-store.ts`, React's `useSyncExternalStore`). Framework-free, so the model,
 * the browser IO and the features all build on it. `subscribe` and `getSnapshot` are bound, so they
 * can be handed on as they are.
 */
export interface ReadableStore<S> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): S;
}

/** A listener set: `subscribe` returns the removal; a subclass tells its listeners with `notify`. */
export class Subscribable {
  readonly #listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    const first = this.#listeners.size === 0;
    this.#listeners.add(listener);
    if (first) this.onFirstListener();
    return () => {
      if (this.#listeners.delete(listener) && this.#listeners.size === 0) this.onLastListener();
    };
  };

  protected notify(): void {
    for (const l of this.#listeners) l();
  }

  /** Called when the first listener arrives (start watching a source), and when the last leaves. */
  protected onFirstListener(): void {}
  protected onLastListener(): void {}
}

/**
 * A listener set with a snapshot: immutable values, a new one per change. The subclass declares
 * `protected snap` with its first value (a field, so it may read the subclass's other fields).
 */
export abstract class Store<S> extends Subscribable implements ReadableStore<S> {
  protected abstract snap: S;

  readonly getSnapshot = (): S => this.snap;

  /** Replaces the snapshot and tells the listeners. */
  protected publish(next: S): void {
    this.snap = next;
    this.notify();
  }
}

/** A store its owner writes from outside: a module's one value (the route, the current request). */
export class Cell<S> extends Store<S> {
  constructor(protected snap: S) {
    super();
  }

  readonly set = (next: S): void => this.publish(next);
}

/** "It happened", with no value: keys dropped, history cleared. */
export class Signal extends Subscribable {
  readonly fire = (): void => this.notify();
}
