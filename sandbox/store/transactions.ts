import type Database from 'better-sqlite3';

/**
 * The store's transactions: write (`tx`, `BEGIN IMMEDIATE`), read (`read`), and the group commit
 * (`batched`) that shares one COMMIT among every write of an event-loop turn.
 */
export class Transactions {
  /** One transaction wrapper for every call: better-sqlite3 builds a new one per `transaction()`. */
  private readonly wrap: Database.Transaction<(fn: () => unknown) => unknown>;
  /** The open group commit: its waiters hear the outcome of the one COMMIT. */
  private batch: Array<{ resolve: () => void; reject: (e: unknown) => void }> | undefined;
  /** True while a batched call runs (its own `tx` calls are savepoints of the batch). */
  private inBatchedCall = false;

  constructor(
    private readonly db: Database.Database,
    private readonly stmt: (sql: string) => Database.Statement,
  ) {
    this.wrap = db.transaction((fn: () => unknown) => fn());
  }

  /**
   * A write transaction that takes the lock up front (`BEGIN IMMEDIATE`): a deferred one that
   * upgrades to write while another process writes fails with SQLITE_BUSY at once, whatever the
   * busy timeout. Nested calls become savepoints.
   */
  tx<T>(fn: () => T): T {
    // Outside the batch's own calls, the batch is committed first: what follows is on disk when it returns.
    if (this.batch && !this.inBatchedCall) this.commitBatch();
    return this.wrap.immediate(fn) as T;
  }

  /** A read transaction: one consistent snapshot, and no write lock held against another process. */
  read<T>(fn: () => T): T {
    if (this.batch && !this.inBatchedCall) this.commitBatch();
    return this.wrap.deferred(fn) as T;
  }

  /** Whether a group commit is open (a call joining it reads what the batch wrote so far). */
  get batchOpen(): boolean {
    return this.batch !== undefined;
  }

  /**
   * Group commit: runs `fn` in a savepoint of a write transaction shared by every call made in the
   * same turn of the event loop, and resolves once that transaction is committed (rejects if the
   * COMMIT fails, after a rollback). Under load one COMMIT, the costliest step of a small write,
   * serves several requests; none is answered before its writes are durable. `onOpen` runs first
   * when this call opens the batch. A throw from `fn` undoes only its own savepoint.
   */
  batched<T>(fn: () => T, onOpen?: () => void): Promise<T> {
    const wasInCall = this.inBatchedCall;
    this.inBatchedCall = true;
    try {
      if (!this.batch) {
        this.stmt('BEGIN IMMEDIATE').run();
        this.batch = [];
        setImmediate(() => this.commitBatch());
        onOpen?.();
      }
      const value = this.wrap(fn) as T;
      return new Promise<T>((resolve, reject) => this.batch!.push({ resolve: () => resolve(value), reject }));
    } catch (e) {
      return Promise.reject(e);
    } finally {
      this.inBatchedCall = wasInCall;
    }
  }

  /** Commits the open group commit, if any (its waiters resolve, or reject after a rollback). */
  commitBatch(): void {
    const waiters = this.batch;
    if (!waiters) return;
    this.batch = undefined;
    try {
      this.stmt('COMMIT').run();
    } catch (e) {
      if (this.db.inTransaction) this.stmt('ROLLBACK').run();
      for (const w of waiters) w.reject(e);
      return;
    }
    for (const w of waiters) w.resolve();
  }
}
