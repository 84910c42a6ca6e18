/**
 * A small async-state hook for the first page. TanStack Query (about 10 KB gzip) is what the other
 * pages use; the shell only needs "fetch this once", so the first form loads without TanStack.
 * (The workbench's send is a headless `SendSession`, the profiles a headless `ProfilesSession`.)
 */
import { useEffect, useReducer, useRef, useState } from 'react';
import { browserTimers, RemoteValue } from './remote-value.ts';

export interface Resource<T> {
  data: T | undefined;
  error: Error | null;
  isError: boolean;
  /** True until the first answer (or while enabled and not yet answered). */
  isPending: boolean;
  /** Fetches again, keeping the current data until the answer. */
  refetch: () => void;
  /** Forgets the data; it is fetched again while enabled. */
  reset: () => void;
}

/**
 * Data fetched once while `enabled` and kept (a `RemoteValue`: TanStack's useQuery with
 * `staleTime: Infinity`); a failed fetch is retried once after a second. `initial`: an answer
 * already in hand (the first render shows it, nothing is fetched until a reset).
 */
export function useResource<T>(fn: () => Promise<T>, enabled = true, initial?: T): Resource<T> {
  const latest = useRef(fn);
  latest.current = fn;
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const [value] = useState(() => new RemoteValue(() => latest.current(), browserTimers, changed, initial));
  useEffect(() => {
    if (enabled) value.want();
  });
  const { data, error } = value;
  return {
    data,
    error,
    isError: error !== null,
    isPending: value.pending(enabled),
    refetch: value.refetch,
    reset: value.reset,
  };
}
