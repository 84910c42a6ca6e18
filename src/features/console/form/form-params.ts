import type { ControlTerm } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';

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
