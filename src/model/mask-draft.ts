import { scrubText } from '../catalog/index.ts';
import type { DraftValue, RequestDraft } from './request-draft.ts';
import { prepareShareDraft } from './share-link.ts';

// Apart from share-link.ts, which the first page loads: history and saved requests load this.
/**
 * The draft as the console keeps it (history, saved requests): the share link's policy (no card
 * number, CVV, secret or signature), then every text value scrubbed of card numbers and keys.
 */
export function maskDraft(draft: RequestDraft): RequestDraft {
  const clean = prepareShareDraft(draft).draft;
  const scrub = (v: DraftValue): DraftValue => (typeof v === 'string' ? scrubText(v) : v);
  return {
    ...clean,
    values: Object.fromEntries(Object.entries(clean.values).map(([k, v]) => [k, scrub(v)])),
    extras: clean.extras.map((e) => ({ name: e.name, value: scrub(e.value) })),
  };
}
