import { containsPrivateKey, findOperation, isCvvName, isSecretName, scrubText } from '../catalog/index.ts';
import type { DraftValue, RequestDraft } from './request-draft.ts';
import { prepareShareDraft } from './share-link.ts';

// Apart from share-link.ts, which the first page loads: history and saved requests load this.
/**
 * The draft as the console keeps it (history, saved requests): the share link's policy (card
 * numbers, CVVs and secrets withheld, signatures left out), then every text value that would lose
 * something to scrubbing (a CVV or a private key inside free text) withheld as well, so that a
 * send from the kept draft asks for it instead of sending less.
 */
export function maskDraft(draft: RequestDraft): RequestDraft {
  const clean = prepareShareDraft(draft).draft;
  const scrub = (v: DraftValue): DraftValue =>
    typeof v !== 'string' || scrubText(v) === v ? v : { withheld: containsPrivateKey(v) ? 'secret' : 'cvv' };
  return {
    ...clean,
    values: Object.fromEntries(Object.entries(clean.values).map(([k, v]) => [k, scrub(v)])),
    extras: clean.extras.map((e) => ({ name: e.name, value: scrub(e.value) })),
  };
}

/**
 * The draft with these names withheld (as {@link maskDraft} would have): for a kept request whose
 * record names what was masked or dropped (a history entry's `masked`), stored before drafts
 * marked it. A name the draft no longer has is added after its other parameters.
 */
export function withhold(draft: RequestDraft, names: Iterable<string>): RequestDraft {
  const values = { ...draft.values };
  const extras = [...draft.extras];
  const known = new Set(findOperation(draft.operation)?.fields.map((f) => f.name));
  for (const name of names) {
    if (name === 'control' || name.startsWith('oauth_')) continue;
    const value: DraftValue = {
      withheld: isCvvName(name) ? 'cvv' : isSecretName(name) ? 'secret' : 'card-number',
    };
    const at = extras.findIndex((e) => e.name === name);
    if (Object.hasOwn(values, name) || (at === -1 && known.has(name))) values[name] = value;
    else if (at !== -1) extras[at] = { name, value };
    else extras.push({ name, value });
  }
  return { ...draft, values, extras };
}
