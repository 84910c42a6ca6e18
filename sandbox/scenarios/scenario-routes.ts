import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ScenarioChoiceSchema, SCENARIOS } from '../../src/catalog/scenarios.ts';
import { ADMIN, jsonOf, noMerchant, readJson, refusal, whileClosed } from '../admin-json.ts';
import type { Engine } from '../engine/index.ts';
import type { MerchantRegistry } from '../merchants.ts';
import { applyOutcome } from './engine-hooks.ts';
import type { ScenarioStore } from './scenario-store.ts';

export interface ScenarioRouteDeps {
  engine: Engine;
  merchants: MerchantRegistry;
  lab: ScenarioStore;
}

const ChoiceBody = z.strictObject({ choice: ScenarioChoiceSchema });

/**
 * The scenario lab's admin API (this machine only, like the demo merchant's credentials; closed in
 * classroom mode): the scenario table, the choice per merchant and per order. The test clock's
 * routes are clock-routes.ts, the relay's sandbox/relay/relay-routes.ts.
 */
export function registerScenarioRoutes(app: FastifyInstance, deps: ScenarioRouteDeps): void {
  const { engine, merchants, lab } = deps;
  const store = engine.store;

  app.get('/scenarios', ADMIN, async (_request, reply) =>
    jsonOf(reply)(200, {
      scenarios: SCENARIOS,
      merchants: merchants.all().map((m) => ({
        login: m.login,
        choice: lab.merchantChoice(m.login),
        clockAdvancedMs: lab.clockAdvance(m.login),
      })),
    }),
  );

  app.put<{ Params: { login: string } }>('/scenarios/merchants/:login', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    const down = whileClosed(json, store.isClosed);
    if (down) return down;
    const merchant = merchants.byLogin(request.params.login);
    if (!merchant) return noMerchant(json, request.params.login);
    const body = readJson(request, ChoiceBody);
    if (!body.ok)
      return refusal(
        json,
        400,
        'VALIDATION',
        `Send {"choice": [{"name": "latency", "delayMs": 50}]}: ${body.message}`,
      );
    lab.setMerchantChoice(merchant.login, body.data.choice, engine.options.clock());
    return json(200, { login: merchant.login, choice: body.data.choice });
  });

  app.put<{ Params: { orderid: string } }>('/scenarios/orders/:orderid', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    const down = whileClosed(json, store.isClosed);
    if (down) return down;
    const id = /^\d{1,15}$/.test(request.params.orderid) ? Number(request.params.orderid) : undefined;
    const order = id === undefined ? undefined : store.orders.get(id);
    if (!order)
      return refusal(
        json,
        404,
        'ORDER_NOT_FOUND',
        `No order ${request.params.orderid.slice(0, 20)} in this sandbox.`,
      );
    const body = readJson(request, ChoiceBody);
    if (!body.ok)
      return refusal(json, 400, 'VALIDATION', `Send {"choice": [{"name": "final-error"}]}: ${body.message}`);
    store.tx(() => {
      lab.setOrderChoice(order.id, body.data.choice, true);
      applyOutcome(store, order.id, body.data.choice);
    });
    return json(200, { orderid: String(order.id), choice: body.data.choice });
  });
}
