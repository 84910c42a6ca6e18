/** Status polling, headless: a scripted transport, a fake clock and sleep; no React, no timers. */
import { describe, expect, it } from 'vitest';
import { prepareExchange, type ExchangeRecord, type Transport } from '../../src/model/exchange.ts';
import { POLL_POLICY } from '../../src/model/poll-policy.ts';
import { StatusPoll } from '../../src/features/console/send/status-poll.ts';
import { signingEnv } from '../model/signing-env.ts';

function run(statuses: Array<{ http?: number; status?: string }>, limitMs = POLL_POLICY.limitMs) {
  let now = 1_000_000;
  const slept: number[] = [];
  const records: ExchangeRecord[] = [];
  const sent: string[] = [];
  let i = 0;
  const transport: Transport = (req) => {
    sent.push(req.bodyText);
    const s = statuses[Math.min(i++, statuses.length - 1)]!;
    const body =
      s.http && s.http !== 200
        ? JSON.stringify({ type: 'error', 'error-message': 'Unknown order' })
        : JSON.stringify({ type: 'status-response', status: s.status });
    return Promise.resolve({ status: s.http ?? 200, headers: {}, body, elapsedMs: 1 });
  };
  const poll = new StatusPoll(
    { clientOrderId: 'inv-1', orderId: '77' },
    {
      prepare: (draft) => prepareExchange(draft, signingEnv()),
      transport: () => transport,
      party: () => ({ profileName: 'demo', targetName: 'local' }),
      clock: () => now,
      sleep: (ms) => {
        slept.push(ms);
        now += ms;
        return Promise.resolve();
      },
      onExchange: (r) => records.push(r),
      policy: { ...POLL_POLICY, limitMs },
    },
  );
  return { poll, slept, records, sent };
}

describe('StatusPoll', () => {
  it('backs off by the policy until the catalog’s final status, recording each check', async () => {
    const { poll, slept, records, sent } = run([
      { status: 'processing' },
      { status: 'processing' },
      { status: 'unknown' },
      { status: 'approved' },
    ]);
    await poll.start();
    const snap = poll.getSnapshot();
    expect(snap.phase).toBe('final');
    expect(snap.checks).toBe(4);
    expect(snap.last?.answer.status).toBe('approved');
    expect(slept).toEqual([1000, 2000, 3000]);
    expect(records).toHaveLength(4);
    expect(records.every((r) => r.operationPath === 'v2/status')).toBe(true);
    // The console's own checks: history keeps them, the palette's recents do not list them.
    expect(records.every((r) => r.automatic === true)).toBe(true);
    expect(sent[0]).toContain('client_orderid=inv-1');
  });

  it('stops on a refusal and says so', async () => {
    const { poll } = run([{ http: 400 }]);
    await poll.start();
    expect(poll.getSnapshot().phase).toBe('refused');
    expect(poll.getSnapshot().last?.answer.errorMessage).toBe('Unknown order');
  });

  it('gives up past the limit', async () => {
    const { poll } = run([{ status: 'processing' }], 2_500);
    await poll.start();
    expect(poll.getSnapshot().phase).toBe('expired');
    expect(poll.getSnapshot().checks).toBe(3);
  });

  it('stop() ends it in the stopped phase', async () => {
    const { poll } = run([{ status: 'processing' }]);
    let stopped = false;
    poll.subscribe(() => {
      if (!stopped && poll.getSnapshot().checks === 2) {
        stopped = true;
        poll.stop();
      }
    });
    await poll.start();
    expect(poll.getSnapshot().phase).toBe('stopped');
  });
});
