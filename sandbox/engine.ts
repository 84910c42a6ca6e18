import type { ResolvedSandboxOptions } from './options.ts';
import { RuleError, type ApiReply } from './replies.ts';
import type { OrderRow, RequestRow, SandboxStore } from './store.ts';
import type { CardData, EngineContext, OperationCall } from './engine/context.ts';
import { finalizeDue } from './engine/finalize.ts';
import { HANDLERS } from './engine/handlers.ts';
import {
  completeIssuerPage,
  issuerPageOpen,
  recordMethodPage,
  submitHostedCard,
} from './engine/hosted-pages.ts';
import { statusBody } from './engine/status-body.ts';

export type { CardData, OperationCall } from './engine/context.ts';
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

  /** Runs one operation inside a write transaction (taken up front: two processes may share the file). */
  run(call: OperationCall): ApiReply {
    try {
      return this.store.tx(() => HANDLERS[call.op.id](this, call));
    } catch (e) {
      if (e instanceof RuleError) return e.reply;
      throw e;
    }
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

  /** Applies every request whose delay has passed; returns how many. */
  finalizeDue(now: number): number {
    return finalizeDue(this, now);
  }

  statusBody(order: OrderRow, request: RequestRow, pageBase: string): Record<string, unknown> {
    return statusBody(order, request, pageBase);
  }
}
