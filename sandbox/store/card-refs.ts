import type { Statements, TableSchema } from './statements.ts';

export interface CardRefRow {
  id: number;
  merchant: string;
  order_id: number;
  bin: string;
  last4: string;
  exp_month: string;
  exp_year: string;
  name: string;
  brand: string;
  card_hash: string;
  pan_length: number;
  created_at: number;
}

/** Card references (make-rebill, recurring): readable, gateway-like ids from 1000001. */
export const CARD_REFS_TABLE: TableSchema = {
  name: 'card_refs',
  ddl: `CREATE TABLE IF NOT EXISTS card_refs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merchant TEXT NOT NULL, order_id INTEGER NOT NULL UNIQUE REFERENCES orders(id),
  bin TEXT NOT NULL, last4 TEXT NOT NULL, exp_month TEXT NOT NULL, exp_year TEXT NOT NULL, name TEXT NOT NULL,
  brand TEXT NOT NULL, card_hash TEXT NOT NULL, pan_length INTEGER NOT NULL, created_at INTEGER NOT NULL
);`,
  idSeed: 1_000_000,
};

export class CardRefs {
  constructor(private readonly s: Statements) {}

  insert(c: Omit<CardRefRow, 'id'>): CardRefRow {
    const id = Number(this.s.insertRow('card_refs', c).lastInsertRowid);
    return { id, ...c };
  }

  get(merchant: string, id: number): CardRefRow | undefined {
    return this.s.stmt('SELECT * FROM card_refs WHERE merchant = ? AND id = ?').get(merchant, id) as
      CardRefRow | undefined;
  }

  ofOrder(orderId: number): CardRefRow | undefined {
    return this.s.stmt('SELECT * FROM card_refs WHERE order_id = ?').get(orderId) as CardRefRow | undefined;
  }
}
