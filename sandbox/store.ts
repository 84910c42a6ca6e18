/**
 * The sandbox's persistent state, the one owner of its database file: it opens the file, migrates
 * it (`store/schema.ts`), and exposes one repository per table as a field (`store.orders`,
 * `store.requests`, `store.callbacks`, …). What is store-wide stays here: closing, transactions and
 * group commit (`store/transactions.ts`), the keys kept beside the file. Callers import this file
 * for the store and the repositories' row types.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openDatabase } from './sqlite.ts';
import { AddedMerchants } from './store/added-merchants.ts';
import { Callbacks } from './store/callbacks.ts';
import { CardRefs } from './store/card-refs.ts';
import { MerchantKeys } from './store/merchant-keys.ts';
import { Meta } from './store/meta.ts';
import { Nonces } from './store/nonces.ts';
import { Orders } from './store/orders.ts';
import { RecurringPayments } from './store/recurring.ts';
import { Requests } from './store/requests.ts';
import { migrate, orderIdFloor } from './store/schema.ts';
import { secretsOutOfFile } from './store/secrets-at-rest.ts';
import type { KeyFile } from './secure-files.ts';
import { Statements } from './store/statements.ts';
import { Statuses } from './store/status.ts';
import { Transactions } from './store/transactions.ts';

export type { AddedMerchantRow } from './store/added-merchants.ts';
export type { CallbackRow, ClaimedDelivery, DeliveryTarget } from './store/callbacks.ts';
export type { CardRefRow } from './store/card-refs.ts';
export { NONCE_PURGE_BATCH } from './store/nonces.ts';
export type { NewOrder, OrderKind, OrderRow } from './store/orders.ts';
export type { NewRecurringPayment } from './store/recurring.ts';
export {
  FINAL,
  type DueRequest,
  type RequestKind,
  type RequestRow,
  type TransactionStatus,
} from './store/requests.ts';
export { BUSY_TIMEOUT_MS } from './store/schema.ts';
export type { Patch } from './store/statements.ts';
export type { StatusOrder, StatusRequest } from './store/status.ts';

/**
 * The sandbox's persistent state: orders, their requests, card references, nonces and callbacks,
 * one repository each. Methods here are store-wide only; a table's reads and writes are its
 * repository's (test/lint/store-facade.test.ts keeps it so).
 */
export class SandboxStore {
  readonly db: Database.Database;
  /** This process's name in callback claims. */
  readonly owner = `${process.pid}-${randomUUID()}`;
  /** Small settings and markers of the file (`meta` table): the classroom keeps its state here. */
  readonly meta: Meta;
  readonly orders: Orders;
  readonly requests: Requests;
  /** The status read: an order and one of its requests in one statement. */
  readonly status: Statuses;
  readonly cardRefs: CardRefs;
  readonly recurringPayments: RecurringPayments;
  /** OAuth nonces. */
  readonly nonces: Nonces;
  /** Callbacks to deliver, and this process's claims on them. */
  readonly callbacks: Callbacks;
  /** Merchant keys registered at run time. */
  readonly merchantKeys: MerchantKeys;
  /** Merchants created at run time, one per classroom trainee. */
  readonly addedMerchants: AddedMerchants;
  private closed = false;
  private readonly t: Transactions;
  /** The keys kept beside the file, never in it (sandbox/secure-files.ts). */
  private readonly keyFile: KeyFile;

  constructor(dbPath: string) {
    this.db = openDatabase(dbPath);
    const s = new Statements(this.db);
    this.t = new Transactions(this.db, s.stmt);
    const tx = <T>(fn: () => T): T => this.t.tx(fn);
    this.meta = new Meta(s.stmt);
    this.orders = new Orders(s);
    this.requests = new Requests(s);
    this.status = new Statuses(s);
    this.cardRefs = new CardRefs(s);
    this.recurringPayments = new RecurringPayments(s);
    this.nonces = new Nonces(s);
    this.callbacks = new Callbacks(s, this.owner, tx);
    this.merchantKeys = new MerchantKeys(s);
    try {
      migrate(this.db, tx, this.meta, dbPath);
      this.keyFile = secretsOutOfFile(this.db, tx, this.meta, dbPath);
      this.orders.idFloor = orderIdFloor(this.meta);
      // Rows left pending by an earlier run are due as if this process had scheduled them.
      this.requests.refreshDueHint();
    } catch (e) {
      this.db.close();
      throw e;
    }
    this.addedMerchants = new AddedMerchants(s, this.keyFile.controlKeyKey);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.t.commitBatch();
    this.closed = true;
    this.db.close();
  }

  // Transactions (sandbox/store/transactions.ts)

  /**
   * A write transaction that takes the lock up front (`BEGIN IMMEDIATE`): a deferred one that
   * upgrades to write while another process writes fails with SQLITE_BUSY at once, whatever the
   * busy timeout. Nested calls become savepoints.
   */
  tx<T>(fn: () => T): T {
    return this.t.tx(fn);
  }

  /** A read transaction: one consistent snapshot, and no write lock held against another process. */
  read<T>(fn: () => T): T {
    return this.t.read(fn);
  }

  /** Whether a group commit is open (a call joining it reads what the batch wrote so far). */
  get batchOpen(): boolean {
    return this.t.batchOpen;
  }

  /**
   * Group commit: runs `fn` in a savepoint of a write transaction shared by every call made in the
   * same turn of the event loop, and resolves once that transaction is committed (rejects if the
   * COMMIT fails, after a rollback). Under load one COMMIT, the costliest step of a small write,
   * serves several requests; none is answered before its writes are durable. `onOpen` runs first
   * when this call opens the batch. A throw from `fn` undoes only its own savepoint.
   */
  batched<T>(fn: () => T, onOpen?: () => void): Promise<T> {
    return this.t.batched(fn, onOpen);
  }

  /** The HMAC key of the cards' hashes: in the key file beside the database, not in it. */
  get cardHashSecret(): string {
    return this.keyFile.cardHashSecret;
  }
}
