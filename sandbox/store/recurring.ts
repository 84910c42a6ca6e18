import type { Statements, TableSchema } from './statements.ts';

/**
 * Recurring payments (subscriptions on a card reference): readable, gateway-like ids from 700001.
 * The table's whole definition and its statements are here, so a change of its shape is one file.
 */
export const RECURRING_TABLE: TableSchema = {
  name: 'recurring_payments',
  ddl: `CREATE TABLE IF NOT EXISTS recurring_payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merchant TEXT NOT NULL, order_id INTEGER NOT NULL REFERENCES orders(id),
  card_type TEXT NOT NULL, amount_minor INTEGER NOT NULL, currency TEXT NOT NULL, period TEXT NOT NULL, interval INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);`,
  idSeed: 700_000,
};

/** What a new recurring payment stores. */
export interface NewRecurringPayment {
  merchant: string;
  order_id: number;
  card_type: string;
  amount_minor: number;
  currency: string;
  period: string;
  interval: number;
  created_at: number;
}

export class RecurringPayments {
  constructor(private readonly s: Statements) {}

  /** Inserts a recurring payment; returns its id. */
  insert(r: NewRecurringPayment): number {
    return Number(
      this.s
        .stmt(
          `INSERT INTO recurring_payments (merchant, order_id, card_type, amount_minor, currency, period, interval, created_at)
           VALUES (@merchant, @order_id, @card_type, @amount_minor, @currency, @period, @interval, @created_at)`,
        )
        .run(r).lastInsertRowid,
    );
  }
}
