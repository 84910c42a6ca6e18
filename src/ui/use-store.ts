import { useSyncExternalStore } from 'react';
import type { ReadableStore } from '../core/store.ts';

/** A headless model's snapshot, re-rendering on each change (React renders a store's change at once). */
export function useStore<S>(store: ReadableStore<S>): S {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
