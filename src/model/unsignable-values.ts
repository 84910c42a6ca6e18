import { isPayError, toMinorUnits } from '../core/index.ts';
import { formulaOf, operationOf, schemeOf } from './draft-params.ts';
import type { RequestDraft } from './request-draft.ts';

/**
 * The values the draft's signature cannot be computed over, each with why: an amount the
 * `control` formula signs in minor units that is not a decimal with a dot (`10,5`). Such a request
 * is refused before it leaves, so "Send anyway" is never offered for it.
 */
export function unsignableValues(draft: RequestDraft): Array<{ name: string; message: string }> {
  const op = operationOf(draft);
  if (schemeOf(op, draft) !== 'control') return [];
  const found: Array<{ name: string; message: string }> = [];
  for (const term of formulaOf(op, draft)) {
    if (term.kind !== 'field' || !term.minorUnits) continue;
    const v = draft.values[term.name];
    // An empty or absent value is signed as the empty string; a placeholder or a `{{variable}}`
    // is resolved before signing.
    if (typeof v !== 'string' || v.trim() === '' || v.includes('{{')) continue;
    try {
      toMinorUnits(v, term.name);
    } catch (e) {
      if (isPayError(e)) found.push({ name: term.name, message: e.message });
    }
  }
  return found;
}
