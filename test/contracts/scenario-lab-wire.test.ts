/**
 * Issue 29 §2: the scenario lab's answers, read over HTTP from a real sandbox, parse with the
 * contract the console's client uses (src/contracts/scenario-lab.ts): the relay's records, a replay,
 * the lab's state and a merchant's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  ClockStateSchema,
  DeliveriesAnswerSchema,
  LabStateSchema,
  ReplayAnswerSchema,
} from '../../src/contracts/scenario-lab.ts';
import { saleParams, startSandbox, type Sandbox } from '../sandbox/support.ts';
import { startMerchantHandler, type MerchantHandler } from '../sandbox/merchant-handler.ts';

async function admin(app: FastifyInstance, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await app.inject({
    method,
    url: `/sandbox${url}`,
    headers: {
      host: '127.0.0.1:4174',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  expect(res.statusCode).toBe(200);
  return JSON.parse(res.body) as unknown;
}

describe('the scenario lab on the wire', () => {
  let sb: Sandbox;
  let handler: MerchantHandler;

  beforeAll(async () => {
    sb = await startSandbox({
      finalizeDelayMs: 1000,
      callbackRetry: { schedule: 'fast', attempts: 3, baseDelayMs: 1000 },
    });
    handler = await startMerchantHandler(sb.merchants.acme.controlKey);
  });
  afterAll(async () => {
    await sb.app.close();
    await handler.close();
  });

  it('the relay’s records, a replay, the lab state and the clock parse with the contract', async () => {
    const r = await sb.acme.call('v2/sale', saleParams({ server_callback_url: `${handler.base}/cb` }));
    const id = String(r.body['paynet-order-id']);
    await admin(sb.app, 'POST', '/clock/acme/advance', { ms: 1000 });
    const list = DeliveriesAnswerSchema.parse(await admin(sb.app, 'GET', `/relay/deliveries?orderid=${id}`));
    expect(list.deliveries.length).toBeGreaterThan(0);
    const first = list.deliveries[0]!;
    expect(first.kind).toBe('delivery');
    const replay = ReplayAnswerSchema.parse(
      await admin(sb.app, 'POST', `/relay/deliveries/${first.id}/replay`, { mutation: 'as-is' }),
    );
    expect(replay.delivery.kind).toBe('replay');
    expect(replay.delivery.mutation).toBe('as-is');
    LabStateSchema.parse(await admin(sb.app, 'GET', '/scenarios'));
    ClockStateSchema.parse(await admin(sb.app, 'GET', '/clock/acme'));
  });
});
