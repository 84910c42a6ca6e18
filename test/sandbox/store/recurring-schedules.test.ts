import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecurringStore } from '../../../sandbox/store/recurring-schedules.ts';
import { SandboxStore } from '../../../sandbox/store.ts';
import { indexes, order, tempDir, toVersion2Layout } from './fixtures.ts';

const columns = (store: SandboxStore) =>
  (store.db.prepare('PRAGMA table_info(recurring_payments)').all() as Array<{ name: string }>).map(
    (c) => c.name,
  );

/** A subscription as create-recurring-payment stored one before the schedules existed. */
function subscription(store: SandboxStore, client: string, period: string, createdAt: number): number {
  const o = store.orders.insert({ ...order(client, createdAt), op_path: 'v4/create-recurring-payment' });
  return store.recurringPayments.insert({
    merchant: 'm',
    order_id: o.id,
    card_type: 'SRC',
    amount_minor: 999,
    currency: 'EUR',
    period,
    interval: 1,
    created_at: createdAt,
  });
}

describe('the recurring schedules on a file that had none', () => {
  it('migration 3 adds the columns and indexes once; each older subscription starts at its next date', () => {
    const file = join(tempDir('recurring-store-'), 'sandbox.sqlite');
    const created = Date.UTC(2031, 0, 31, 9, 30);
    const now = Date.UTC(2031, 3, 15); // 15 April: 28 February and 31 March have passed
    const old = new SandboxStore(file);
    const monthly = subscription(old, 'rp-1', 'month', created);
    const unreadable = subscription(old, 'rp-2', 'fortnight', created);
    old.close();
    toVersion2Layout(file, (db) =>
      expect(
        db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('recurring_payments'),
      ).not.toContain('next_charge_at'),
    );

    const store = new SandboxStore(file);
    try {
      const recurring = new RecurringStore(store.db, now);
      expect(columns(store)).toEqual(
        expect.arrayContaining(['status', 'next_charge_at', 'next_charge_no', 'charges_made']),
      );
      expect(indexes(store.db, 'recurring_payments')).toEqual([
        'recurring_due',
        'recurring_merchant',
        'recurring_merchant_due',
      ]);
      // The dates that passed before the sandbox charged anything are not charged after the fact.
      expect(recurring.get(monthly)).toMatchObject({
        status: 'active',
        next_charge_no: 3,
        next_charge_at: Date.UTC(2031, 3, 30, 9, 30),
        charges_made: 0,
      });
      expect(recurring.get(unreadable)).toMatchObject({ status: 'stopped', next_charge_at: null });
      expect(recurring.anyDue(now)).toBe(false);
      expect(recurring.due(Date.UTC(2031, 3, 30, 9, 30), 10).map((r) => r.id)).toEqual([monthly]);

      // Opened again (a restart, a second process): nothing is added or rescheduled twice.
      recurring.update(monthly, { status: 'active', next_charge_at: 1, next_charge_no: 7, charges_made: 4 });
      new RecurringStore(store.db, now);
      expect(recurring.get(monthly)).toMatchObject({ next_charge_at: 1, next_charge_no: 7, charges_made: 4 });
    } finally {
      store.close();
    }
  });
});
