import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CryptoPort } from '../../src/core/index.ts';
import { ScenarioChoiceSchema, SCENARIOS } from '../../src/catalog/scenarios.ts';
import { decodeUtf8 } from '../http-input.ts';
import { fromMinorUnits } from '../outcomes.ts';
import { encodeJsonBody } from '../replies.ts';
import type { Engine } from '../engine/index.ts';
import type { MerchantRegistry } from '../merchants.ts';
import type { Scheduler } from '../scheduler.ts';
import { callbackHostAllowed, hostRefusal } from '../relay/allowed-hosts.ts';
import { MutationSchema, mutate } from '../relay/mutations.ts';
import { sendCallback } from '../relay/send-callback.ts';
import { registerHandlerCheckRoute } from '../relay/handler-check-route.ts';
import { applyOutcome } from './engine-hooks.ts';
import type { ScenarioStore } from './scenario-store.ts';
import { chargebacksOf } from './chargebacks.ts';
import { pendingCallbacksOf } from './pending-callbacks.ts';
import { MAX_ADVANCE_MS, TestClock } from './test-clock.ts';

export interface LabDeps {
  engine: Engine;
  scheduler: Scheduler;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
  lab: ScenarioStore;
}

const ADMIN = { config: { access: 'sandbox-admin' } } as const;

const ChoiceBody = z.strictObject({ choice: ScenarioChoiceSchema });
const AdvanceBody = z.strictObject({ ms: z.number().int().min(1).max(MAX_ADVANCE_MS) });
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

type Json = (code: number, body: Record<string, unknown>) => FastifyReply;

function jsonOf(reply: FastifyReply): Json {
  return (code, body) =>
    reply
      .code(code)
      .headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      .send(encodeJsonBody(body));
}

/** The sandbox's error shape (as its other admin routes answer): a stable code and what to do. */
function refusal(json: Json, code: number, errorCode: string, message: string): FastifyReply {
  return json(code, {
    type: code === 400 ? 'validation-error' : 'error',
    'error-message': message,
    'error-code': errorCode,
  });
}

/** The 404 of a route that names a merchant the sandbox does not have. */
function noMerchant(json: Json, login: string): FastifyReply {
  return refusal(json, 404, 'NOT_FOUND', `No merchant "${login.slice(0, 64)}" in this sandbox.`);
}

/** Reads a JSON body with a schema; an empty body reads as `{}`. */
export function readJson<T extends z.ZodType>(
  request: FastifyRequest,
  schema: T,
): { ok: true; data: z.output<T> } | { ok: false; message: string } {
  const text = Buffer.isBuffer(request.body) ? decodeUtf8(request.body) : undefined;
  let parsed: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, message: 'The body is not JSON.' };
    }
  }
  const r = schema.safeParse(parsed);
  if (r.success) return { ok: true, data: r.data };
  return {
    ok: false,
    message: r.error.issues
      .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
      .join('; '),
  };
}

/** Schedules and charges listed per merchant and per schedule, the newest first. */
const SCHEDULES_LISTED = 50;
const CHARGES_LISTED = 12;

/** A merchant's recurring schedules as the lab shows them (`GET /sandbox/clock/:login`). */
function recurringView(engine: Engine, login: string, advancedMs: number) {
  return engine.recurring.ofMerchant(login, SCHEDULES_LISTED).map((s) => ({
    recurringPaymentId: String(s.id),
    orderId: String(s.order_id),
    amount: fromMinorUnits(s.amount_minor),
    currency: s.currency,
    period: s.period,
    interval: s.interval,
    status: s.status,
    createdAt: s.created_at,
    nextChargeAt: s.next_charge_at === null ? null : s.next_charge_at + advancedMs,
    nextChargeNo: s.next_charge_no,
    chargesMade: s.charges_made,
    charges: engine.recurring.chargesOf(s.id, CHARGES_LISTED).map((c) => ({
      orderId: String(c.order_id),
      clientOrderId: c.client_orderid,
      chargeNo: c.charge_no,
      dueAt: c.due_at,
      status: c.status,
    })),
  }));
}

/**
 * The scenario lab's admin API (this machine only, like the demo merchant's credentials; closed in
 * classroom mode): the scenario table and choices, the test clock, the relay's record and replays.
 */
export function registerLab(app: FastifyInstance, deps: LabDeps): void {
  const { engine, scheduler, merchants, crypto, lab } = deps;
  const store = engine.store;
  const clock = new TestClock(
    store.db,
    lab,
    {
      now: () => engine.options.clock(),
      dispatch: () => scheduler.dispatch(),
      drain: () => scheduler.drain(),
      inFlight: () => scheduler.deliveriesInFlight,
      shifted: (login, ms) => scheduler.noteShift(login, ms),
      stepMs: scheduler.periodMs,
      minGapMs: engine.options.callbackRetry.baseDelayMs,
    },
    {
      // The recurring charges' and the chargeback scenario's deadlines, the merchant's like the others.
      deadline: (fn, login, by) => {
        const a = engine.recurring.deadline(fn, login, by);
        const b = chargebacksOf(store.db).deadline(fn, login, by);
        return a === undefined ? b : b === undefined ? a : Math[fn](a, b);
      },
      shift: (login, ms) => {
        engine.recurring.shift(login, ms);
        chargebacksOf(store.db).shift(login, ms);
      },
      during: (login, run) => engine.recurringCharges.during(login, run),
    },
  );
  const closed = (json: Json) =>
    store.isClosed ? refusal(json, 503, 'INTERNAL', 'The sandbox is shutting down.') : undefined;

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
    const down = closed(json);
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
    const down = closed(json);
    if (down) return down;
    const id = /^\d{1,15}$/.test(request.params.orderid) ? Number(request.params.orderid) : undefined;
    const order = id === undefined ? undefined : store.getOrder(id);
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

  app.post<{ Params: { login: string } }>('/clock/:login/advance', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    const down = closed(json);
    if (down) return down;
    const merchant = merchants.byLogin(request.params.login);
    if (!merchant) return noMerchant(json, request.params.login);
    const body = readJson(request, AdvanceBody);
    if (!body.ok)
      return refusal(json, 400, 'VALIDATION', `Send {"ms": 1209600000} (at most 366 days): ${body.message}`);
    const done = await clock.advance(merchant.login, body.data.ms);
    return json(200, { ...done });
  });

  // The merchant's clock and recurring schedules: each schedule's next charge (in the merchant's
  // time, the clock's advance included) and its latest charges.
  app.get<{ Params: { login: string } }>('/clock/:login', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    const down = closed(json);
    if (down) return down;
    const merchant = merchants.byLogin(request.params.login);
    if (!merchant) return noMerchant(json, request.params.login);
    const advanced = lab.clockAdvance(merchant.login);
    return json(200, {
      login: merchant.login,
      clockAdvancedMs: advanced,
      recurring: recurringView(engine, merchant.login, advanced),
      callbacks: pendingCallbacksOf(store.db, merchant.login, advanced),
      retrySchedule: engine.options.callbackRetry.schedule,
    });
  });

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
    const down = closed(json);
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

  registerHandlerCheckRoute(app, { engine, merchants, crypto, refusal, jsonOf, readJson });
}

export type { Json };
export { jsonOf, refusal };
