/** History lists an exchange by the model's decision: "outcome unknown" is not "not sent". */
import { describe, expect, it } from 'vitest';
import { buildEntry } from '../../src/features/history/build-entry.ts';
import type { Exchange } from '../../src/model/exchange.ts';

const base: Exchange = {
  operationPath: 'v2/sale',
  profileName: 'demo',
  targetName: 'local',
  sentAt: '2026-01-01T00:00:00.000Z',
  request: {
    method: 'POST',
    url: 'http://x/paynet/api/v2/sale/1',
    headers: [],
    body: [{ name: 'client_orderid', value: 'inv-1' }],
  },
};

describe('buildEntry outcome', () => {
  it('a reset after the send is "outcome unknown"', () => {
    expect(buildEntry({ ...base, error: 'reset', certainty: 'unknown' }, 'a').outcome).toBe(
      'outcome unknown',
    );
  });
  it('a 500 is "outcome unknown"', () => {
    const ex: Exchange = {
      ...base,
      response: { status: 500, elapsedMs: 1, headers: {}, body: '{"type":"error"}' },
      certainty: 'unknown',
    };
    expect(buildEntry(ex, 'b').outcome).toBe('outcome unknown');
  });
  it('a refused connection is "not sent"', () => {
    expect(buildEntry({ ...base, error: 'refused', certainty: 'not-sent' }, 'c').outcome).toBe('not sent');
  });
});
