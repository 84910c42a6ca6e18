/**
 * The sandbox's persistent state, one facade over the table modules of `sandbox/store/`: the
 * schema and its migrations (`schema.ts`), the transactions and group commit (`transactions.ts`),
 * and one module per table (orders, requests, card references, recurring payments, nonces,
 * callbacks, merchant keys, merchants added at run time). Callers import this file only.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openDatabase } from './sqlite.ts';
import { AddedMerchants, type AddedMerchantRow } from './store/added-merchants.ts';
import { Callbacks, type CallbackRow, type ClaimedDelivery } from './store/callbacks.ts';
import { CardRefs, type CardRefRow } from './store/card-refs.ts';
import { MerchantKeys } from './store/merchant-keys.ts';
import { Meta } from './store/meta.ts';
import { NONCE_PURGE_BATCH, Nonces } from './store/nonces.ts';
import { Orders, type NewOrder, type OrderRow } from './store/orders.ts';
import { RecurringPayments, type NewRecurringPayment } from './store/recurring.ts';
import { Requests, type DueRequest, type RequestRow } from './store/requests.ts';
import { migrate, orderIdFloor } from './store/schema.ts';
import { secretsOutOfFile } from './store/secrets-at-rest.ts';
import { seal, unseal, type KeyFile } from './secure-files.ts';
import { Statements, type Patch } from './store/statements.ts';
import { statusOf, type StatusOrder, type StatusRequest } from './store/status.ts';
import { Transactions } from './store/transactions.ts';

export type { AddedMerchantRow } from './store/added-merchants.ts';
export type { CallbackRow, ClaimedDelivery, DeliveryTarget } from './store/callbacks.ts';
export type { CardRefRow } from './store/card-refs.ts';
export { NONCE_PURGE_BATCH } from './store/nonces.ts';
export type { OrderKind, OrderRow } from './store/orders.ts';
export type { NewRecurringPayment } from './store/recurring.ts';
export {
  FINAL,
  type DueRequest,
  type RequestKind,
  type RequestRow,
  type TransactionStatus,
} from './store/requests.ts';
export { BUSY_TIMEOUT_MS } from './store/schema.ts';
export type { StatusOrder, StatusRequest } from './store/status.ts';

/** The sandbox's persistent state: orders, their requests, card references, nonces and callbacks. */
export class SandboxStore {
  readonly db: Database.Database;
  /** This process's name in callback claims. */
  readonly owner = `${process.pid}-${randomUUID()}`;
  private closed = false;
  private readonly s: Statements;
  private readonly t: Transactions;
  private readonly meta: Meta;
  private readonly orders: Orders;
  private readonly requests: Requests;
  private readonly cardRefs: CardRefs;
  private readonly recurring: RecurringPayments;
  private readonly nonces: Nonces;
  private readonly callbacks: Callbacks;
  private readonly keys: MerchantKeys;
  private readonly added: AddedMerchants;
  /** The keys kept beside the file, never in it (sandbox/secure-files.ts). */
  private keyFile!: KeyFile;

