/**
 * The road after the build, one for every screen: prepare (refuse what must not go out, build)
 * → send through an injected transport → read the answer → one record for history. The
 * transport is a port: the browser passes its proxy client, a test or the CLI their own.
 * After scalar's `create-request-operation.ts`: the built request comes back with its `send`.
 */
import { CodedError, isPayError, type BuiltRequest } from '../core/index.ts';
import { isDraftError } from './errors.ts';
import { buildDraft, type BuildDraftOptions, type SigningEnv } from './build-draft.ts';
import { operationOf } from './draft-params.ts';
import { missingValues, type MissingValue } from './missing-values.ts';
import { readAnswer, type AnswerReading } from './read-answer.ts';
import type { RequestDraft } from './request-draft.ts';
import {
  endOf,
  sendCertainty,
  unknownOutcome,
  type SendCertainty,
  type UnknownOutcome,
} from './send-certainty.ts';
import { variablesIn } from './variables.ts';
import { unresolvedText } from './variable-words.ts';
import { errorText } from '../core/errors.ts';

/** What came back over the wire. */
export interface WireAnswer {
  status: number;
  statusText?: string;
  headers: Record<string, string>;
  body: string;
  elapsedMs: number;
}

/** Sends exactly the built request (its URL, headers and body text) and returns what came back. */
export type Transport = (request: BuiltRequest, signal?: AbortSignal) => Promise<WireAnswer>;

export type ExchangeRefusalCode =
  'SEND_MISSING_VALUES' | 'SEND_UNRESOLVED_VARIABLES' | 'SEND_ENDPOINT' | 'SEND_UNSIGNED' | 'SEND_BUILD';

/** A send refused before anything went out; `missing` names the values to fill in first. */
export class ExchangeRefused extends CodedError<ExchangeRefusalCode> {
  override readonly name = 'ExchangeRefused';
  constructor(
    code: ExchangeRefusalCode,
    message: string,
    readonly missing: readonly MissingValue[] = [],
  ) {
    super(code, message);
  }
}

export function isExchangeRefused(e: unknown): e is ExchangeRefused {
  return e instanceof ExchangeRefused;
}

/** Who sent it, for the record: the profile's name and the target's. */
export interface ExchangeParty {
  profileName: string;
  targetName: string;
}

/**
 * One request sent and its answer, as history receives it (not yet masked). The draft it was sent
 * from is required, and holds the pinned OAuth nonce and timestamp: they are stored there only.
 */
export interface ExchangeRecord {
  operationPath: string;
  draft: RequestDraft;
  profileName: string;
  targetName: string;
  sentAt: string;
  request: {
    method: string;
    url: string;
    headers: Array<{ name: string; value: string }>;
    body: Array<{ name: string; value: string }>;
  };
  response?: { status: number; elapsedMs: number; headers: Record<string, string>; body: string };
  error?: string;
  /** Not answered (or answered 5xx): never sent, or an unknown outcome (`send-certainty.ts`). */
  certainty?: Exclude<SendCertainty, 'answered'>;
  /** Sent by the console by itself (a poll's check), not by the user: kept out of the recents. */
  automatic?: true;
}

export type ExchangeOutcome =
  | { ok: true; sentAt: string; wire: WireAnswer; answer: AnswerReading }
  | { ok: false; sentAt: string; error: unknown };

export interface PreparedExchange {
  draft: RequestDraft;
  built: BuiltRequest;
  /** Sends the built request; never throws: a failed transport is an outcome with its error. */
  send(transport: Transport, signal?: AbortSignal): Promise<ExchangeOutcome>;
  /** The record of a send, for history (a failed one carries its error's message). */
  record(party: ExchangeParty, outcome: ExchangeOutcome): ExchangeRecord;
  /** The model's decision (`send-certainty.ts`): the order this send may have made, or null. */
  unknown(outcome: ExchangeOutcome): UnknownOutcome | null;
}

export interface PrepareOptions extends BuildDraftOptions {
  /**
   * The request already built from this very draft (the one the panes show), sent byte for byte
   * instead of building again. A teaching request built with a mistake on purpose comes this way.
   */
  built?: BuiltRequest;
}

/** The refusal when the draft lacks values it was kept without (see {@link missingValues}). */
export function missingValuesRefusal(missing: readonly MissingValue[]): ExchangeRefused {
  const names = [...new Set(missing.map((m) => m.name))];
  return new ExchangeRefused(
    'SEND_MISSING_VALUES',
    `Not sent: the request came without ${names.join(', ')}; fill ${names.length === 1 ? 'it' : 'them'} in first (the original was signed with ${names.length === 1 ? 'it' : 'them'}).`,
    missing,
  );
}

