import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CryptoPort } from '../../src/core/index.ts';
import { ADMIN, jsonOf, readJson, refusal, whileClosed } from '../admin-json.ts';
import type { Engine } from '../engine/index.ts';
import type { MerchantRegistry } from '../merchants.ts';
import type { Scheduler } from '../scheduler.ts';
import { callbackHostAllowed, hostRefusal } from './allowed-hosts.ts';
import { registerHandlerCheckRoute } from './handler-check-route.ts';
import { MutationSchema, mutate } from './mutations.ts';
import { sendCallback } from './send-callback.ts';

export interface RelayRouteDeps {
  engine: Engine;
  scheduler: Scheduler;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
}

const ReplayBody = z.strictObject({ mutation: MutationSchema.default('as-is') });
const DeliveriesQuery = z.object({
  login: z.string().min(1).max(64).optional(),
  orderid: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(500))
    .default(100),
});

/**
 * The relay's admin API (this machine only; closed in classroom mode): its record of deliveries,
 * replays as sent or mutated, and the handler check.
 */
export function registerRelayRoutes(app: FastifyInstance, deps: RelayRouteDeps): void {
  const { engine, scheduler, merchants, crypto } = deps;
  const store = engine.store;

  app.get('/relay/deliveries', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    const q = DeliveriesQuery.safeParse(request.query);
    if (!q.success)
      return refusal(json, 400, 'VALIDATION', 'Use ?login=<merchant>&orderid=<digits>&limit=<1-500>.');
    const filter = {
      ...(q.data.login !== undefined ? { merchant: q.data.login } : {}),
      ...(q.data.orderid !== undefined ? { orderId: q.data.orderid } : {}),
    };
    return json(200, { deliveries: scheduler.deliveries.list(filter, q.data.limit) });
  });

  app.post<{ Params: { id: string } }>('/relay/deliveries/:id/replay', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    const down = whileClosed(json, store.isClosed);
    if (down) return down;
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : undefined;
    const sent = id === undefined ? undefined : scheduler.deliveries.get(id);
    if (!sent)
      return refusal(
        json,
        404,
        'NOT_FOUND',
        `No delivery ${request.params.id.slice(0, 20)} in the relay's record.`,
      );
    const body = readJson(request, ReplayBody);
    if (!body.ok)
      return refusal(
        json,
        400,
        'VALIDATION',
        `Send {"mutation": "as-is" | "bad-control" | "amount" | "duplicate" | "stale"}: ${body.message}`,
      );
    const merchant = merchants.byLogin(sent.merchant);
    if (!merchant) return refusal(json, 404, 'NOT_FOUND', `Merchant "${sent.merchant}" is no longer known.`);
    const url = await mutate(new URL(sent.url), body.data.mutation, merchant.controlKey, crypto);
    // Checked again: the allowed hosts may have changed since the recorded send.
    if (!callbackHostAllowed(url, engine.options))
      return refusal(json, 403, 'CALLBACK_HOST_REFUSED', hostRefusal(url));
    const answer = await sendCallback(
      url,
      engine.options.callbackTimeoutMs,
      AbortSignal.timeout(engine.options.callbackTimeoutMs + 1000),
    );
    if (store.isClosed) return refusal(json, 503, 'INTERNAL', 'The sandbox is shutting down.');
    const recorded = scheduler.deliveries.record({
      callbackId: sent.callbackId,
      orderId: sent.orderId,
      merchant: sent.merchant,
      kind: 'replay',
      mutation: body.data.mutation,
      url: url.href,
      at: engine.options.clock(),
      httpStatus: answer.httpStatus,
      result: answer.result,
      durationMs: answer.durationMs,
      bodyExcerpt: answer.bodyExcerpt,
      urlField: sent.urlField,
    });
    return json(200, { delivery: recorded });
  });

  registerHandlerCheckRoute(app, { engine, merchants, crypto });
}
