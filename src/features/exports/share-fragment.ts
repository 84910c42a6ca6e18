import type { RequestDraft } from '../../model/index.ts';
import {
  decodeShareLink,
  encodeShareLink,
  prepareShareDraft,
  SHARE_FRAGMENT_KEY,
} from '../../model/share-link.ts';
import { errorText } from '../../core/errors.ts';

export type ShareFragment = { draft: RequestDraft } | { error: string };

/** The draft of a `#share=…` fragment, an error that says what to do, or null when there is none. */
export function readShareFragment(hash: string): ShareFragment | null {
  if (!new RegExp(`^#?(?:.*&)?${SHARE_FRAGMENT_KEY}=`).test(hash)) return null;
  try {
    return { draft: decodeShareLink(hash) };
  } catch (e) {
    return { error: errorText(e) };
  }
}

const REASON: Record<string, string> = {
  cvv: 'CVV',
  'card-number': 'card number',
  secret: 'secret',
  signature: 'signature, computed again',
};

/** The link to share and what was left out of it. */
export function shareLinkFor(draft: RequestDraft, origin: string): { url: string; leftOut: string[] } {
  const filled: RequestDraft = {
    ...draft,
    values: Object.fromEntries(Object.entries(draft.values).filter(([, v]) => v !== '')),
  };
  const { dropped } = prepareShareDraft(filled);
  const fragment = encodeShareLink(filled);
  return {
    url: `${origin}/ops/${draft.operation}${fragment}`,
    leftOut: dropped.map((d) => `${d.name} (${REASON[d.reason] ?? d.reason})`),
  };
}
