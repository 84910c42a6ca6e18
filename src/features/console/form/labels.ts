import type { Operation } from '../../../catalog/index.ts';

/** How sure the catalog is of a scheme or formula, as the workbench labels it. */
export function provenanceLabel(
  p: Operation['formulaSource'] | Operation['schemeSource'] | undefined,
): string {
  if (p === 'unsure') return 'unsure';
  if (p === 'gateway-notes') return 'from gateway notes';
  if (p === 'assumed') return 'assumed';
  return 'from the description';
}
