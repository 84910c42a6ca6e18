/**
 * A backlog of due requests (hundreds of writes whose delay ends together) is finalised a batch at a
 * time: one batch when a request's group commit opens, the rest by the timer, one batch per turn of
 * the event loop, so the loop never blocks for the whole backlog. The order a request names is
 * finalised at once, so a status after the delay still reads final.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DUE_BATCH } from '../../../sandbox/engine/index.ts';
import { Scheduler } from '../../../sandbox/scheduler.ts';
import { Requests } from '../../../sandbox/store/requests.ts';
import { onEvent, orderId, saleParams, startSandbox, waitFor, type Sandbox } from '../support.ts';

const BACKLOG = 2 * DUE_BATCH + 50;

/** Sales whose delay has passed (the timer held off), their acknowledgements in the order sent. */
async function backlog(sb: Sandbox): Promise<Array<Record<string, unknown>>> {
  const acks: Array<Record<string, unknown>> = [];
  for (let i = 0; i < BACKLOG; i += 50) {
    const block = await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        sb.acme.call('v2/sale', saleParams({ client_orderid: orderId(`bl${i + j}`) })),
      ),
    );
    for (const r of block) {
      expect(r.status).toBe(200);
      acks.push(r.body);
    }
    sb.clock.advance(1); // later sales are due later
  }
  sb.clock.advance(1000);
  return acks;
}

/**
 * The rows each sweep for due requests returned, and whether the timer's `tick` was running; the
 * emitter tells of each sweep.
 */
function recordSweeps(): Array<{ rows: number; inTick: boolean }> & { notices: EventEmitter } {
  const sweeps = Object.assign([] as Array<{ rows: number; inTick: boolean }>, {
    notices: new EventEmitter(),
  });
  const originalDue = Requests.prototype.due;
  const originalTick = Scheduler.prototype.tick;
  let ticking = false;
  vi.spyOn(Scheduler.prototype, 'tick').mockImplementation(function (this: Scheduler) {
    ticking = true;
    try {
      originalTick.call(this);
    } finally {
      ticking = false;
    }
  });
  vi.spyOn(Requests.prototype, 'due').mockImplementation(function (
    this: Requests,
    ...args: Parameters<Requests['due']>
  ) {
    const rows = originalDue.apply(this, args);
    sweeps.push({ rows: rows.length, inTick: ticking });
    sweeps.notices.emit('sweep');
    return rows;
  });
  return sweeps;
}

describe('a backlog of due requests', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await sb?.app.close();
    sb = undefined;
  });

  it('is swept one batch per request, and the order the request names reads final', async () => {
    // The timer stays out of this test: only the request's own work is looked at.
    vi.spyOn(Scheduler.prototype, 'tick').mockImplementation(() => undefined);
    sb = await startSandbox();
    const acks = await backlog(sb);
    const sweeps: number[] = [];
    const originalDue = Requests.prototype.due;
    vi.spyOn(Requests.prototype, 'due').mockImplementation(function (
      this: Requests,
      ...args: Parameters<Requests['due']>
    ) {
      const rows = originalDue.apply(this, args);
      sweeps.push(rows.length);
      return rows;
    });
    // The newest sale is due last: the one batch swept for this request does not reach it.
    const newest = acks.at(-1)!;
    const status = await sb.acme.status(
      String(newest['paynet-order-id']),
      String(newest['merchant-order-id']),
    );
    expect(status.status).toBe('approved');
    expect(sweeps).toEqual([DUE_BATCH]);
    // A sale in the middle of the backlog, by its client_orderid alone, reads final too.
    const middle = acks[DUE_BATCH + 10]!;
    const byClientId = await sb.acme.call('v2/status', {
      login: sb.merchants.acme.login,
      client_orderid: String(middle['merchant-order-id']),
    });
    expect(byClientId.body.status).toBe('approved');
    expect(sweeps.every((n) => n <= DUE_BATCH)).toBe(true);
  });

  it('is finalised by the timer a batch per turn of the event loop, to the end', async () => {
    vi.spyOn(Scheduler.prototype, 'tick').mockImplementation(() => undefined);
    sb = await startSandbox();
    const acks = await backlog(sb);
    vi.restoreAllMocks();
    const sweeps = recordSweeps();
    const finalised = () => sweeps.reduce((n, s) => n + s.rows, 0);
    await waitFor(() => (finalised() >= BACKLOG ? true : undefined), onEvent(sweeps.notices, 'sweep'));
    // One sweep inside the timer's own call; the other batches each in a later turn of the loop.
    expect(sweeps.filter((s) => s.inTick && s.rows > 0)).toHaveLength(1);
    expect(sweeps.every((s) => s.rows <= DUE_BATCH)).toBe(true);
    expect(finalised()).toBe(BACKLOG);
    for (const ack of [acks[0]!, acks[DUE_BATCH + 10]!, acks.at(-1)!]) {
      const s = await sb.acme.status(String(ack['paynet-order-id']), String(ack['merchant-order-id']));
      expect(s.status).toBe('approved');
    }
  });
});
