import { expiryInPast, F } from '../../src/catalog/index.ts';
import type { CvvOutcome } from '../outcomes.ts';
import { chargeDueAt, isPeriod } from '../recurring-calendar.ts';
import type { RecurringRow } from '../store/recurring-schedules.ts';
import { applyOutcome } from '../scenarios/engine-hooks.ts';
import type { OrderRow } from '../store.ts';
import type { EngineContext } from './context.ts';
import { finalizeOrderDue } from './finalize.ts';
import { APPROVE, newRequest, scheduled } from './orders.ts';

/**
 * The most charges one schedule makes at once: in one sweep of the scheduler (a schedule found far
 * behind, the sandbox having been stopped for months), or in one advance of the merchant's test
 * clock (a daily schedule over most of a year). The next one due stops the schedule instead of
 * charging: a runaway of hundreds of orders and callbacks is never made.
 */
export const MAX_CHARGES_AT_ONCE = 100;

/** Schedules read and charged per write transaction. */
export const RECURRING_BATCH = 50;

/** `client_orderid`'s longest (the catalog's), which a charge's derived id stays within. */
const CLIENT_ORDERID_MAX = F.client_orderid.maxLength ?? 128;

/** What a charge of a stored card that has expired by its date ends in (as make-rebill's). */
const EXPIRED: CvvOutcome = {
  kind: 'final',
  status: 'declined',
  errorMessage: 'Declined: the stored card has expired',
  errorCode: 'EXPIRED_CARD',
};

/**
 * A charge's merchant order id: the subscription's, a hyphen and the charge's number (`rp-7-1`,
 * `rp-7-2`, …), the subscription's id cut short when the whole would pass 128 characters. The
 * charge's idempotency key (`op_path` `recurring-charge/<recurring-payment-id>`) keeps it unique.
 */
export function chargeClientOrderId(parent: string, n: number): string {
  const suffix = `-${n}`;
  return `${parent.slice(0, CLIENT_ORDERID_MAX - suffix.length)}${suffix}`;
}

/**
 * Makes the charges of recurring payments as they fall due: each one a new order of kind
 * `recurring-charge` on the subscription's endpoint, for its amount and currency, on its card
 * (expired by the charge's date: declined `EXPIRED_CARD`, else approved; the scenario lab's outcome
 * scenarios apply), made final at once by the sandbox's finalisation, which queues its callback to
 * the subscription's `server_callback_url`.
 */
export class RecurringCharges {
  /** The merchants whose test clock is being advanced, with the charges made per schedule so far. */
  private readonly advancing = new Map<string, Map<number, number>>();

  constructor(private readonly x: EngineContext) {}

  /** Counts the charges of `login`'s schedules made while `run` runs (one advance of its clock). */
  async during<T>(login: string, run: () => Promise<T>): Promise<T> {
    const outer = this.advancing.has(login);
    if (!outer) this.advancing.set(login, new Map());
    try {
      return await run();
    } finally {
      if (!outer) this.advancing.delete(login);
    }
  }

  /**
   * Charges every schedule due at `now`, {@link RECURRING_BATCH} schedules per write transaction and
   * `maxBatches` at the most; returns how many schedules it charged (a full last batch: more may be
   * due). Read under the write lock, so two processes on one file charge each date once.
   */
  chargeDue(now: number, maxBatches = Number.POSITIVE_INFINITY): number {
    const { store, recurring } = this.x;
    if (store.isClosed || !recurring.anyDue(now)) return 0;
    let n = 0;
    for (let b = 0; b < maxBatches; b++) {
      const batch = store.tx(() => {
        const due = recurring.due(now, RECURRING_BATCH);
        for (const schedule of due) this.chargeSchedule(schedule, now);
        return due.length;
      });
      n += batch;
      if (batch < RECURRING_BATCH) break;
    }
    return n;
  }

  /** Every charge of one schedule due at `now`, in order, then where the schedule stands. */
  private chargeSchedule(s: RecurringRow, now: number): void {
    const { store, recurring } = this.x;
    const parent = store.orders.get(s.order_id);
    const counts = this.advancing.get(s.merchant);
    let made = counts?.get(s.id) ?? 0;
    let next = s.next_charge_at;
    let no = s.next_charge_no;
    let charged = 0;
    let status: RecurringRow['status'] = 'active';
    const period = s.period;
    if (!parent || !isPeriod(period) || s.interval < 1) status = 'stopped';
    else {
      while (next !== null && next <= now) {
        if (made >= MAX_CHARGES_AT_ONCE) {
          status = 'stopped';
          break;
        }
        const dueAt = chargeDueAt(s.created_at, period, s.interval, no);
        this.charge(s, parent, no, dueAt, now);
        charged++;
        made++;
        // The next date from the schedule, moved as this one was (by the test clock).
        next += chargeDueAt(s.created_at, period, s.interval, no + 1) - dueAt;
        no++;
      }
    }
    counts?.set(s.id, made);
    recurring.update(s.id, {
      status,
      next_charge_at: status === 'active' ? next : null,
      next_charge_no: no,
      charges_made: s.charges_made + charged,
    });
  }

  private charge(s: RecurringRow, parent: OrderRow, no: number, dueAt: number, now: number): void {
    const { store, recurring, scenarios } = this.x;
    const order = store.orders.insert({
      merchant: s.merchant,
      endpoint_kind: parent.endpoint_kind,
      endpoint_ref: parent.endpoint_ref,
      end_point_id: parent.end_point_id,
      op_path: `recurring-charge/${s.id}`,
      kind: 'recurring-charge',
      client_orderid: chargeClientOrderId(parent.client_orderid, no),
      params_hash: '',
      ack_json: '{}',
      amount_minor: s.amount_minor,
      currency: s.currency,
      card_bin: parent.card_bin,
      card_last4: parent.card_last4,
      card_exp_month: parent.card_exp_month,
      card_exp_year: parent.card_exp_year,
      card_name: parent.card_name,
      card_brand: parent.card_brand,
      card_hash: parent.card_hash,
      callback_url: parent.callback_url,
      extra_json: parent.extra_json,
      created_at: now,
    });
    const expired = expiryInPast(parent.card_exp_month ?? '', parent.card_exp_year ?? '', new Date(dueAt));
    store.requests.insert({
      ...newRequest(order.id, 'recurring-charge', s.amount_minor, s.currency, now),
      ...scheduled(this.x, expired ? EXPIRED : APPROVE, now),
      // Due at once: no client waits for an acknowledgement in between.
      finalize_at: now,
    });
    recurring.recordCharge(order.id, s.id, no, dueAt);
    // The subscription's scenarios (those it was made under or given), else the merchant's.
    const choice = scenarios?.effectiveOrderChoice(parent.id, s.merchant) ?? [];
    // A subscription made under an empty X-Sandbox-Scenario keeps "none" for its charges too.
    if (choice.length > 0 || (scenarios?.ordersHaveChoices && scenarios.orderChoice(parent.id))) {
      scenarios!.setOrderChoice(order.id, choice, false);
      applyOutcome(store, order.id, choice);
    }
    // Final in the transaction that made it (stuck-processing left it without a deadline), its
    // callback queued as any final transaction's.
    finalizeOrderDue(this.x, order.id, now);
  }
}
