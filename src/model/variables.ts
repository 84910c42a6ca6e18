/**
 * `{{name}}` variables in a draft's values. A draft keeps them as written (saved requests, files,
 * share links, imports); they are resolved just before signing, from sources in precedence order
 * (the run's values saved from answers, the environment, the collection's defaults), and every
 * substitution is told with where it came from, for the signing pane.
 */
import type { DraftValue, RequestDraft } from './request-draft.ts';

/** `{{name}}`, with Postman's and Insomnia's spellings (`{{ name }}`, `{{_.name}}`). */
const VARIABLE = /\{\{\s*(?:_\.)?([A-Za-z0-9_.$-]+)\s*\}\}/g;

/** A variable name as an environment or a collection declares it. */
export const VARIABLE_NAME = /^[A-Za-z_$][A-Za-z0-9_.$-]{0,99}$/;

export type VariableSourceKind = 'answer' | 'run' | 'environment' | 'collection' | 'secret';

/** One place variables come from; `name` says which (the environment's name, the step that saved it). */
export interface VariableSource {
  kind: VariableSourceKind;
  name: string;
  values: Readonly<Record<string, string>>;
}

/** One substitution made: in which parameter, which variable, from where. */
export interface VariableUse {
  param: string;
  variable: string;
  /** The value put in (masked when it came from a secret). */
  shown: string;
  source: { kind: VariableSourceKind; name: string };
}

export interface AppliedVariables {
  /** The draft with every resolved variable substituted; unresolved ones stay as written. */
  draft: RequestDraft;
  uses: VariableUse[];
  /** Names used in the draft that no source defines, in order of first use. */
  unresolved: string[];
}

function namesIn(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1]!);
}

/** Every variable a draft uses, in order of first use. */
export function variablesIn(draft: RequestDraft): string[] {
  const names = new Set<string>();
  const visit = (v: DraftValue) => {
    if (typeof v === 'string') for (const n of namesIn(v)) names.add(n);
  };
  for (const v of Object.values(draft.values)) visit(v);
  for (const e of draft.extras) visit(e.value);
  return [...names];
}

/** Whether a text is nothing but one variable (`{{cvv}}`): a reference, which holds no value itself. */
export function isVariableOnly(text: string): boolean {
  return /^\{\{\s*(?:_\.)?[A-Za-z0-9_.$-]+\s*\}\}$/.test(text.trim());
}

/** Whether a text holds a variable. */
export function hasVariable(text: string): boolean {
  return namesIn(text).length > 0;
}

function lookup(
  name: string,
  sources: readonly VariableSource[],
): { value: string; source: VariableSource } | undefined {
  for (const source of sources)
    if (Object.hasOwn(source.values, name)) return { value: source.values[name]!, source };
  return undefined;
}

/**
 * The draft with its `{{name}}` variables resolved from `sources` (the first that defines a name
 * wins). A value may be a whole variable or hold several in text (`order-{{n}}`); values are put
 * in once, never resolved again (a value holding `{{x}}` stays literal text).
 */
export function applyVariables(draft: RequestDraft, sources: readonly VariableSource[]): AppliedVariables {
  const uses: VariableUse[] = [];
  const unresolved = new Set<string>();
  const apply = (param: string, v: DraftValue): DraftValue => {
    if (typeof v !== 'string' || !v.includes('{{')) return v;
    return v.replace(VARIABLE, (whole, name: string) => {
      const found = lookup(name, sources);
      if (!found) {
        unresolved.add(name);
        return whole;
      }
      uses.push({
        param,
        variable: name,
        shown: found.source.kind === 'secret' ? '••••' : found.value,
        source: { kind: found.source.kind, name: found.source.name },
      });
      return found.value;
    });
  };
  const values: RequestDraft['values'] = {};
  for (const [name, v] of Object.entries(draft.values)) values[name] = apply(name, v);
  const extras = draft.extras.map((e) => ({ name: e.name, value: apply(e.name, e.value) }));
  return { draft: { ...draft, values, extras }, uses, unresolved: [...unresolved] };
}
