import {
  decodeShareLink,
  encodeShareLink,
  prepareSharePreset,
  SHARE_FRAGMENT_KEY,
} from '../../exports/index.ts';
import type { FormPreset } from '../../shared/contracts/contracts.ts';
import { errorText } from './download.ts';

export type ShareFragment = { preset: FormPreset } | { error: string };

/** The preset of a `#share=…` fragment, an error that says what to do, or null when there is none. */
export function readShareFragment(hash: string): ShareFragment | null {
  if (!new RegExp(`^#?(?:.*&)?${SHARE_FRAGMENT_KEY}=`).test(hash)) return null;
  try {
    return { preset: decodeShareLink(hash) };
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
export function shareLinkFor(preset: FormPreset, origin: string): { url: string; leftOut: string[] } {
  const filled: FormPreset = {
    ...preset,
    values: Object.fromEntries(Object.entries(preset.values).filter(([, v]) => v !== '')),
  };
  const { dropped } = prepareSharePreset(filled);
  const fragment = encodeShareLink(filled);
  return {
    url: `${origin}/ops/${preset.operationPath}${fragment}`,
    leftOut: dropped.map((d) => `${d.name} (${REASON[d.reason] ?? d.reason})`),
  };
}
