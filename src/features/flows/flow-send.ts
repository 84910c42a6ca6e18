import { isPayError } from '../../core/index.ts';
import { findOperation, type Operation } from '../../catalog/index.ts';
import { draftFromValues, isDraftError, type Place, type RequestDraft } from '../../model/index.ts';
import {
  isExchangeRefused,
  prepareExchange,
  type ExchangeRecord,
  type PreparedExchange,
} from '../../model/exchange.ts';
import { endOf, unknownOutcome, unknownOutcomeSentence } from '../../model/send-certainty.ts';
import { signingEnvFor, type SigningContext } from '../../model/signing-context.ts';
import { readFlowAnswer } from './flow-answer.ts';
import { FlowStepError, type FlowDeps, type StepHost } from './flow-run-types.ts';
import { errorText } from '../../core/errors.ts';

/** The catalog's operation a step names. */
export function flowOperation(path: string): Operation {
  const op = findOperation(path);
  if (!op) throw new FlowStepError(`The flow names an unknown operation ${path}.`);
  return op;
}

/** The step's request to open in the workbench: its CVV is not carried over. */
function reopenDraft(op: Operation, values: Record<string, string>, context: SigningContext): RequestDraft {
  const withheld: Record<string, 'cvv'> = {};
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const cvv = op.fields.some((f) => f.name === name && f.sensitive === 'cvv');
    if (cvv && value !== '') withheld[name] = 'cvv';
    kept[name] = cvv ? '' : value;
  }
  return draftFromValues(op, { values: kept, endpoint: context.endpoint, withheld });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

function report(deps: FlowDeps, record: ExchangeRecord): void {
  if (!deps.onExchange) return;
  try {
    deps.onExchange(record);
  } catch {
    // History is a convenience: a failure to record never stops the flow.
  }
}

async function prepare(
  deps: FlowDeps,
  context: SigningContext,
  op: Operation,
  values: Record<string, string>,
): Promise<PreparedExchange> {
  try {
    const env = deps.env();
    // A flow's values are filled in already; the place only resolves a login left to the profile.
    const place: Place = {
      origin: originOf(env.returnUrl),
      inboxUrl: env.callbackUrl,
      login: context.credentials.login,
    };
    const runtime = { crypto: deps.crypto, clock: deps.clock, nonce: deps.nonce };
    return await prepareExchange(draftFromValues(op, { values }), signingEnvFor(context, place, runtime));
  } catch (e) {
    throw new FlowStepError(
      isPayError(e) || isDraftError(e) || isExchangeRefused(e)
        ? e.message
        : `The request could not be built: ${String(e)}`,
    );
  }
}

/**
 * Builds, signs and sends one request of a step with the active profile, draws it on the timeline
 * (in the entry `entryKey` when a poll sends again) and returns the answer's JSON; a refusal, a
 * failed transport or an answer that is not what the catalog says fails the step.
 */
export async function sendStep(
  host: StepHost,
  stepId: string,
  op: Operation,
  values: Record<string, string>,
  signal: AbortSignal,
  entryKey?: number,
): Promise<{ json: Record<string, unknown>; httpStatus: number; key: number }> {
  const { deps } = host;
  const context = deps.context();
  if (!context) throw new FlowStepError('No profile is active: fill in the profile bar first.');
  const prepared = await prepare(deps, context, op, values);
  const draft = reopenDraft(op, values, context);
  const key =
    entryKey ??
    host.push({
      kind: 'request',
      stepId,
      operation: op.path,
      title: op.title,
      httpStatus: null,
      type: null,
      elapsedMs: null,
      ok: false,
      summary: 'sending…',
      draft,
      checks: 0,
    });
  const outcome = await prepared.send(deps.transport(context), signal);
  report(
    deps,
    prepared.record({ profileName: context.profileName, targetName: context.target.name }, outcome),
  );
  // The model decides whether the order may exist: then the step says so, never "retry".
  const unknown = unknownOutcome(
    op.path,
    prepared.built.body,
    endOf(outcome),
    outcome.ok ? outcome.answer.json : undefined,
  );
  if (!outcome.ok) {
    const failed = errorText(outcome.error);
    const message = unknown ? `${failed} ${unknownOutcomeSentence(unknown)}` : failed;
    if (!signal.aborted) host.update(key, { summary: message, ok: false });
    throw new FlowStepError(message);
  }
  const read = readFlowAnswer(outcome.answer, outcome.wire.elapsedMs);
  host.update(
    key,
    unknown
      ? { ...read.entry, summary: `${read.entry.summary} ${unknownOutcomeSentence(unknown)}` }
      : read.entry,
  );
  if (!read.ok)
    throw new FlowStepError(unknown ? `${read.message} ${unknownOutcomeSentence(unknown)}` : read.message);
  return { json: read.json, httpStatus: outcome.answer.httpStatus, key };
}
