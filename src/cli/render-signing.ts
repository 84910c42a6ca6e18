import { SCHEME_TITLES } from '../catalog/index.ts';
import type { Operation } from '../catalog/index.ts';
import {
  CONTROL_KEY_MASK,
  describeFormula,
  type BaseStringParts,
  type ControlTrace,
  type SignatureParameter,
} from '../core/index.ts';
import { formulaOf, schemeOf, type RequestDraft } from '../model/index.ts';
import { fields, showValue, table } from './output.ts';

/** `v2/sale (SALE): Sale, control (SHA-1)`. */
export function describeOperation(op: Operation): string {
  return `${op.path} (${op.id}): ${op.title}`;
}

/** The scheme the draft (or the capture) is signed with, among those the operation allows. */
export function schemeLine(op: Operation, draft: Pick<RequestDraft, 'scheme'>): string {
  return SCHEME_TITLES[schemeOf(op, draft)];
}

/** The control signing input term by term, then the concatenation with the key masked. */
export function renderControlInput(
  op: Operation,
  draft: Pick<RequestDraft, 'formula'>,
  trace: ControlTrace,
): string {
  const formula = describeFormula(formulaOf(op, draft));
  const rows = trace.terms.map((t, i) => [
    String(i + 1),
    t.label,
    t.error ? `(${t.original ?? ''}: cannot be signed)` : showValue(t.value),
    t.source,
    t.error ? t.error.message : (t.note ?? ''),
  ]);
  rows.push(['+', 'merchant_control_key', CONTROL_KEY_MASK, 'secret', 'appended last, never shown']);
  const lines = [`Formula: ${formula}`];
  if (op.formulaNote) lines.push(`Note: ${op.formulaNote}`);
  lines.push(table(['#', 'term', 'value', 'source', 'note'], rows));
  lines.push('Concatenation (no separators, key masked):', `  ${trace.maskedInput}`);
  return lines.join('\n');
}

/** The OAuth parameter table: every parameter considered, its encoding, source and whether it is signed. */
export function renderOAuthParameters(parameters: readonly SignatureParameter[]): string {
  return table(
    ['name', 'value', 'encoded', 'source', 'signed'],
    parameters.map((p) => [
      p.name,
      // The received signature is shown on its own line; repeating it here only widens the table.
      p.name === 'oauth_signature' ? '(the received signature)' : showValue(p.value),
      p.name === 'oauth_signature'
        ? ''
        : p.encodedName === p.name
          ? p.encodedValue
          : `${p.encodedName}=${p.encodedValue}`,
      p.source,
      p.included ? 'yes' : `no: ${p.excludedBecause ?? 'excluded'}`,
    ]),
  );
}

/** The parameter string, the three base-string parts and the base string itself. */
export function renderBaseString(
  parameterString: string,
  normalizedUrl: string,
  base: BaseStringParts,
): string {
  return [
    'Parameter string (sorted by encoded name, then value):',
    `  ${parameterString}`,
    'Base string parts (each percent-encoded):',
    fields(
      [
        ['method', base.method],
        ['URL', `${base.encodedUrl}   (normalized: ${normalizedUrl})`],
        ['parameters', base.encodedParameters],
      ],
      '  ',
    ),
    'Base string:',
    `  ${base.baseString}`,
  ].join('\n');
}
