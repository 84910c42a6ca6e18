import { FINAL_STATUSES } from '../catalog/responses.ts';
import type { Clock } from '../core/index.ts';

/**
 * The one polling policy of status checks (the workbench's poller and the flows): when a status is
 * final (the catalog's list, gateway-notes.md), how long to wait before the next check, and when to
 * give up (gateway-notes.md: poll for 5 minutes, then rarely).
 */
export interface PollPolicy {
  /** The wait after check `attempt` (counted from 1). */
  delayMs: (attempt: number) => number;
  /** Give up once this long has passed since the first check. */
  limitMs: number;
}

/** Back-off between checks: 1 s, 2 s, 3 s, 4 s, then every 5 s, for 5 minutes. */
export const POLL_POLICY: PollPolicy = {
  delayMs: (attempt) => Math.min(5, Math.max(1, attempt)) * 1000,
  limitMs: 5 * 60 * 1000,
};

export function isFinalStatus(status: string | undefined): boolean {
  return status !== undefined && (FINAL_STATUSES as readonly string[]).includes(status);
}

/** The limit in words ("5 minutes", "20 s"), the same wherever a screen says it. */
export function pollLimitText(policy: PollPolicy = POLL_POLICY): string {
  const s = Math.round(policy.limitMs / 1000);
  return s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} s`;
}

export type PollStep =
  { kind: 'final'; status: string } | { kind: 'expired' } | { kind: 'wait'; delayMs: number; at: number };

/**
 * What comes after check `attempt`, which read `status`: stop on a final status, give up past the
 * limit, or wait. The clock is passed in (the poller's and the flows' own).
 */
export function nextPoll(
  status: string | undefined,
  attempt: number,
  startedAt: number,
  clock: Clock,
  policy: PollPolicy = POLL_POLICY,
): PollStep {
  if (status !== undefined && isFinalStatus(status)) return { kind: 'final', status };
  const now = clock();
  if (now - startedAt > policy.limitMs) return { kind: 'expired' };
  const delayMs = policy.delayMs(attempt);
  return { kind: 'wait', delayMs, at: now + delayMs };
}
