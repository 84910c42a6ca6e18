import type { ControlTerm, InputParam } from '../../core/index.ts';
import type { Operation } from '../../catalog/index.ts';

export interface ExtraParam {
  name: string;
  value: string;
}

/** One editable term of a formula, as the formula editor holds it. */
export interface FormulaRow {
  kind: 'login' | 'endpointId' | 'field' | 'minor';
  name: string;
}

export function toFormulaRows(terms: readonly ControlTerm[]): FormulaRow[] {
  return terms.map((t) =>
    t.kind === 'field'
      ? { kind: t.minorUnits ? 'minor' : 'field', name: t.name }
      : { kind: t.kind, name: '' },
  );
}

export function fromFormulaRows(rows: readonly FormulaRow[]): ControlTerm[] {
  return rows.flatMap((r): ControlTerm[] => {
    if (r.kind === 'login' || r.kind === 'endpointId') return [{ kind: r.kind }];
    const name = r.name.trim();
    if (name === '') return [];
    return [r.kind === 'minor' ? { kind: 'field', name, minorUnits: true } : { kind: 'field', name }];
  });
}

/** True when the UI lets the user edit the formula: the description gives none for this operation. */
export function formulaEditable(op: Operation): boolean {
  return op.formulaSource !== undefined && op.formulaSource !== 'description';
}

/** Empty values for every field, the login from the profile, then the preset's values on top. */
export function initialValues(
  op: Operation,
  profileLogin: string,
  preset?: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of op.fields) out[f.name] = f.fromProfile === 'login' ? profileLogin : '';
  if (preset) for (const [k, v] of Object.entries(preset)) if (k in out) out[k] = v;
  return out;
}

/** Preset values that are not fields of the operation: they become extra parameter rows. */
export function presetExtras(
  op: Operation,
  preset?: Record<string, string>,
  extras: ExtraParam[] = [],
): ExtraParam[] {
  const known = new Set(op.fields.map((f) => f.name));
  const out = [...extras];
  // `control` is computed, never typed: a preset from history carries the old one.
  if (preset)
    for (const [name, value] of Object.entries(preset))
      if (!known.has(name) && name !== 'control') out.push({ name, value });
  return out;
}

/**
 * The parameters handed to buildRequest: the operation's fields in catalog order, then the extra
 * rows. A field filled from the profile is tagged `profile` while it still holds the profile's value.
 */
export function toInputParams(
  op: Operation,
  values: Record<string, string | undefined>,
  extras: readonly ExtraParam[],
  profileLogin: string,
): InputParam[] {
  const params: InputParam[] = op.fields.map((f) => {
    const value = values[f.name] ?? '';
    const fromProfile = f.fromProfile === 'login' && value === profileLogin && value !== '';
    return { name: f.name, value, source: fromProfile ? 'profile' : 'form' };
  });
  for (const e of extras) {
    const name = e.name.trim();
    if (name !== '') params.push({ name, value: e.value, source: 'extra' });
  }
  return params;
}

/** Extra rows whose name repeats a field or another row: the body would carry the name twice. */
export function duplicateExtraNames(op: Operation, extras: readonly ExtraParam[]): Set<string> {
  const seen = new Set(op.fields.map((f) => f.name));
  const dup = new Set<string>();
  for (const e of extras) {
    const name = e.name.trim();
    if (name === '') continue;
    if (seen.has(name)) dup.add(name);
    seen.add(name);
  }
  return dup;
}
