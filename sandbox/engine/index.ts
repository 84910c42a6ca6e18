import type { NonceClaim } from '../authenticate.ts';
import type { ResolvedSandboxOptions } from '../options.ts';
import { RecurringStore } from '../store/recurring-schedules.ts';
import { RuleError, type ApiReply } from '../replies.ts';
import type { OrderRow, RequestRow, SandboxStore } from '../store.ts';
import type { CardData, EngineContext, OperationCall } from './context.ts';
import { finalizeDue, finalizeNamedOrder } from './finalize.ts';
import { HANDLERS, READ_ONLY } from './handlers.ts';
import { HostedFieldsStore } from './hosted-fields-store.ts';
import { tokenize } from './hosted-fields.ts';
import { completeIssuerPage, issuerPageOpen, recordMethodPage, submitHostedCard } from './hosted-pages.ts';
import { RecurringCharges } from './recurring-charges.ts';
import { statusBody } from './status-body.ts';
import { chargebacksOf } from '../scenarios/chargebacks.ts';
import { afterOperation } from '../scenarios/engine-hooks.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';

export type { CardData, OperationCall } from './context.ts';
export { METHOD_WINDOW_MS, decodeThreeDsMessage } from './three-ds.ts';
export { DUE_BATCH } from './finalize.ts';
export { RECURRING_BATCH } from './recurring-charges.ts';

/** Runs `fn`; a rule the operation broke becomes its answer. */
function refusedAs(fn: () => ApiReply): ApiReply {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RuleError) return e.reply;
    throw e;
  }
}

/**
 * The business side of the sandbox, over the store: a table of one handler per catalog operation
 * (engine/handlers.ts), split by concern (parameters, orders and idempotency, settlement rules,
 * 3-D Secure stages, hosted pages, finalisation, status body). This class only binds them to a store.
 */
export class Engine implements EngineContext {
  readonly store: SandboxStore;
  readonly options: ResolvedSandboxOptions;
  readonly cardSecret: string;
  readonly hostedFields: HostedFieldsStore;
  readonly recurring: RecurringStore;
  /** Makes the recurring payments' charges as they fall due (engine/recurring-charges.ts). */
  readonly recurringCharges: RecurringCharges;
  /** The scenario lab's choices (sandbox/scenarios/); none for an engine without the lab. */
  readonly scenarios: ScenarioStore | undefined;

  constructor(store: SandboxStore, options: ResolvedSandboxOptions, scenarios?: ScenarioStore) {
    this.store = store;
    this.scenarios = scenarios;
    this.options = options;
    this.cardSecret = store.cardHashSecret;
    this.hostedFields = new HostedFieldsStore(store.db);
    this.recurring = new RecurringStore(store.db, options.clock());
    this.recurringCharges = new RecurringCharges(this);
  }

  /** The sandbox's hosted-fields tokenizer (ours; see engine/hosted-fields.ts). */
  tokenize(input: unknown, now: number): ApiReply {
    return tokenize(this, input, now);
  }

  /**
   * Runs one operation in a write transaction taken up front (two processes may share the file)
   * and shared with the other requests of this turn of the event loop (group commit): the OAuth
   * nonce is claimed, what is due was finalised when the batch opened (so the operation sees it),
   * and the operation runs in a savepoint, so a refused one undoes only its own writes. The answer
   * comes once the batch is committed. A backlog of due rows larger than a batch is left to the timer,
   * except the order the request names. An operation that only reads, with nothing to claim or
   * finalise and no batch open, runs without the write lock: a single read is its own snapshot, and
   * a read-only handler that reads more than once takes a read transaction itself (status). Its
   * answer, like a batch's, is released at the end of the turn (setImmediate): the answers of one
   * turn are then written back to back, and the client's side is woken once per turn rather than
   * once per answer (under load that kernel work cost a status read ~15 µs of its ~60 µs).
   */
  run(call: OperationCall, nonce?: NonceClaim): Promise<ApiReply> {
    const store = this.store;
    const lab = READ_ONLY.has(call.op.id) ? undefined : this.scenarios;
    const handle = () => {
      const reply = HANDLERS[call.op.id](this, call);
      return lab ? afterOperation(lab, this, call, reply) : reply;
    };
    if (!nonce && READ_ONLY.has(call.op.id) && !store.batchOpen && !store.requests.mayBeDue(call.now)) {
      const reply = refusedAs(handle);
      return new Promise((resolve) => setImmediate(resolve, reply));
    }
    return store.batched(
      () => {
        if (nonce && !store.nonces.use(nonce.consumer, nonce.nonce, call.now, nonce.expiresAt))
          return nonce.reused;
        return refusedAs(() =>
          store.tx(() => {
            if (store.requests.mayBeDue(call.now)) finalizeNamedOrder(this, call, READ_ONLY.has(call.op.id));
            return handle();
          }),
        );
      },
      // One batch when the group opens: a larger backlog goes to the timer, a batch per turn.
      () => finalizeDue(this, call.now, false, 1),
    );
  }

  submitHostedCard(token: string, card: CardData | undefined, now: number) {
    return submitHostedCard(this, token, card, now);
  }

  completeIssuerPage(token: string, authenticated: boolean, now: number) {
    return completeIssuerPage(this, token, authenticated, now);
  }

  issuerPageOpen(order: OrderRow): boolean {
    return issuerPageOpen(order);
  }

  recordMethodPage(token: string, now: number): OrderRow | undefined {
    return recordMethodPage(this, token, now);
  }

  /** Applies requests whose delay has passed, `maxBatches` batches at the most; returns how many (see engine/finalize.ts). */
  finalizeDue(now: number, everyProcess = true, maxBatches?: number): number {
    return finalizeDue(this, now, everyProcess, maxBatches);
  }

  /** Makes the recurring charges due at `now`, `maxBatches` batches at the most (see engine/recurring-charges.ts). */
  chargeRecurring(now: number, maxBatches?: number): number {
    // The chargeback scenario's deadlines ride on the same sweep (sandbox/scenarios/chargebacks.ts).
    return this.recurringCharges.chargeDue(now, maxBatches) + chargebacksOf(this.store.db).makeDue(this, now);
  }

  statusBody(order: OrderRow, request: RequestRow, pageBase: string): Record<string, unknown> {
    return statusBody(order, request, pageBase);
  }
}
