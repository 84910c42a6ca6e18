import { describe, expect, it } from 'vitest';
import { FINAL_STATUSES } from '../../src/catalog/responses.ts';
import { isFinalStatus, nextPoll, POLL_POLICY, pollLimitText } from '../../src/model/poll-policy.ts';

describe('the one polling policy', () => {
  it('backs off 1 s, 2 s, 3 s, 4 s, then every 5 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(POLL_POLICY.delayMs)).toEqual([
      1000, 2000, 3000, 4000, 5000, 5000, 5000,
    ]);
    expect(POLL_POLICY.delayMs(0)).toBe(1000);
  });

  it('stops after five minutes, and says so in one wording', () => {
    expect(POLL_POLICY.limitMs).toBe(300_000);
    expect(pollLimitText()).toBe('5 minutes');
    expect(pollLimitText({ ...POLL_POLICY, limitMs: 60_000 })).toBe('1 minute');
    expect(pollLimitText({ ...POLL_POLICY, limitMs: 20_000 })).toBe('20 s');
  });

  it('reads the final statuses from the catalog', () => {
    for (const s of FINAL_STATUSES) expect(isFinalStatus(s)).toBe(true);
    for (const s of ['approved', 'declined', 'error', 'filtered']) expect(isFinalStatus(s)).toBe(true);
    for (const s of ['processing', 'unknown', 'chain_declined', '', undefined])
      expect(isFinalStatus(s)).toBe(false);
  });

  it('decides the next step from the status, the attempt and the injected clock', () => {
    let now = 1_000;
    const clock = () => now;
    expect(nextPoll('approved', 1, 0, clock)).toEqual({ kind: 'final', status: 'approved' });
    expect(nextPoll('processing', 2, 0, clock)).toEqual({ kind: 'wait', delayMs: 2000, at: 3000 });
    now = 300_000;
    expect(nextPoll('processing', 60, 0, clock).kind).toBe('wait');
    now = 300_001;
    expect(nextPoll('processing', 61, 0, clock)).toEqual({ kind: 'expired' });
    // A final status wins over the limit: the answer in hand is the outcome.
    expect(nextPoll('declined', 61, 0, clock).kind).toBe('final');
  });
});