/**
 * Prepares one send of a draft: refuses a draft that lacks values it was kept without (a masked
 * card, a dropped CVV: the send would sign fewer parameters than the request it came from), builds
 * it (or takes the request already built from it), and refuses a request that is not signed or has
 * a bad endpoint id.
 * @throws ExchangeRefused with the names of the missing values, or why the request is unsigned;
 * PayError / DraftError from the build (a bad amount, a missing key, an unknown operation).
 */
export async function prepareExchange(
  draft: RequestDraft,
  env: SigningEnv,
  options: PrepareOptions = {},
): Promise<PreparedExchange> {
  const missing = missingValues(draft);
  if (missing.length > 0) throw missingValuesRefusal(missing);
  // Variables are resolved before this (applyVariables); one left would go out as `{{name}}`.
  const unresolved = variablesIn(draft);
  if (unresolved.length > 0)
    throw new ExchangeRefused('SEND_UNRESOLVED_VARIABLES', `Not sent: ${unresolvedText(unresolved)}`);
  const op = operationOf(draft);
  const { built: given, ...buildOptions } = options;
  let built: BuiltRequest;
  try {
    built = given ?? (await buildDraft(draft, env, buildOptions));
  } catch (e) {
    // The core's and the model's errors already say what to do.
    if (isPayError(e) || isDraftError(e)) throw e;
    throw new ExchangeRefused('SEND_BUILD', `The request could not be built: ${errorText(e)}`);
  }
  const endpointProblem = built.problems.find((p) => p.code.startsWith('ENDPOINT_'));
  if (endpointProblem) throw new ExchangeRefused('SEND_ENDPOINT', `Not sent: ${endpointProblem.message}`);
  if (built.signing.signature === null) {
    throw new ExchangeRefused(
      'SEND_UNSIGNED',
      `Not sent: ${built.problems.map((p) => p.message).join(' ') || 'the request has no signature.'}`,
    );
  }
  const clock = env.runtime.clock;
  return {
    draft,
    built,
    async send(transport, signal) {
      const sentAt = new Date(clock()).toISOString();
      try {
        const wire = await transport(built, signal);
        return { ok: true, sentAt, wire, answer: readAnswer(op, wire.status, wire.body) };
      } catch (error) {
        return { ok: false, sentAt, error };
      }
    },
    record: (party, outcome) => recordExchange(draft, built, party, outcome),
    unknown: (outcome) =>
      unknownOutcome(
        draft.operation,
        built.body,
        endOf(outcome),
        outcome.ok ? outcome.answer.json : undefined,
      ),
  };
}

/** The one record of an exchange: the draft, the request as sent, the answer or the error. */
export function recordExchange(
  draft: RequestDraft,
  built: BuiltRequest,
  party: ExchangeParty,
  outcome: ExchangeOutcome,
): ExchangeRecord {
  const certainty = sendCertainty(
    draft.operation,
    outcome.ok ? { ok: true, status: outcome.wire.status } : { ok: false, error: outcome.error },
  );
  return {
    operationPath: draft.operation,
    draft,
    profileName: party.profileName,
    targetName: party.targetName,
    sentAt: outcome.sentAt,
    request: {
      method: built.method,
      url: built.url,
      headers: built.headers.map((h) => ({ name: h.name, value: h.value })),
      body: built.body.map((p) => ({ name: p.name, value: p.value })),
    },
    ...(outcome.ok
      ? {
          response: {
            status: outcome.wire.status,
            elapsedMs: outcome.wire.elapsedMs,
            headers: outcome.wire.headers,
            body: outcome.wire.body,
          },
        }
      : { error: errorText(outcome.error) }),
    ...(certainty !== 'answered' ? { certainty } : {}),
  };
}

/**
 * One request sent and its answer, as history takes it. Every send makes it with the model's one
 * builder (`ExchangeRecord`, `src/model/exchange.ts`: draft required, pinned values in the draft
 * only); the optional draft and `request.pinned` are there for entries stored before that.
 */
export interface Exchange extends Omit<ExchangeRecord, 'draft' | 'request'> {
  /** The request as the model holds it (placeholders, scheme, formula, pinned values), to reopen it. */
  draft?: RequestDraft;
  request: ExchangeRecord['request'] & {
    /** Entries stored before the model's record: the pinned values, now in the draft only. */
    pinned?: { nonce?: string; timestamp?: string };
  };
}
