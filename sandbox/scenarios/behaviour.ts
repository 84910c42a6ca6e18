import type { ScenarioPick } from '../../src/catalog/scenarios.ts';
import type { EngineContext, OperationCall } from '../engine/context.ts';
import type { ApiReply } from '../replies.ts';
import type { RequestRow } from '../store.ts';
import type { Patch } from '../store/statements.ts';

/** A timer on the event loop: a held answer costs no thread, only a pending promise. */
export type Sleep = (ms: number) => Promise<void>;

/** How a pending transaction ends instead of the card's outcome (`pending_status: null`: never). */
export type OutcomePatch = Pick<
  Patch<RequestRow>,
  'pending_status' | 'pending_error_message' | 'pending_error_code' | 'finalize_at'
>;

/** An operation the engine just ran, in its transaction, for the scenarios of its order. */
export interface OperationDone {
  x: EngineContext;
  call: OperationCall;
  orderId: number;
  reply: ApiReply;
}

/** Where a callback attempt stands, for the callback stage's scenarios. */
export interface CallbackAttempt {
  /** Attempts made before this one (0: the first). */
  attemptsBefore: number;
  /** True when the callback is of the order's first transaction (read only when asked). */
  isFirstTransaction: () => boolean;
}

/**
 * What one scenario does, one hook per stage it acts at (src/catalog/scenarios.ts says which stage
 * in words; this is the code). The registry (registry.ts) holds one per scenario name; where two
 * chosen scenarios act at the same point, the registry's order decides.
 */
export interface ScenarioBehaviour {
  /** Answer stage: how long the answer is held, counted against the client's budget (held-budget.ts). */
  heldMs?(pick: ScenarioPick): number;
  /** Answer stage, after the operation committed: the answer to send (the same one: unchanged). */
  answer?(reply: ApiReply, pick: ScenarioPick, sleep: Sleep): Promise<ApiReply>;
  /** Outcome stage: how the order's pending transactions end. */
  outcome?: OutcomePatch;
  /** After an operation on an order made (or called) under it, in the operation's transaction. */
  afterOperation?(done: OperationDone, pick: ScenarioPick): ApiReply;
  /** Callback stage: the first attempt is held this long (undefined: not held). */
  holdCallback?(attempt: CallbackAttempt, pick: ScenarioPick): number | undefined;
  /** Callback stage: this attempt is dropped (nothing sent), and retried on the schedule. */
  dropsAttempt?(attempt: CallbackAttempt): boolean;
  /** Callback stage: a forged `approved` callback goes first, once per callback. */
  forgesFirst?: true;
  /** Callback stage: every delivery is sent a second time at once. */
  duplicates?: true;
}
