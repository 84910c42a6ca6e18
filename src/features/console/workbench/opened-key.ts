import type { RequestDraft } from '../../../model/index.ts';

const draftIds = new WeakMap<RequestDraft, number>();
let nextDraftId = 1;

/** One key per opened draft object, so that opening another draft remounts the workbench. */
export function openedKey(d: RequestDraft | null | undefined): string {
  if (!d) return 'none';
  let id = draftIds.get(d);
  if (id === undefined) {
    id = nextDraftId++;
    draftIds.set(d, id);
  }
  return String(id);
}
