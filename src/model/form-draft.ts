import type { ControlTerm, EndpointRef, Scheme } from '../core/index.ts';
import { exampleValues, type Operation } from '../catalog/index.ts';
import { formulaEditable, schemeOf } from './draft-params.ts';
import { resolveDraft, type Place } from './place.ts';
import { missingValues } from './missing-values.ts';
import { DRAFT_VERSION, type DraftValue, type RequestDraft, type WithheldReason } from './request-draft.ts';

/** A request as a form edits it: plain strings, with the place's values filled in (`draftFromValues` makes its draft). */
export interface FormState {
  values: Record<string, string | undefined>;
  extras: ReadonlyArray<{ name: string; value: string }>;
  scheme: Scheme;
  /** The formula in force (the catalog's unless edited). */
  formula: readonly ControlTerm[];
  pinned?: { nonce: string; timestamp: string } | undefined;
  endpoint?: EndpointRef | undefined;
  /** Fields and extra rows the opened draft came without (empty in the form until typed again). */
  withheld?: Readonly<Record<string, WithheldReason>> | undefined;
}

/** What a form opens with for a draft at this place (fields from the profile get its login). */
export function formFromDraft(op: Operation, draft: RequestDraft, place: Place): FormState {
  const r = resolveDraft(draft, place);
  const known = new Set(op.fields.map((f) => f.name));
  const values: Record<string, string> = {};
  for (const f of op.fields) values[f.name] = r.values[f.name] ?? '';
  const extras = [
    ...Object.entries(r.values)
      .filter(([name]) => !known.has(name) && name !== 'control')
      .map(([name, value]) => ({ name, value })),
    ...r.extras.filter((e) => e.name !== 'control'),
  ];
  const scheme = schemeOf(op, draft);
  const missing = missingValues(draft);
  return {
    values,
    extras,
    scheme,
    formula: draft.formula && formulaEditable(op) ? draft.formula : (op.formula ?? []),
    ...(r.pinned ? { pinned: r.pinned } : {}),
    ...(r.endpoint ? { endpoint: r.endpoint } : {}),
    ...(missing[0] ? { withheld: Object.fromEntries(missing.map((m) => [m.name, m.reason])) } : {}),
  };
}

/**
 * A draft with the catalog's example values: the login from the profile, the return page and the
 * callback inbox of wherever it is opened, and `overrides` on top (e.g. a fresh order id).
 */
export function exampleDraft(op: Operation, overrides: Record<string, string> = {}): RequestDraft {
  const values: Record<string, DraftValue> = {};
  for (const f of op.fields) {
    if (f.fromProfile === 'login') values[f.name] = { place: 'login' };
    else if (f.place) values[f.name] = { place: f.place };
  }
  for (const [name, value] of Object.entries({ ...exampleValues(op), ...overrides })) {
    const spec = op.fields.find((f) => f.name === name);
    if (spec?.place && !Object.hasOwn(overrides, name)) continue;
    values[name] = value;
  }
  return { v: DRAFT_VERSION, operation: op.path, values, extras: [] };
}
