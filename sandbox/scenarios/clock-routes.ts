import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN, jsonOf, noMerchant, readJson, refusal, whileClosed } from '../admin-json.ts';
import type { Engine } from '../engine/index.ts';
import type { MerchantRegistry } from '../merchants.ts';
import { fromMinorUnits } from '../outcomes.ts';
import type { Scheduler } from '../scheduler.ts';
import { chargebacksOf } from './chargebacks.ts';
import { pendingCallbacksOf } from './pending-callbacks.ts';
import type { ScenarioStore } from './scenario-store.ts';
import { MAX_ADVANCE_MS, TestClock } from './test-clock.ts';

export interface ClockRouteDeps {
  engine: Engine;
  scheduler: Scheduler;
  merchants: MerchantRegistry;
  lab: ScenarioStore;
}

const AdvanceBody = z.strictObject({ ms: z.number().int().min(1).max(MAX_ADVANCE_MS) });

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
 * The test clock's admin API (this machine only; closed in classroom mode): advance a merchant's
 * clock, read it with the merchant's recurring schedules and waiting callbacks.
 */
export function registerClockRoutes(app: FastifyInstance, deps: ClockRouteDeps): void {
  const { engine, scheduler, merchants, lab } = deps;
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

  app.post<{ Params: { login: string } }>('/clock/:login/advance', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    const down = whileClosed(json, store.isClosed);
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
    const down = whileClosed(json, store.isClosed);
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
}
