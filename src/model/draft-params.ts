import type { ControlTerm, InputParam, OperationSigningSpec, Scheme } from '../core/index.ts';
import { findOperation, type Operation } from '../catalog/index.ts';
import { DraftError } from './errors.ts';
import type { RequestDraft, ResolvedDraft } from './request-draft.ts';

/** The schemes an operation may be signed with: its own first, then the ones the sources also allow. */
export function schemesOf(op: Operation): Scheme[] {
  return [op.scheme, ...(op.schemeAlternatives ?? [])];
}

/** True when the formula may be edited: the description gives none for this operation. */
export function formulaEditable(op: Operation): boolean {
  return op.formulaSource !== undefined && op.formulaSource !== 'description';
}

/** The draft's operation from the catalog. @throws DraftError DRAFT_OPERATION for an unknown one. */
export function operationOf(draft: { operation: string }): Operation {
  const op = findOperation(draft.operation);
  if (!op)
    throw new DraftError(
      'DRAFT_OPERATION',
      `No operation is at "${draft.operation.slice(0, 80)}": give the path after /api/, e.g. v2/sale.`,
    );
  return op;
}

/** The scheme the draft signs with: its choice when the operation allows it, else the operation's own. */
export function schemeOf(op: Operation, draft: Pick<RequestDraft, 'scheme'>): Scheme {
  return draft.scheme && schemesOf(op).includes(draft.scheme) ? draft.scheme : op.scheme;
}

/** The formula the draft signs with (scheme C): its edited one where editing is allowed, else the catalog's. */
export function formulaOf(op: Operation, draft: Pick<RequestDraft, 'formula'>): readonly ControlTerm[] {
  return draft.formula && formulaEditable(op) ? draft.formula : (op.formula ?? []);
}

/** What the core needs to sign the draft: path, chosen scheme and the formula in force. */
export function signingSpecOf(
  op: Operation,
  draft: Pick<RequestDraft, 'scheme' | 'formula'>,
): OperationSigningSpec {
  const scheme = schemeOf(op, draft);
  return scheme === 'control'
    ? { path: op.path, scheme, formula: formulaOf(op, draft) }
    : { path: op.path, scheme };
}

/**
 * The one converter from a draft to the parameters the core signs: the draft's values in their
 * order (a form's are in catalog order, a capture's or the command line's as given; a field from
 * the profile tagged `profile`, a name that is no field of the operation `extra`), the operation's
 * other fields (empty, so left out), then the extra parameters in their order. `control` is never
 * an input: the core computes it.
 */
export function draftParams(op: Operation, draft: ResolvedDraft): InputParam[] {
  const known = new Set(op.fields.map((f) => f.name));
  const params: InputParam[] = [];
  for (const [name, value] of Object.entries(draft.values)) {
    if (name === 'control') continue;
    const source = !known.has(name) ? 'extra' : draft.fromProfile.has(name) ? 'profile' : 'form';
    params.push({ name, value, source });
  }
  for (const f of op.fields)
    if (!Object.hasOwn(draft.values, f.name)) params.push({ name: f.name, value: '', source: 'form' });
  for (const e of draft.extras) {
    const name = e.name.trim();
    if (name !== '' && name !== 'control') params.push({ name, value: e.value, source: 'extra' });
  }
  return params;
}
