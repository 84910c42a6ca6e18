import type { NonceClaim } from './authenticate.ts';
import type { ResolvedSandboxOptions } from './options.ts';
import { RuleError, type ApiReply } from './replies.ts';
import type { OrderRow, RequestRow, SandboxStore } from './store.ts';
import type { CardData, EngineContext, OperationCall } from './engine/context.ts';
import { finalizeDue } from './engine/finalize.ts';
import { HANDLERS, READ_ONLY } from './engine/handlers.ts';
import {
  completeIssuerPage,
  issuerPageOpen,
  recordMethodPage,
  submitHostedCard,
} from './engine/hosted-pages.ts';
import { statusBody } from './engine/status-body.ts';

export type { CardData, OperationCall } from './engine/context.ts';

/** Runs `fn`; a rule the operation broke becomes its answer. */
function refusedAs(fn: () => ApiReply): ApiReply {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RuleError) return e.reply;
    throw e;
  }
}
export { METHOD_WINDOW_MS, decodeThreeDsMessage } from './engine/three-ds.ts';

/**
 * The business side of the sandbox, over the store: a table of one handler per catalog operation
 * (engine/handlers.ts), split by concern (parameters, orders and idempotency, settlement rules,
 * 3-D Secure stages, hosted pages, finalisation, status body). This class only binds them to a store.
 */
export class Engine implements EngineContext {
  readonly store: SandboxStore;
  readonly options: ResolvedSandboxOptions;
  readonly cardSecret: string;

  constructor(store: SandboxStore, options: ResolvedSandboxOptions) {
    this.store = store;
    this.options = options;
    this.cardSecret = store.getMeta('card_hash_secret') ?? '';
  }

  /**
   * Runs one operation in one write transaction, taken up front (two processes may share the
   * file): the OAuth nonce is claimed, what is due is finalised (so the operation sees it), and the
   * operation runs in a savepoint, so a refused one undoes only its own writes. One commit per
   * request. An operation that only reads, with nothing to claim or finalise, takes no write lock.
   */
  run(call: OperationCall, nonce?: NonceClaim): ApiReply {
    const store = this.store;
    const handle = () => HANDLERS[call.op.id](this, call);
    const due = store.mayBeDue(call.now);
    if (!nonce && !due && READ_ONLY.has(call.op.id)) return refusedAs(() => store.read(handle));
    return store.tx(() => {
      if (nonce && !store.useNonce(nonce.consumer, nonce.nonce, call.now, nonce.expiresAt))
        return nonce.reused;
      if (due) finalizeDue(this, call.now, false);
      return refusedAs(() => store.tx(handle));
    });
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

  /** Applies every request whose delay has passed; returns how many (see engine/finalize.ts). */
  finalizeDue(now: number, everyProcess = true): number {
    return finalizeDue(this, now, everyProcess);
  }

  statusBody(order: OrderRow, request: RequestRow, pageBase: string): Record<string, unknown> {
    return statusBody(order, request, pageBase);
  }
}
