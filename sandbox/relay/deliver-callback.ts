import type { CryptoPort } from '../../src/core/index.ts';
import { errorText } from '../../src/core/errors.ts';
import {
  isLaterTransaction,
  wireTransactionType,
  type CallbackUrlField,
} from '../../src/catalog/callback-routes.ts';
import type { ScenarioChoice } from '../../src/catalog/scenarios.ts';
import type { ResolvedSandboxOptions } from '../options.ts';
import type { MerchantRegistry } from '../merchants.ts';
import type { CallbackRow, DeliveryTarget, SandboxStore } from '../store.ts';

type CallbackPatch = Parameters<SandboxStore['callbacks']['finish']>[1];
import type { CallbackAttempt } from '../scenarios/behaviour.ts';
import { chosen } from '../scenarios/registry.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';
import { callbackHostAllowed, hostRefusal } from './allowed-hosts.ts';
import type { DeliveryKind, DeliveryLog, DeliveryRecord } from './delivery-log.ts';
import { forgedControl } from './mutations.ts';
import { retryWaitMs } from './retry-schedule.ts';
import { callbackUrlFor, sendCallback, type HandlerAnswer } from './send-callback.ts';

export interface RelayDeps {
  store: SandboxStore;
  options: ResolvedSandboxOptions;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
  log: DeliveryLog;
  lab: ScenarioStore | undefined;
  stop: AbortSignal;
  /** How far the test clock has moved a merchant's deadlines in all (see Scheduler.noteShift). */
  shiftedMs?: (merchant: string) => number;
  /** Where a write that will be tried again is reported (the server's log). */
  onError?: (message: string) => void;
}

/** The first and the longest wait before an attempt's outcome is written again. */
const REWRITE_FIRST_MS = 50;
const REWRITE_MAX_MS = 2_000;

/**
 * Writes an attempt's outcome, again and again until it is on disk or the sandbox stops. A write
 * that failed (another process held the file's write lock past the busy timeout) left the claim in
 * place; once its lease ran out the callback was claimed and sent again although the handler had
 * acknowledged it (issue 27 §4). At-least-once allows a second send only for an attempt in flight
 * at a crash, and this process has not crashed: it keeps the answer and records it.
 */
async function writeOutcome(d: RelayDeps, write: () => Promise<unknown>): Promise<void> {
  for (let wait = REWRITE_FIRST_MS; ; wait = Math.min(wait * 2, REWRITE_MAX_MS)) {
    try {
      await write();
      return;
    } catch (e) {
      if (d.stop.aborted || d.store.isClosed) return;
      d.onError?.(
        `sandbox callback: could not record the attempt's outcome (${errorText(e)}); trying again in ${wait} ms`,
      );
    }
    const stopped = await new Promise<boolean>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        d.stop.removeEventListener('abort', done);
        resolve(false);
      }, wait);
      d.stop.addEventListener('abort', done, { once: true });
    });
    if (stopped || d.store.isClosed) return;
  }
}

/**
 * Which of the order's URLs a callback row goes to: a later transaction's only ever to
 * `notify_url`; an initial one's to `server_callback_url`, or to `notify_url` when the row's URL is
 * not the order's `server_callback_url` (engine/notify-url.ts sends it to both when they differ).
 */
function urlFieldOf(store: SandboxStore, cb: CallbackRow, kind: string, orderId: number): CallbackUrlField {
  if (isLaterTransaction(wireTransactionType(kind))) return 'notify_url';
  return store.orders.callbackUrlOf(orderId) === cb.url ? 'server_callback_url' : 'notify_url';
}

/**
 * Delivers one due callback attempt through the relay: every send and the handler's answer is
 * recorded (relay_deliveries), and the order's scenarios shape it (their callback hooks in
 * sandbox/scenarios/registry.ts): held once (delay, reorder), dropped (drop-retry), preceded by a
 * forged one (bad-control), followed by a duplicate.
 * `target` is what the claim read of the callback's request and order (`claimDeliveries`, in the
 * same statements; undefined when they are no longer known).
 * Returns false when the sandbox stopped meanwhile (nothing more is written).
 */
