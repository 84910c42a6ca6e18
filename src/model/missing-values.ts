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
