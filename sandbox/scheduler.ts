import { callbackControl, type CryptoPort } from '../src/core/index.ts';
import { numericErrorCode } from '../src/catalog/error-codes.ts';
import { DUE_BATCH, type Engine } from './engine.ts';
import type { MerchantRegistry } from './merchants.ts';
import { fromMinorUnits } from './outcomes.ts';
import { NONCE_PURGE_BATCH, type CallbackRow } from './store.ts';

/**
 * Finalizes due requests and delivers callbacks: on a timer, and whenever a request arrives.
 * Everything it works from is in the database, so a restart picks up where it stopped.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<number>();
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
  ) {}

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
      const store = this.engine.store;
      for (const cb of store.claimCallbacks(now, this.engine.options.callbackTimeoutMs)) {
        if (this.inFlight.has(cb.id)) continue;
        this.inFlight.add(cb.id);
        void this.deliver(cb)
          .catch((e: unknown) => {
            if (!this.stopped && !this.engine.store.isClosed)
              this.onError(`sandbox callback: ${(e as Error).message}`);
          })
          .finally(() => this.inFlight.delete(cb.id));
      }
    } catch (e) {
      // After close the database is gone and the next start resumes from the stored state.
      if (!this.stopped && !this.engine.store.isClosed)
        this.onError(`sandbox scheduler: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
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

  private async deliver(cb: CallbackRow): Promise<void> {
    const store = this.engine.store;
    const request = store.getRequest(cb.request_id);
    const order = request ? store.getOrder(request.order_id) : undefined;
    const merchant = order ? this.merchants.byLogin(order.merchant) : undefined;
    if (!request || !order || !merchant) {
      store.finishCallback(cb.id, { state: 'failed', last_result: 'order or merchant no longer known' });
      return;
    }
    const control = await callbackControl(
      { status: request.status, orderid: String(order.id), merchantOrder: order.client_orderid },
      merchant.controlKey,
      this.crypto,
    );
    let url: URL;
    try {
      url = new URL(cb.url);
    } catch {
      if (!this.stopped) store.finishCallback(cb.id, { state: 'failed', last_result: 'invalid URL' });
      return;
    }
    const q = url.searchParams;
    q.append('status', request.status);
    q.append('orderid', String(order.id));
    q.append('merchant_order', order.client_orderid);
    q.append('client_orderid', order.client_orderid);
    q.append('amount', fromMinorUnits(request.amount_minor));
    if (request.currency) q.append('currency', request.currency);
    q.append('type', request.kind);
    q.append('serial_number', request.serial);
    if (request.error_message) q.append('error_message', request.error_message);
    // The gateway's callbacks carry a number (its SDK makes it an integer exception code); the
    // symbolic reason travels beside it (src/catalog/error-codes.ts).
    if (request.error_code) {
      q.append('error_code', String(numericErrorCode(request.error_code)));
      q.append('error_reason', request.error_code);
    }
    q.append('control', control);

    let result: string;
    let delivered = false;
    try {
      const res = await fetch(url, {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.any([
          AbortSignal.timeout(this.engine.options.callbackTimeoutMs),
          this.abort.signal,
        ]),
      });
      await res.body?.cancel().catch(() => undefined);
      delivered = res.status === 200;
      result = `HTTP ${res.status}`;
    } catch (e) {
      result = (e as Error).name === 'TimeoutError' ? 'timeout' : `network error: ${(e as Error).message}`;
    }
    if (this.stopped || store.isClosed) return;
    const attempts = cb.attempts + 1;
    const { attempts: max, baseDelayMs } = this.engine.options.callbackRetry;
    if (delivered) store.finishCallback(cb.id, { state: 'delivered', attempts, last_result: result });
    else if (attempts >= max) store.finishCallback(cb.id, { state: 'failed', attempts, last_result: result });
    else {
      store.finishCallback(cb.id, {
        attempts,
        last_result: result,
        next_at: this.engine.options.clock() + baseDelayMs * 2 ** (attempts - 1),
      });
    }
  }
}
