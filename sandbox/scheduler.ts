import type { CryptoPort } from '../src/core/index.ts';
import { DUE_BATCH, type Engine } from './engine.ts';
import type { MerchantRegistry } from './merchants.ts';
import { deliverCallback } from './relay/deliver-callback.ts';
import { DeliveryLog } from './relay/delivery-log.ts';
import { NONCE_PURGE_BATCH, type CallbackRow } from './store.ts';

/**
 * Callbacks claimed per look: a full batch looks again at once, so a fan-out of thousands is not
 * held to one batch per timer tick (at most {@link MAX_IN_FLIGHT} in flight).
 */
const CLAIM_BATCH = 100;
const MAX_IN_FLIGHT = 1000;

/**
 * Finalizes due requests and delivers callbacks: on a timer, and whenever a request arrives.
 * Everything it works from is in the database, so a restart picks up where it stopped.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Map<number, Promise<void>>();
  /** What `settle` waits for: the number of deliveries in flight to fall to `at`. */
  private wake: { at: number; resolve: () => void } | undefined;
  /** The relay's record of every send and the handler's answer (sandbox/relay/). */
  readonly deliveries: DeliveryLog;
  private readonly abort = new AbortController();
  private stopped = false;
  private ticking = false;
  private purging = false;
  private finalizing = false;

  constructor(
    private readonly engine: Engine,
    private readonly merchants: MerchantRegistry,
    private readonly crypto: CryptoPort,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.deliveries = new DeliveryLog(engine.store.db);
  }

  start(): void {
    const o = this.engine.options;
    const every = Math.min(
      250,
      Math.max(10, Math.floor(Math.min(o.finalizeDelayMs || 250, o.callbackRetry.baseDelayMs || 250) / 2)),
    );
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.abort.abort();
    if (!this.engine.store.isClosed) this.engine.store.releaseClaims();
  }

  /**
   * Finalizes what this process scheduled and is due now (synchronous: a status read right after
   * sees it). Rows another process scheduled are finalised by either process's timer.
   */
  finalizeDue(): void {
    if (this.stopped) return;
    this.engine.finalizeDue(this.engine.options.clock(), false);
  }

  tick(): void {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const now = this.engine.options.clock();
      this.finalizeBacklog(now);
      this.purgeNonces(now);
      if (this.startDeliveries(now) === CLAIM_BATCH) setImmediate(() => this.tick());
    } catch (e) {
      // After close the database is gone and the next start resumes from the stored state.
      if (!this.stopped && !this.engine.store.isClosed)
        this.onError(`sandbox scheduler: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  /** Claims due callbacks and starts their deliveries; returns how many it claimed. */
  private startDeliveries(now: number): number {
    if (this.inFlight.size >= MAX_IN_FLIGHT) return 0;
    const o = this.engine.options;
    // A scenario may send up to three times per attempt (forged, genuine, duplicate).
    const claimed = this.engine.store.claimCallbacks(now, o.callbackTimeoutMs * 3, CLAIM_BATCH);
    for (const cb of claimed) {
      if (this.inFlight.has(cb.id)) continue;
      const run = this.deliver(cb)
        .catch((e: unknown) => {
          if (!this.stopped && !this.engine.store.isClosed)
            this.onError(`sandbox callback: ${(e as Error).message}`);
        })
        .finally(() => {
          this.inFlight.delete(cb.id);
          if (this.wake && this.inFlight.size <= this.wake.at) {
            const w = this.wake;
            this.wake = undefined;
            w.resolve();
          }
        });
      this.inFlight.set(cb.id, run);
    }
    return claimed.length;
  }

  /**
   * Finalises what is due and delivers every due callback, waiting for the deliveries (and those
   * already in flight): the test clock's step (sandbox/scenarios/test-clock.ts).
   */
  async settle(): Promise<void> {
    if (this.stopped) return;
    const now = this.engine.options.clock();
    this.engine.finalizeDue(now, true);
    // Keeps up to MAX_IN_FLIGHT deliveries going: a fan-out is not held to one batch at a time.
    for (let round = 0; round < 100_000 && !this.stopped; round++) {
      const claimed = this.startDeliveries(now);
      if (claimed === CLAIM_BATCH && this.inFlight.size < MAX_IN_FLIGHT) continue;
      if (this.inFlight.size === 0) return;
      // Woken when a batch's worth of slots is free (or, with nothing more due, when all are done).
      const wakeAt = claimed === CLAIM_BATCH ? MAX_IN_FLIGHT - CLAIM_BATCH : 0;
      await new Promise<void>((resolve) => (this.wake = { at: wakeAt, resolve }));
    }
  }

  /**
   * Finalises due requests a batch at a time, yielding to the event loop between batches, so a
   * backlog (thousands of writes whose delay ends together) never stalls requests for more than one.
   */
  private finalizeBacklog(now: number): void {
    if (this.finalizing) return;
    if (this.engine.finalizeDue(now, true, 1) < DUE_BATCH) return;
    this.finalizing = true;
    const more = () => {
      if (this.stopped || this.engine.store.isClosed) {
        this.finalizing = false;
        return;
      }
      try {
        if (this.engine.finalizeDue(now, true, 1) < DUE_BATCH) this.finalizing = false;
        else setImmediate(more);
      } catch (e) {
        this.finalizing = false;
        if (!this.stopped && !this.engine.store.isClosed)
          this.onError(`sandbox finalisation: ${(e as Error).message}`);
      }
    };
    setImmediate(more);
  }

  /**
   * Deletes expired nonces a bounded batch at a time, yielding to the event loop between batches,
   * so a large expiry (500,000 nonces) never stalls requests for more than one batch.
   */
  private purgeNonces(now: number): void {
    if (this.purging) return;
    const store = this.engine.store;
    if (store.purgeNonces(now) < NONCE_PURGE_BATCH) return;
    this.purging = true;
    const more = () => {
      if (this.stopped || store.isClosed) {
        this.purging = false;
        return;
      }
      try {
        if (store.purgeNonces(now) < NONCE_PURGE_BATCH) this.purging = false;
        else setImmediate(more);
      } catch (e) {
        this.purging = false;
        if (!this.stopped && !store.isClosed) this.onError(`sandbox nonce purge: ${(e as Error).message}`);
      }
    };
    setImmediate(more);
  }

  /** Runs one attempt through the relay (records it; the order's scenarios shape it). */
  private async deliver(cb: CallbackRow): Promise<void> {
    await deliverCallback(
      {
        store: this.engine.store,
        options: this.engine.options,
        merchants: this.merchants,
        crypto: this.crypto,
        log: this.deliveries,
        lab: this.engine.scenarios,
        stop: this.abort.signal,
      },
      cb,
    );
  }
}
