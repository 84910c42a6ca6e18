import type { BadgeKind } from '../../../model/read-answer.ts';

export function StatusBadge({ kind, label }: { kind: BadgeKind; label: string }) {
  return (
    <span className={`wb-badge wb-badge-${kind}`} role="status" aria-label={`Status: ${label}`}>
      {label}
    </span>
  );
}
