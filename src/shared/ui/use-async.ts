/**
 * A small async-state hook for the first page. TanStack Query (about 10 KB gzip) is what the other
 * pages use; the profile bar only needs "fetch this once", so the first form loads without TanStack.
 * (The workbench's send is a headless `SendSession`.)
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type AsyncState<T> =
  | { status: 'idle'; data: undefined; error: null }
  | { status: 'pending'; data: undefined; error: null }
  | { status: 'success'; data: T; error: null }
  | { status: 'error'; data: undefined; error: Error };

const IDLE = { status: 'idle', data: undefined, error: null } as const;
const PENDING = { status: 'pending', data: undefined, error: null } as const;
const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

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
 * Data fetched once while `enabled` and kept (TanStack's useQuery with `staleTime: Infinity`); a
 * failed fetch is retried once after a second, as the rest of the app's queries are. `initial`:
 * an answer already in hand (the first render shows it, nothing is fetched until a reset).
 */
export function useResource<T>(fn: () => Promise<T>, enabled = true, initial?: T): Resource<T> {
  const [state, setState] = useState<AsyncState<T>>(() =>
    initial === undefined ? IDLE : { status: 'success', data: initial, error: null },
  );
  const [generation, setGeneration] = useState(0);
  const latest = useRef(fn);
  latest.current = fn;
  // The generation whose fetch has started; a reset starts a new one, and answers to an old one are
  // dropped. An initial answer (already fetched) counts as generation 0's.
  const started = useRef(initial === undefined ? -1 : 0);
  const current = useRef(0);

  useEffect(() => {
    if (!enabled || started.current === generation) return;
    started.current = generation;
    const gen = generation;
    setState(PENDING);
    const attempt = (left: number): void => {
      latest.current().then(
        (data) => gen === current.current && setState({ status: 'success', data, error: null }),
        (e: unknown) => {
          if (gen !== current.current) return;
          if (left > 0) setTimeout(() => gen === current.current && attempt(left - 1), 1000);
          else setState({ status: 'error', data: undefined, error: asError(e) });
        },
      );
    };
    attempt(1);
  }, [enabled, generation]);

  const refetch = useCallback(() => {
    const gen = current.current;
    latest.current().then(
      (data) => gen === current.current && setState({ status: 'success', data, error: null }),
      (e: unknown) =>
        gen === current.current && setState({ status: 'error', data: undefined, error: asError(e) }),
    );
  }, []);
  const reset = useCallback(() => {
    current.current += 1;
    setState(IDLE);
    setGeneration(current.current);
  }, []);
  return {
    data: state.data,
    error: state.error,
    isError: state.status === 'error',
    isPending: state.status === 'pending' || (enabled && state.status === 'idle'),
    refetch,
    reset,
  };
}
