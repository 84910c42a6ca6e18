import type { Operation } from '../../../catalog/index.ts';

const ID_FIELDS: readonly string[] = ['orderid', 'cardrefid', 'threeDSServerTransID'];

/** Whether the operation's form takes ids of an earlier answer (and so gets the picker). */
export function takesEarlierIds(op: Operation): boolean {
  return op.fields.some((f) => ID_FIELDS.includes(f.name));
}
