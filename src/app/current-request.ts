import { useSyncExternalStore } from 'react';
import type { FormPreset } from '../shared/contracts/contracts.ts';

/** The workbench's current request, kept outside React state so typing re-renders only its readers. */
let current: FormPreset | null = null;
const listeners = new Set<() => void>();

export function setCurrentRequest(preset: FormPreset): void {
  current = preset;
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useCurrentRequest(): FormPreset | null {
  return useSyncExternalStore(subscribe, () => current);
}
