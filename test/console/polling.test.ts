import { describe, expect, it } from 'vitest';
import { isFinalStatus, POLL_LIMIT_MS, pollDelayMs } from '../../src/features/console/polling.ts';

describe('status polling', () => {
  it('backs off 1 s, 2 s, 3 s, 4 s, then every 5 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(pollDelayMs)).toEqual([1000, 2000, 3000, 4000, 5000, 5000, 5000]);
    expect(pollDelayMs(0)).toBe(1000);
  });
  it('stops after five minutes', () => {
    expect(POLL_LIMIT_MS).toBe(300_000);
  });
  it('knows the final statuses of gateway-notes.md', () => {
    for (const s of ['approved', 'declined', 'error', 'filtered']) expect(isFinalStatus(s)).toBe(true);
    for (const s of ['processing', 'unknown', 'chain_declined', '', undefined])
      expect(isFinalStatus(s)).toBe(false);
  });
});
