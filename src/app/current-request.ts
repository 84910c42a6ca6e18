import { Cell } from '../core/store.ts';
import type { RequestDraft } from '../model/index.ts';
import { useStore } from '../ui/use-store.ts';

/** The workbench's current request, kept outside React state so typing re-renders only its readers. */
const current = new Cell<RequestDraft | null>(null);

export const setCurrentRequest: (draft: RequestDraft) => void = current.set;

export function useCurrentRequest(): RequestDraft | null {
  return useStore(current);
}
