import { useSyncExternalStore } from 'react';
import type { RequestDraft } from '../model/index.ts';

/** The workbench's current request, kept outside React state so typing re-renders only its readers. */
let current: RequestDraft | null = null;
const listeners = new Set<() => void>();

export function setCurrentRequest(draft: RequestDraft): void {
  current = draft;
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useCurrentRequest(): RequestDraft | null {
  return useSyncExternalStore(subscribe, () => current);
}
