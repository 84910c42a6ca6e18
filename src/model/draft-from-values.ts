import type { ControlTerm, EndpointRef, Scheme } from '../core/index.ts';
import type { Operation } from '../catalog/index.ts';
import { formulaEditable, schemeOf } from './draft-params.ts';
import { placeholderFor, type Place } from './place.ts';
import { DRAFT_VERSION, type DraftValue, type RequestDraft, type WithheldReason } from './request-draft.ts';

/** Values by name (in their order), or name/value pairs in the order given (a name may repeat). */
export type ValuesInput =
  | Readonly<Record<string, string | undefined>>
  | ReadonlyArray<{ readonly name: string; readonly value: string }>;

/** Everything a surface knows of a request besides its operation: a form, a page, a step, the command line. */
export interface DraftInput {
  values: ValuesInput;
  /** Parameters added as such (a form's extra rows), after the values' own. */
  extras?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  scheme?: Scheme | undefined;
  /** The formula in force; kept only when it differs from the catalog's and may be edited. */
  formula?: readonly ControlTerm[] | undefined;
  endpoint?: EndpointRef | undefined;
  pinned?: { nonce: string; timestamp: string } | undefined;
  /** Values the opened draft came without: left empty, they stay withheld. */
  withheld?: Readonly<Record<string, WithheldReason>> | undefined;
  /**
   * The values are a whole request as it was sent (a capture): a field not given was not sent, so
   * a login field stays empty instead of taking the profile's login.
   */
  complete?: boolean;
}

function sameTerms(a: readonly ControlTerm[], b: readonly ControlTerm[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function pairsOf(values: ValuesInput): Array<{ name: string; value: string }> {
  if (Array.isArray(values)) return values as Array<{ name: string; value: string }>;
  const out: Array<{ name: string; value: string }> = [];
  for (const [name, value] of Object.entries(values))
    if (typeof value === 'string') out.push({ name, value });
  return out;
}

/**
 * The one way from values to a draft, for every surface. The policy:
 * - a field of the operation goes to `values` (the first time its name is given, in the order
 *   given); any other name, and a field given again, goes to `extras` in order; `control` and
 *   unnamed rows are dropped (the core computes `control`);
 * - every field is in the draft: one not given is empty, except a login field, which is the
 *   profile's (a placeholder, first, as a new form has it) unless the values are
 *   {@link DraftInput.complete};
 * - an empty value stays (it is not sent); with a `place`, a value equal to its login (in a login
 *   field), return page or inbox becomes the placeholder; an empty withheld value stays withheld;
 * - the scheme is kept only when the operation allows it and it is not the operation's own; the
 *   formula only for `control` where it may be edited and differs from the catalog's; the pinned
 *   nonce and timestamp only for an OAuth scheme; the endpoint when given.
 */
export function draftFromValues(op: Operation, input: DraftInput, place?: Place): RequestDraft {
  const value = (name: string, typed: string): DraftValue => {
    const reason = typed === '' ? input.withheld?.[name] : undefined;
    if (reason) return { withheld: reason };
    return place ? placeholderFor(op, name, typed, place) : typed;
  };
  const fields = new Set(op.fields.map((f) => f.name));
  const values: Record<string, DraftValue> = {};
  const extras: RequestDraft['extras'] = [];
  const add = (rawName: string, typed: string, asExtra: boolean) => {
    const name = rawName.trim();
    if (name === '' || name === 'control') return;
    if (!asExtra && fields.has(name) && !Object.hasOwn(values, name)) values[name] = value(name, typed);
    else extras.push({ name, value: value(name, typed) });
  };
  const pairs = pairsOf(input.values);
  const given = new Set(pairs.map((p) => p.name.trim()));
  // The profile's login goes first, where a new form has it (and the wire order with it).
  for (const f of op.fields)
    if (f.fromProfile === 'login' && !input.complete && !given.has(f.name) && !input.withheld?.[f.name])
      values[f.name] = { place: 'login' };
  for (const p of pairs) add(p.name, p.value, false);
  for (const e of input.extras ?? []) add(e.name, e.value, true);
  for (const f of op.fields) {
    if (Object.hasOwn(values, f.name)) continue;
    const reason = input.withheld?.[f.name];
    values[f.name] = reason ? { withheld: reason } : '';
  }
  const scheme = schemeOf(op, { scheme: input.scheme });
  const edited =
    scheme === 'control' &&
    input.formula !== undefined &&
    formulaEditable(op) &&
    !sameTerms(input.formula, op.formula ?? []);
  return {
    v: DRAFT_VERSION,
    operation: op.path,
    ...(scheme !== op.scheme ? { scheme } : {}),
    ...(edited ? { formula: input.formula!.map((t) => ({ ...t })) } : {}),
    values,
    extras,
    ...(input.endpoint ? { endpoint: { ...input.endpoint } } : {}),
    ...(input.pinned && scheme !== 'control' ? { pinned: { ...input.pinned } } : {}),
  };
}