export async function deliverCallback(
  d: RelayDeps,
  cb: CallbackRow,
  target: DeliveryTarget | undefined,
): Promise<boolean> {
  const { store, options } = d;
  const request = target?.request;
  const order = target?.order;
  const merchant = order ? d.merchants.byLogin(order.merchant) : undefined;
  if (!request || !order || !merchant) {
    await writeOutcome(d, () =>
      store.batched(() =>
        store.callbacks.finish(cb.id, { state: 'failed', last_result: 'order or merchant no longer known' }),
      ),
    );
    return true;
  }
  const choice: ScenarioChoice = d.lab?.effectiveOrderChoice(order.id, order.merchant) ?? [];
  const scenarios = chosen(choice);
  const attempt: CallbackAttempt = {
    attemptsBefore: cb.attempts,
    isFirstTransaction: () => store.requests.of(order.id)[0]?.id === request.id,
  };
  const shifted = () => d.shiftedMs?.(order.merchant) ?? 0;
  const shiftedAtStart = shifted();
  /** `ms` from now in the merchant's time: less what the test clock moved while this was in flight. */
  const later = (ms: number) => options.clock() - (shifted() - shiftedAtStart) + ms;
  // The attempt's records and its outcome are written together, in the sandbox's group commit
  // (one COMMIT for every delivery that ends in the same turn): a crash before it leaves the
  // callback pending, to be sent again (at least once).
  const records: Array<Omit<DeliveryRecord, 'id'>> = [];
  const urlField = urlFieldOf(store, cb, request.kind, order.id);
  const finish = (patch: CallbackPatch) =>
    writeOutcome(d, () =>
      store.batched(() => {
        for (const r of records) d.log.record(r);
        store.callbacks.finish(cb.id, patch);
      }),
    );
  const record = (kind: DeliveryKind, url: string, a: Partial<HandlerAnswer> & { result: string }) =>
    records.push({
      callbackId: cb.id,
      orderId: order.id,
      merchant: order.merchant,
      kind,
      mutation: null,
      url,
      at: options.clock(),
      httpStatus: a.httpStatus ?? null,
      result: a.result,
      durationMs: a.durationMs ?? null,
      bodyExcerpt: a.bodyExcerpt ?? null,
      urlField,
    });

  // Held once, before the first attempt: delayed callbacks, and the first transaction's under reorder.
  if (cb.attempts === 0) {
    let hold: { ms: number; name: string } | undefined;
    for (const [b, pick] of scenarios) {
      const ms = b.holdCallback?.(attempt, pick);
      if (ms !== undefined) {
        hold = { ms, name: pick.name };
        break;
      }
    }
    if (hold && !d.log.has(cb.id, 'held')) {
      const { ms } = hold;
      record('held', cb.url, { result: `held ${ms} ms (scenario ${hold.name})` });
      await finish({ next_at: later(ms), last_result: 'held' });
      return true;
    }
  }

  const url = await callbackUrlFor(cb.url, request, order, merchant.controlKey, d.crypto);
  if (!url) {
    await writeOutcome(d, () =>
      store.batched(() => store.callbacks.finish(cb.id, { state: 'failed', last_result: 'invalid URL' })),
    );
    return true;
  }
  if (!callbackHostAllowed(url, options)) {
    record('refused', url.href, { result: hostRefusal(url) });
    await finish({ state: 'failed', last_result: 'host not allowed' });
    return true;
  }
  // The embedder's rule for this merchant (the classroom: a trainee's own inbox), checked again
  // here for orders made before it applied: recorded as refused, nothing is sent.
  const ruled = options.callbackRule?.(merchant.login, url);
  if (ruled !== undefined) {
    record('refused', url.href, { result: ruled.slice(0, 300) });
    await finish({ state: 'failed', last_result: 'refused by the classroom' });
    return true;
  }
  const send = () => sendCallback(url, options.callbackTimeoutMs, d.stop);
  const attempts = cb.attempts + 1;
  const retryOrFail = (result: string) => {
    // The schedule's one table (relay/retry-schedule.ts), dated in the merchant's time.
    const wait = retryWaitMs(options.callbackRetry, attempts);
    return finish(
      wait === undefined
        ? { state: 'failed', attempts, last_result: result }
        : { attempts, last_result: result, next_at: later(wait) },
    );
  };

  const dropping = scenarios.find(([b]) => b.dropsAttempt?.(attempt))?.[1];
  if (dropping) {
    record('dropped', url.href, { result: `dropped (scenario ${dropping.name}): nothing was sent` });
    await retryOrFail('dropped');
    return true;
  }
  if (scenarios.some(([b]) => b.forgesFirst) && !d.log.has(cb.id, 'forged')) {
    // A forged "approved" first, whatever the real outcome: the handler must refuse it.
    const forged = new URL(url);
    forged.searchParams.set('status', 'approved');
    forged.searchParams.set('control', await forgedControl(forged.searchParams, d.crypto));
    const answer = await sendCallback(forged, options.callbackTimeoutMs, d.stop);
    if (d.stop.aborted || store.isClosed) return false;
    record('forged', forged.href, answer);
  }
  const answer = await send();
  if (d.stop.aborted || store.isClosed) return false;
  record('delivery', url.href, answer);
  if (scenarios.some(([b]) => b.duplicates)) {
    const again = await send();
    if (d.stop.aborted || store.isClosed) return false;
    record('duplicate', url.href, again);
  }
  if (answer.httpStatus === 200) await finish({ state: 'delivered', attempts, last_result: answer.result });
  else await retryOrFail(answer.result);
  return true;
}
