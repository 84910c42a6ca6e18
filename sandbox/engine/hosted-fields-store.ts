import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CvvOutcome } from '../outcomes.ts';
import { statementCache } from '../sqlite.ts';
import type { OrderRow } from '../store.ts';

/**
 * The hosted-fields tickets and tokens (engine/hosted-fields.ts), in tables of their own (made by
 * the store's schema, sandbox/store/schema.ts). A token's
 * card is kept as every order keeps it (BIN, last four, expiry, keyed hash); its CVV only as the
 * outcome it picks.
 */
/** How long a ticket and a token live: short, as the names say; the exact figures are ours. */
export const TICKET_TTL_MS = 15 * 60_000;
export const TOKEN_TTL_MS = 15 * 60_000;

const secret = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url')}`;

export class HostedFieldsStore {
  private readonly stmt: (sql: string) => Database.Statement;
  constructor(db: Database.Database) {
    this.stmt = statementCache(db);
  }

  newTicket(merchant: string, now: number): { ticket: string; expiresAt: number } {
    const ticket = secret('eph');
    const expiresAt = now + TICKET_TTL_MS;
    this.stmt('DELETE FROM hosted_fields_tickets WHERE expires_at < ?').run(now);
    this.stmt('INSERT INTO hosted_fields_tickets (ticket, merchant, expires_at) VALUES (?, ?, ?)').run(
      ticket,
      merchant,
      expiresAt,
    );
    return { ticket, expiresAt };
  }

  /** The merchant of a live ticket, or undefined. */
  ticketMerchant(ticket: string, now: number): string | undefined {
    return this.stmt('SELECT merchant FROM hosted_fields_tickets WHERE ticket = ? AND expires_at >= ?')
      .pluck()
      .get(ticket, now) as string | undefined;
  }

  newToken(merchant: string, card: Partial<OrderRow>, outcome: CvvOutcome, now: number) {
    const token = secret('hft');
    const expiresAt = now + TOKEN_TTL_MS;
    this.stmt('DELETE FROM hosted_fields_tokens WHERE expires_at < ?').run(now - TOKEN_TTL_MS);
    this.stmt(
      'INSERT INTO hosted_fields_tokens (token, merchant, card_json, outcome_json, expires_at) VALUES (?, ?, ?, ?, ?)',
    ).run(token, merchant, JSON.stringify(card), JSON.stringify(outcome), expiresAt);
    return { token, expiresAt };
  }

  /** Marks a live, unused token of the merchant used and gives its card; undefined otherwise. */
  useToken(token: string, merchant: string, now: number) {
    const row = this.stmt(
      `UPDATE hosted_fields_tokens SET used_at = ?
       WHERE token = ? AND merchant = ? AND used_at IS NULL AND expires_at >= ?
       RETURNING card_json, outcome_json`,
    ).get(now, token, merchant, now) as { card_json: string; outcome_json: string } | undefined;
    return (
      row && {
        card: JSON.parse(row.card_json) as Partial<OrderRow>,
        outcome: JSON.parse(row.outcome_json) as CvvOutcome,
      }
    );
  }
}
