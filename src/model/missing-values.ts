import { DraftError } from './errors.ts';
import { isWithheld, type RequestDraft, type WithheldReason } from './request-draft.ts';

/** A value the draft came without (see {@link missingValues}). */
export interface MissingValue {
  name: string;
  reason: WithheldReason;
}

/**
 * What must be filled in before the draft is sent: every value withheld when a request was kept
 * (history, a saved request, a collections file, a share link), required or optional, card or not.
 * Sending without them would sign fewer parameters than the request it came from, so every send
 * (the workbench's, which history's re-send and a saved request's send go through) refuses a draft
 * for which this is not empty, and names these values.
 */
export function missingValues(draft: RequestDraft): MissingValue[] {
  const missing: MissingValue[] = [];
  for (const [name, v] of Object.entries(draft.values))
    if (isWithheld(v)) missing.push({ name, reason: v.withheld });
  for (const e of draft.extras)
    if (isWithheld(e.value)) missing.push({ name: e.name, reason: e.value.withheld });
  return missing;
}

const WHAT: Record<WithheldReason, string> = { 'card-number': 'card number', cvv: 'CVV', secret: 'secret' };

/**
 * For a surface that signs a draft without a form to fill it in (snippets, teaching, the command
 * line): refuses a draft with {@link missingValues}, naming each withheld value.
 * @throws DraftError DRAFT_MISSING_VALUES, its message naming the values to fill in.
 */
export function requireAllValues(draft: RequestDraft, doing: string): void {
  const missing = missingValues(draft);
  if (missing.length === 0) return;
  const names = missing.map((m) => `${m.name} (${WHAT[m.reason]})`);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  throw new DraftError(
    'DRAFT_MISSING_VALUES',
    `Cannot ${doing}: ${list} ${missing.length === 1 ? 'was' : 'were'} not kept with this request. Fill ${missing.length === 1 ? 'it' : 'them'} in first.`,
  );
}
