import { describeFormula } from '../../../core/index.ts';
import { OPERATION_SOURCE_LABEL, SCHEME_TITLES, type Operation } from '../../../catalog/index.ts';
import { provenanceLabel } from '../form/labels.ts';

/**
 * One of the operation's facts under its title: [text, class, code part, text after it,
 * provenance source, provenance label]. Tuples, not objects: this is on the first page's budget.
 */
export type OperationFact = [string, string?, string?, string?, string?, string?];

/**
 * The facts the workbench's header lists for an operation, as data: the app's header
 * (operation-header.tsx) and the pre-rendered first form (first-form-markup.ts) draw the same
 * list, so the form below it starts at the same height in both.
 */
export function operationFacts(op: Operation): OperationFact[] {
  const prov = (source: Operation['schemeSource'] | undefined, what: string): [] | [string, string] =>
    source && source !== 'description' ? [source, `${what} ${provenanceLabel(source)}`] : [];
  const facts: OperationFact[] = [
    ['', undefined, op.id],
    [SCHEME_TITLES[op.scheme], undefined, undefined, undefined, ...prov(op.schemeSource, 'scheme')],
  ];
  if (op.scheme === 'control' && op.formula)
    facts.push([
      'control = sha1(',
      undefined,
      describeFormula(op.formula),
      ')',
      ...prov(op.formulaSource, 'formula'),
    ]);
  if (op.movesMoney) facts.push(['moves money', 'wb-tag-money']);
  if (op.exampleOnly) facts.push(["only in the description's authentication examples"]);
  if (op.source) facts.push([OPERATION_SOURCE_LABEL[op.source]]);
  if (op.requestSchemaName) facts.push([`request schema ${op.requestSchemaName}`]);
  facts.push([`answer ${op.response}`]);
  return facts;
}
