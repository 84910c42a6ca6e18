import { GROUP_TITLES, type Operation, type OperationGroup } from '../catalog/index.ts';

export function matchesQuery(op: Operation, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return q
    .split(/\s+/)
    .every(
      (w) =>
        op.title.toLowerCase().includes(w) ||
        op.path.toLowerCase().includes(w) ||
        op.id.toLowerCase().includes(w),
    );
}

export function groupOperations(
  ops: readonly Operation[],
): Array<{ group: OperationGroup; title: string; ops: Operation[] }> {
  return (Object.keys(GROUP_TITLES) as OperationGroup[])
    .map((group) => ({ group, title: GROUP_TITLES[group], ops: ops.filter((o) => o.group === group) }))
    .filter((g) => g.ops.length > 0);
}

/** What follows an operation's path in the list: whether its scheme is unsure, or example only. */
export function navPathNote(op: Operation): string {
  return (
    (op.schemeSource === 'unsure' || op.formulaSource === 'unsure' ? ' · unsure' : '') +
    (op.exampleOnly ? ' · example only' : '')
  );
}
