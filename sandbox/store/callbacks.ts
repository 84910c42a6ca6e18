import { limitClause } from '../sqlite.ts';
import type { Patch, Statements, TableSchema } from './statements.ts';

export interface CallbackRow {
  id: number;
  request_id: number;
  url: string;
  attempts: number;
  next_at: number;
  state: 'pending' | 'delivered' | 'failed';
  last_result: string | null;
  /** The process delivering the current attempt, and until when its claim holds. */
  lease_owner: string | null;
  lease_until: number | null;
}

/** The callbacks to deliver, each with its claim (lease) while a process delivers it. */
export const CALLBACKS_TABLE: TableSchema = {
  name: 'callbacks',
  ddl: `CREATE TABLE IF NOT EXISTS callbacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id INTEGER NOT NULL REFERENCES requests(id), url TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, state TEXT NOT NULL, last_result TEXT,
  lease_owner TEXT, lease_until INTEGER
);
CREATE INDEX IF NOT EXISTS callbacks_due ON callbacks (next_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS callbacks_claimable ON callbacks (next_at) WHERE state = 'pending' AND lease_until IS NULL;
CREATE INDEX IF NOT EXISTS callbacks_leased ON callbacks (lease_until) WHERE state = 'pending' AND lease_until IS NOT NULL;`,
  // Schema version 2.
  addedColumns: [
    ['lease_owner', 'TEXT'],
    ['lease_until', 'INTEGER'],
  ],
};

/** How long a callback claim holds beyond the delivery timeout: a process that dies loses it after this. */
const LEASE_MARGIN_MS = 5_000;

/** The callbacks table: what is due, and the claims that let one process of several deliver each attempt. */
export class Callbacks {
  constructor(
    private readonly s: Statements,
    /** This process's name in callback claims. */
    private readonly owner: string,
    private readonly tx: <T>(fn: () => T) => T,
  ) {}

  insert(requestId: number, url: string, nextAt: number): void {
    this.s
      .stmt(
        `INSERT INTO callbacks (request_id, url, attempts, next_at, state) VALUES (?, ?, 0, ?, 'pending')`,
      )
      .run(requestId, url, nextAt);
  }

  /** Pending callbacks due now, claimed or not (for tests and diagnostics). */
  due(now: number, limit: number): CallbackRow[] {
    return this.s
      .stmt(
        `SELECT * FROM callbacks WHERE state = 'pending' AND next_at <= ? ORDER BY next_at, id ${limitClause(limit)}`,
      )
      .all(now) as CallbackRow[];
  }

  /** See SandboxStore.claimCallbacks. */
  claim(now: number, holdMs: number, limit: number): CallbackRow[] {
    return this.tx(() => {
      // Two index walks that never pass a row in flight (a fan-out keeps a thousand leased): claims
      // whose holder died first, then rows no one holds.
      const expired = this.s
        .stmt(
          `SELECT * FROM callbacks WHERE state = 'pending' AND lease_until IS NOT NULL AND lease_until <= ?
           AND next_at <= ? ORDER BY lease_until ${limitClause(limit)}`,
        )
        .all(now, now) as CallbackRow[];
      const due =
        expired.length >= limit
          ? expired
          : expired.concat(
              this.s
                .stmt(
                  `SELECT * FROM callbacks WHERE state = 'pending' AND lease_until IS NULL AND next_at <= ?
                 ORDER BY next_at, id ${limitClause(limit - expired.length)}`,
                )
                .all(now) as CallbackRow[],
            );
      const until = now + holdMs + LEASE_MARGIN_MS;
      const claim = this.s.stmt('UPDATE callbacks SET lease_owner = ?, lease_until = ? WHERE id = ?');
      for (const cb of due) claim.run(this.owner, until, cb.id);
      return due.map((cb) => ({ ...cb, lease_owner: this.owner, lease_until: until }));
    });
  }

  /** See SandboxStore.finishCallback. */
  finish(id: number, patch: Patch<Omit<CallbackRow, 'lease_owner' | 'lease_until'>>): boolean {
    return this.tx(() => {
      const row = this.s.stmt('SELECT lease_owner FROM callbacks WHERE id = ?').get(id) as
        { lease_owner: string | null } | undefined;
      if (!row || row.lease_owner !== this.owner) return false;
      this.s.update('callbacks', id, { ...patch, lease_owner: null, lease_until: null });
      return true;
    });
  }

  /** Gives up this process's claims (on a clean stop), so another process or the next start delivers at once. */
  releaseClaims(): void {
    this.s
      .stmt('UPDATE callbacks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?')
      .run(this.owner);
  }

  ofOrder(orderId: number): CallbackRow[] {
    return this.s
      .stmt(
        'SELECT c.* FROM callbacks c JOIN requests r ON r.id = c.request_id WHERE r.order_id = ? ORDER BY c.id',
      )
      .all(orderId) as CallbackRow[];
  }

  update(id: number, patch: Patch<CallbackRow>): void {
    this.s.update('callbacks', id, patch);
  }
}
