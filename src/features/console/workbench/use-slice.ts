import { useSyncExternalStore } from 'react';
import type { ReadableStore } from '../../../core/store.ts';

/**
 * One part of a store's snapshot (a field, never a new object): the view re-renders only when that
 * part changes, so a keystroke's new live build renders the panes and not the form around them.
 */
export function useSlice<S, T>(store: ReadableStore<S>, select: (snapshot: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getSnapshot()));
}
