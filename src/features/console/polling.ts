import { FINAL_STATUSES } from '../../catalog/index.ts';

/** Stop polling after this long (gateway-notes.md: poll for 5 minutes). */
export const POLL_LIMIT_MS = 5 * 60 * 1000;

/** Back-off between status checks: 1 s, 2 s, 3 s, 4 s, then every 5 s. `attempt` counts from 1. */
export function pollDelayMs(attempt: number): number {
  return Math.min(5, Math.max(1, attempt)) * 1000;
}

export function isFinalStatus(status: string | undefined): boolean {
  return status !== undefined && FINAL_STATUSES.includes(status);
}
