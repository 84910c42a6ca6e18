import { OPERATIONS, type Operation, type OperationPath } from './operations.ts';

const BY_PATH = new Map<string, Operation>(OPERATIONS.map((o) => [o.path, o]));

/** The operation at a path after `/api/` (`v2/sale`), or undefined. */
export function findOperation(path: string): Operation | undefined {
  return BY_PATH.get(path.replace(/^\/?(api\/)?/, '').replace(/\/+$/, ''));
}

export const OPERATION_PATHS: readonly OperationPath[] = OPERATIONS.map((o) => o.path);

/** The example values of an operation's fields, as a starting point for a form. */
export function exampleValues(op: Operation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of op.fields)
    if (spec.example !== undefined && !spec.fromProfile && !spec.place) out[spec.name] = spec.example;
  return out;
}
