import type { ControlTerm, EndpointRef, Scheme } from '../core/index.ts';
import { exampleValues, type Operation } from '../catalog/index.ts';
import { formulaEditable, schemeOf } from './draft-params.ts';
import { placeholderFor, resolveDraft, type Place } from './place.ts';
import { missingValues } from './missing-values.ts';
import { DRAFT_VERSION, type DraftValue, type RequestDraft, type WithheldReason } from './request-draft.ts';

/** A request as a form edits it: plain strings, with the place's values filled in. */
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

function sameTerms(a: readonly ControlTerm[], b: readonly ControlTerm[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The draft of what a form shows. Values equal to the place's login (in a login field), return
 * page or callback inbox become placeholders; the scheme and formula are kept only when they
 * differ from the operation's own; extra rows without a name are left out.
 */
export function draftFromForm(op: Operation, state: FormState, place: Place): RequestDraft {
  // A withheld value left empty stays withheld: the draft still says it must be filled in.
  const value = (name: string, typed: string): DraftValue => {
    const reason = typed ? undefined : state.withheld?.[name];
    return reason ? { withheld: reason } : placeholderFor(op, name, typed, place);
  };
  const values: Record<string, DraftValue> = {};
  for (const f of op.fields) values[f.name] = value(f.name, state.values[f.name] ?? '');
  const extras = state.extras
    .filter((e) => e.name.trim() !== '')
    .map((e) => ({ name: e.name.trim(), value: value(e.name.trim(), e.value) }));
  const scheme = schemeOf(op, { scheme: state.scheme });
  const edited = scheme === 'control' && formulaEditable(op) && !sameTerms(state.formula, op.formula ?? []);
  return {
    v: DRAFT_VERSION,
    operation: op.path,
    ...(scheme !== op.scheme ? { scheme } : {}),
    ...(edited ? { formula: state.formula.map((t) => ({ ...t })) } : {}),
    values,
    extras,
    ...(state.endpoint ? { endpoint: { ...state.endpoint } } : {}),
    ...(state.pinned ? { pinned: { ...state.pinned } } : {}),
  };
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
