import { RESPONSE_SCHEMAS } from '../../catalog/responses.ts';
import { isFinalStatus, nextPoll, POLL_POLICY, pollLimitText } from '../../model/poll-policy.ts';
import { flowOperation, sendStep } from './flow-send.ts';
import { FlowStepError, type StepHost } from './flow-run-types.ts';
import type { StatusStep } from './flow-types.ts';
import { textOf } from './flow-vars.ts';

function goalText(step: StatusStep): string {
  return step.until === 'final'
    ? 'a final status'
    : step.until === 'redirect-to'
      ? 'an issuer page (redirect-to)'
      : 'a 3DS Method URL';
}

/** Draws a status on the timeline, unless it is the one last drawn for the order. */
function recordStatus(host: StepHost, obj: Record<string, unknown>, orderid: string): void {
  const status = textOf(obj.status) ?? '?';
  const parts = [
    textOf(obj['transaction-type']),
    textOf(obj['threeds-stage']) && `3DS ${String(obj['threeds-stage'])}`,
  ]
    .filter(Boolean)
    .join(', ');
  const error = textOf(obj['error-message']);
  const detail = [parts, error].filter(Boolean).join(' · ');
  const id = `${status}|${detail}`;
  if (host.lastStatus.get(orderid) === id) return;
  host.lastStatus.set(orderid, id);
  host.push({ kind: 'status', status, detail, orderid });
}

/**
 * Asks for the order's status (one timeline entry, its checks counted) under the model's polling
 * policy until the step's goal is reached; a final status before it, or the policy's limit, fails it.
 */
export async function runStatusStep(
  host: StepHost,
  step: StatusStep,
  index: number,
  signal: AbortSignal,
): Promise<void> {
  const { deps } = host;
  const op = flowOperation('v2/status');
  const order = host.fill(step.order);
  const values = { login: host.snapshot().vars['env.login'] ?? '', ...order };
  const policy = deps.poll ?? POLL_POLICY;
  const started = deps.clock();
  let key: number | undefined;
  for (let attempt = 1; ; attempt++) {
    const { json, key: k } = await sendStep(host, step.id, op, values, signal, key);
    key = k;
    host.update(key, { checks: attempt });
    const parsed = RESPONSE_SCHEMAS.StatusResponse.safeParse(json);
    if (!parsed.success) throw new FlowStepError('The status answer has no status.');
    recordStatus(host, json, order.orderid ?? '');
    const status = parsed.data.status;
    const reached =
      step.until === 'final'
        ? isFinalStatus(status)
        : step.until === 'redirect-to'
          ? textOf(json['redirect-to']) !== undefined
          : textOf(json['threeds-method-url']) !== undefined;
    if (reached) {
      if (step.until === 'final' && step.expect && !step.expect.includes(status)) {
        const why = textOf(json['error-message']);
        throw new FlowStepError(
          `The final status is ${status}${why ? `: ${why}` : ''}; expected ${step.expect.join(' or ')}.`,
        );
      }
      host.save(step.save, json);
      return;
    }
    const next = nextPoll(status, attempt, started, deps.clock, policy);
    if (next.kind === 'final') {
      const why = textOf(json['error-message']);
      throw new FlowStepError(
        `The transaction became ${status}${why ? ` (${why})` : ''} before ${goalText(step)}.`,
      );
    }
    if (next.kind === 'expired') {
      throw new FlowStepError(
        `Still ${status} after ${pollLimitText(policy)}: the gateway has not answered ${goalText(step)}. Try Next step later.`,
      );
    }
    host.setStep(index, 'waiting', `${status} after ${attempt} check${attempt === 1 ? '' : 's'}…`);
    await deps.sleep(next.delayMs, signal);
    if (signal.aborted) throw new FlowStepError('Stopped.');
  }
}