  constructor(dbPath: string) {
    this.db = openDatabase(dbPath);
    this.s = new Statements(this.db);
    this.t = new Transactions(this.db, this.s.stmt);
    const tx = <T>(fn: () => T): T => this.t.tx(fn);
    this.meta = new Meta(this.s.stmt);
    this.orders = new Orders(this.s);
    this.requests = new Requests(this.s);
    this.cardRefs = new CardRefs(this.s);
    this.recurring = new RecurringPayments(this.s);
    this.nonces = new Nonces(this.s);
    this.callbacks = new Callbacks(this.s, this.owner, tx);
    this.keys = new MerchantKeys(this.s);
    this.added = new AddedMerchants(this.s);
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

  getMeta(key: string): string | undefined {
    return this.meta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.meta.set(key, value);
  }

  // Orders (sandbox/store/orders.ts)

  /**
   * The id the next order gets: read it and insert in the same write transaction, so an order's
   * acknowledgement, which names the id, goes in with the row.
   */
  nextOrderId(): number {
    return this.orders.nextId();
  }

  /** Inserts an order; `id` from {@link nextOrderId} in the same transaction, or the next one when omitted. */
  insertOrder(o: NewOrder, id = this.nextOrderId()): OrderRow {
    return this.orders.insert(o, id);
  }

  updateOrder(id: number, patch: Patch<OrderRow>): void {
    this.orders.update(id, patch);
  }

  /** An order's `server_callback_url` (undefined: no such order). */
  callbackUrlOf(id: number): string | null | undefined {
    return this.orders.callbackUrlOf(id);
  }

  getOrder(id: number): OrderRow | undefined {
    return this.orders.get(id);
  }

  findOrderByKey(
    merchant: string,
    endpointKind: string,
    endpointRef: string,
    opPath: string,
    clientOrderId: string,
  ): OrderRow | undefined {
    return this.orders.findByKey(merchant, endpointKind, endpointRef, opPath, clientOrderId);
  }

  latestOrderByClientId(merchant: string, clientOrderId: string): OrderRow | undefined {
    return this.orders.latestByClientId(merchant, clientOrderId);
  }

  orderByToken(token: string): OrderRow | undefined {
    return this.orders.byToken(token);
  }

  /** How many orders a merchant holds (bounds a classroom trainee's data). */
  countOrders(merchant: string): number {
    return this.orders.count(merchant);
  }

  // Requests (sandbox/store/requests.ts) and the status read (sandbox/store/status.ts)

  insertRequest(r: Omit<RequestRow, 'id'>): RequestRow {
    return this.requests.insert(r);
  }

  updateRequest(id: number, patch: Patch<RequestRow>): void {
    this.requests.update(id, patch);
  }

  /** Whether a request of this process may be due at `now` (false: the sweep can be skipped). */
  mayBeDue(now: number): boolean {
    return this.requests.mayBeDue(now);
  }

  /** Re-reads the earliest pending `finalize_at` after a sweep (rows of any process). */
  refreshDueHint(): void {
    this.requests.refreshDueHint();
  }

  getRequest(id: number): RequestRow | undefined {
    return this.requests.get(id);
  }

  /**
   * An order and its latest request (or the one with serial `serial`) in one statement, with only
   * the columns a status answer shows. Undefined when either is missing.
   */
  statusOf(orderId: number, serial?: string): { order: StatusOrder; request: StatusRequest } | undefined {
    return statusOf(this.s, orderId, serial);
  }

  requestsOf(orderId: number): RequestRow[] {
    return this.requests.of(orderId);
  }

  requestBySerial(orderId: number, serial: string): RequestRow | undefined {
    return this.requests.bySerial(orderId, serial);
  }

  /** One order's requests whose delay has passed. */
  dueRequestsOf(orderId: number, now: number): DueRequest[] {
    return this.requests.dueOf(orderId, now);
  }

  dueRequests(now: number, limit = 200): DueRequest[] {
    return this.requests.due(now, limit);
  }

  // Card references (sandbox/store/card-refs.ts) and subscriptions (sandbox/store/recurring.ts)

  insertCardRef(c: Omit<CardRefRow, 'id'>): CardRefRow {
    return this.cardRefs.insert(c);
  }

  cardRef(merchant: string, id: number): CardRefRow | undefined {
    return this.cardRefs.get(merchant, id);
  }

  cardRefOfOrder(orderId: number): CardRefRow | undefined {
    return this.cardRefs.ofOrder(orderId);
  }

  insertRecurring(r: NewRecurringPayment): number {
    return this.recurring.insert(r);
  }

  // OAuth nonces (sandbox/store/nonces.ts)

  /** Records a nonce; false when the same consumer already used it and it has not expired. */
  useNonce(consumer: string, nonce: string, now: number, expiresAt: number): boolean {
    return this.nonces.use(consumer, nonce, now, expiresAt);
  }

  /**
   * Deletes at most `limit` expired nonces (through the expiry index) and returns how many: the
   * caller spreads a large purge over several turns of the event loop.
   */
  purgeNonces(now: number, limit = NONCE_PURGE_BATCH): number {
    return this.nonces.purge(now, limit);
  }

  // Callbacks (sandbox/store/callbacks.ts)

  insertCallback(requestId: number, url: string, nextAt: number): void {
    this.callbacks.insert(requestId, url, nextAt);
  }

  /** Pending callbacks due now, claimed or not (for tests and diagnostics). */
  dueCallbacks(now: number, limit = 20): CallbackRow[] {
    return this.callbacks.due(now, limit);
  }

  /**
   * Claims due callbacks for this process until `now + holdMs` (a lease row in the database), so
   * that of several processes on one file exactly one delivers each attempt. A claim whose holder
   * died expires and is taken over.
   */
  claimCallbacks(now: number, holdMs: number, limit = 20): CallbackRow[] {
    return this.callbacks.claim(now, holdMs, limit);
  }

  /**
   * Claims as {@link claimCallbacks} does, with what each delivery needs of its request and order
   * read in the same statements (undefined when they are no longer known).
   */
  claimDeliveries(now: number, holdMs: number, limit = 20): ClaimedDelivery[] {
    return this.callbacks.claimDeliveries(now, holdMs, limit);
  }

  /** Records an attempt's result and releases the claim; false when this process no longer held it. */
  finishCallback(id: number, patch: Patch<Omit<CallbackRow, 'lease_owner' | 'lease_until'>>): boolean {
    return this.callbacks.finish(id, patch);
  }

  /** Gives up this process's claims (on a clean stop), so another process or the next start delivers at once. */
  releaseClaims(): void {
    this.callbacks.releaseClaims();
  }

  callbacksOfOrder(orderId: number): CallbackRow[] {
    return this.callbacks.ofOrder(orderId);
  }

  updateCallback(id: number, patch: Patch<CallbackRow>): void {
    this.callbacks.update(id, patch);
  }

  // Merchant keys registered at run time (sandbox/store/merchant-keys.ts)

  merchantKeys(): Array<{ login: string; public_key_pem: string }> {
    return this.keys.all();
  }

  merchantKeyOf(login: string): { public_key_pem: string; updated_at: number } | undefined {
    return this.keys.of(login);
  }

  setMerchantKey(login: string, pem: string, now: number): void {
    this.keys.set(login, pem, now);
  }

  /** Forgets the key registered at run time: the merchant's configured (shipped) key applies again. */
  deleteMerchantKey(login: string): boolean {
    return this.keys.delete(login);
  }

  // Merchants created at run time, one per classroom trainee (sandbox/store/added-merchants.ts)

  addedMerchants(): AddedMerchantRow[] {
    return this.added
      .all()
      .map((r) => ({ ...r, control_key: unseal(r.control_key, this.keyFile.controlKeyKey, r.login) }));
  }

  insertAddedMerchant(row: AddedMerchantRow): void {
    this.added.insert({ ...row, control_key: seal(row.control_key, this.keyFile.controlKeyKey, row.login) });
  }

  /** The largest endpoint id handed out at run time, or undefined when none was. */
  lastAddedEndpointId(): number | undefined {
    return this.added.lastEndpointId();
  }
}
