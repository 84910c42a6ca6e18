import type { CryptoPort } from '../src/core/index.ts';
import { DUE_BATCH, RECURRING_BATCH, type Engine } from './engine/index.ts';
import type { MerchantRegistry } from './merchants.ts';
import { deliverCallback } from './relay/deliver-callback.ts';
import { DeliveryLog, RELAY_PRUNE_BATCH } from './relay/delivery-log.ts';
import { NONCE_PURGE_BATCH, type CallbackRow, type DeliveryTarget } from './store.ts';

/**
 * Callbacks claimed per look: a full batch looks again at once, so a fan-out of thousands is not
 * held to one batch per timer tick (at most {@link MAX_IN_FLIGHT} in flight).
 */
const CLAIM_BATCH = 100;
const MAX_IN_FLIGHT = 1000;

/**
 * Makes due recurring charges, finalizes due requests and delivers callbacks: on a timer, and
 * whenever a request arrives (finalisation only).
 * Everything it works from is in the database, so a restart picks up where it stopped.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Who waits for the number of deliveries in flight to fall to `at`. */
  private wakes: Array<{ at: number; resolve: () => void }> = [];
  /** How far the test clock moved each merchant's deadlines, in all (see `noteShift`). */
  private readonly shifts = new Map<string, number>();
  /** The relay's record of every send and the handler's answer (sandbox/relay/). */
  readonly deliveries: DeliveryLog;
  private readonly abort = new AbortController();
  private stopped = false;
  private ticking = false;
  /** The bounded deletions under way (see `inTurns`). */
  private readonly purging = new Set<string>();
  private finalizing = false;

  constructor(
    private readonly engine: Engine,
    private readonly merchants: MerchantRegistry,
    private readonly crypto: CryptoPort,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.deliveries = new DeliveryLog(engine.store.db, engine.options.relayKeep);
  }

  /** The timer's period: half the shortest delay it serves, between 10 and 250 ms. */
  get periodMs(): number {
    const o = this.engine.options;
    return Math.min(
      250,
      Math.max(10, Math.floor(Math.min(o.finalizeDelayMs || 250, o.callbackRetry.baseDelayMs || 250) / 2)),
    );
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.periodMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.abort.abort();
    for (const w of this.wakes.splice(0)) w.resolve();
    if (!this.engine.store.isClosed) this.engine.store.callbacks.releaseClaims();
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
      // Recurring charges due (engine/recurring-charges.ts), a batch a turn.
      this.inTurns(
        'recurring',
        () => this.engine.chargeRecurring(now, 1),
        RECURRING_BATCH,
        'recurring charge',
      );
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
    // Each with its request and order, read in the claim's statements.
    const claimed = this.engine.store.callbacks.claimDeliveries(now, o.callbackTimeoutMs * 3, CLAIM_BATCH);
    for (const { callback: cb, target } of claimed) {
      if (this.inFlight.has(cb.id)) continue;
      const run = this.deliver(cb, target)
        .catch((e: unknown) => {
          if (!this.stopped && !this.engine.store.isClosed)
            this.onError(`sandbox callback: ${(e as Error).message}`);
        })
        .finally(() => {
          this.inFlight.delete(cb.id);
          if (this.wakes.length === 0) return;
          const size = this.inFlight.size;
          const woken = this.wakes.filter((w) => size <= w.at);
          if (woken.length === 0) return;
          this.wakes = this.wakes.filter((w) => size > w.at);
          for (const w of woken) w.resolve();
        });
      this.inFlight.set(cb.id, run);
    }
    return claimed.length;
  }

  /**
   * Finalises what is due and delivers every due callback, waiting for the deliveries (and those
   * already in flight).
   */
  async settle(): Promise<void> {
    await this.dispatch();
    await this.drain();
  }

  /**
   * Makes the recurring charges due, finalises what is due and starts every due delivery, waiting
   * only for free slots (up to MAX_IN_FLIGHT in flight): the test clock's step
   * (sandbox/scenarios/test-clock.ts).
   */
  async dispatch(): Promise<void> {
    if (this.stopped) return;
    const now = this.engine.options.clock();
    this.engine.chargeRecurring(now);
    this.engine.finalizeDue(now, true);
    for (let round = 0; round < 100_000 && !this.stopped; round++) {
      const full = this.inFlight.size >= MAX_IN_FLIGHT;
      if (!full && this.startDeliveries(now) < CLAIM_BATCH) return;
      // Woken when a batch's worth of slots is free.
      if (this.inFlight.size > MAX_IN_FLIGHT - CLAIM_BATCH)
        await this.inFlightAtMost(MAX_IN_FLIGHT - CLAIM_BATCH);
    }
  }

  /** Waits until no delivery is in flight. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0 && !this.stopped) await this.inFlightAtMost(0);
  }

  get deliveriesInFlight(): number {
    return this.inFlight.size;
  }

  /**
   * The test clock moved a merchant's deadlines `ms` earlier: a delivery in flight meanwhile dates
   * its retry back by as much, so the retry keeps its delay in the merchant's time.
   */
  noteShift(login: string, ms: number): void {
    if (ms > 0) this.shifts.set(login, (this.shifts.get(login) ?? 0) + ms);
  }

  private inFlightAtMost(at: number): Promise<void> {
    if (this.inFlight.size <= at) return Promise.resolve();
    return new Promise<void>((resolve) => this.wakes.push({ at, resolve }));
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
   * Deletes expired nonces, and the relay's records beyond what it keeps per merchant, a bounded
   * batch at a time, yielding to the event loop between batches: a large expiry (500,000 nonces)
   * or a fan-out's records never stall requests for more than one batch.
   */
  private purgeNonces(now: number): void {
    this.inTurns('nonces', () => this.engine.store.nonces.purge(now), NONCE_PURGE_BATCH, 'nonce purge');
    this.inTurns('relay', () => this.deliveries.prune(), RELAY_PRUNE_BATCH, 'relay prune');
  }

  /** Runs `step` now and, while it does a full `batch`, again in later turns (one run per `name` at a time). */
  private inTurns(name: string, step: () => number, batch: number, what: string): void {
    if (this.purging.has(name)) return;
    const store = this.engine.store;
    const more = (): void => {
      if (this.stopped || store.isClosed) {
        this.purging.delete(name);
        return;
      }
      try {
        if (step() < batch) this.purging.delete(name);
        else {
          this.purging.add(name);
          setImmediate(more);
        }
      } catch (e) {
        this.purging.delete(name);
        if (!this.stopped && !store.isClosed) this.onError(`sandbox ${what}: ${(e as Error).message}`);
      }
    };
    more();
  }

  /** Runs one attempt through the relay (records it; the order's scenarios shape it). */
  private async deliver(cb: CallbackRow, target: DeliveryTarget | undefined): Promise<void> {
    await deliverCallback(
      {
        store: this.engine.store,
        options: this.engine.options,
        merchants: this.merchants,
        crypto: this.crypto,
        log: this.deliveries,
        lab: this.engine.scenarios,
        stop: this.abort.signal,
        shiftedMs: (login) => this.shifts.get(login) ?? 0,
        onError: this.onError,
      },
      cb,
      target,
    );
  }
}
