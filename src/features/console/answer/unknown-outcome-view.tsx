import { useEffect, useRef, useState } from 'react';
import { browserTransport } from '../../../browser/proxy-client.ts';
import type { Place, RequestDraft, SigningRuntime } from '../../../model/index.ts';
import { prepareExchange, type Exchange } from '../../../model/exchange.ts';
import { isFinalStatus } from '../../../model/poll-policy.ts';
import {
  UNKNOWN_OUTCOME_ADVICE,
  UNKNOWN_OUTCOME_RULE,
  type UnknownOutcome,
} from '../../../model/send-certainty.ts';
import { signingEnvFor, type SigningContext } from '../../../model/signing-context.ts';
import { InlineCode } from '../../../ui/index.ts';
import { AnswerFacts, STATUS_FACTS } from './answer-facts.tsx';
import { StatusBadge } from './badge.tsx';
import { FollowUpButton } from '../follow-ups/follow-up-button.tsx';
import { followUpsFor } from '../follow-ups/follow-ups.ts';
import { rememberAnswer } from '../follow-ups/recent-ids-store.ts';
import { freshOrderId } from '../form/test-data.ts';
import { OutcomeCheck } from '../send/outcome-check.ts';
import { STATUS_OPERATION } from '../send/status-poll.ts';
import { useStore } from '../../../ui/use-store.ts';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * A send that may have reached the gateway: says so, names what a correct merchant does (the
 * description's rule), checks status once by itself, and offers "Check with status" and "Resend
 * the identical request" — never a retry with a new order id.
 */
export function UnknownOutcomeView({
  unknown,
  detail,
  context,
  place,
  runtime,
  onExchange,
  onResend,
  onNavigate,
  resending,
}: {
  unknown: UnknownOutcome;
  /** What failed, as the transport said it. */
  detail?: string;
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
  onExchange: (ex: Exchange) => void;
  onResend: () => void;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
  resending: boolean;
}) {
  const latest = useRef({ context, place, onExchange });
  latest.current = { context, place, onExchange };
  const [check] = useState(
    () =>
      new OutcomeCheck(unknown, {
        prepare: (draft) => {
          const { context: ctx, place: p } = latest.current;
          if (!ctx) throw new Error('Pick a profile first: the status check is signed with its keys.');
          return prepareExchange(draft, signingEnvFor(ctx, { ...p, login: ctx.credentials.login }, runtime));
        },
        transport: () => {
          const ctx = latest.current.context;
          if (!ctx) throw new Error('Pick a profile first.');
          return browserTransport(ctx.target);
        },
        party: () => ({
          profileName: latest.current.context?.profileName ?? '',
          targetName: latest.current.context?.target.name ?? '',
        }),
        clock: runtime.clock,
        sleep,
        onExchange: (record) => latest.current.onExchange(record),
        onStatus: (sent, answer, sentAt) => rememberAnswer(STATUS_OPERATION.path, sent, answer.json, sentAt),
      }),
  );
  useEffect(() => {
    if (context) void check.auto();
    return () => check.dispose();
    // The automatic check runs once, for this outcome.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [check]);
  const snap = useStore(check);
  const answer = snap.answer;
  const found = answer?.httpStatus === 200 && answer.status !== undefined;
  const followUps =
    found && answer && isFinalStatus(answer.status)
      ? followUpsFor(
          STATUS_OPERATION,
          [
            { name: 'client_orderid', value: unknown.clientOrderId ?? '' },
            { name: 'orderid', value: unknown.orderId ?? '' },
          ],
          answer.json,
          () => freshOrderId(runtime.clock()),
        )
      : [];
  const by = unknown.orderId ? `orderid ${unknown.orderId}` : `client_orderid ${unknown.clientOrderId}`;
  return (
    <section className="wb-pane wb-unknown-outcome" aria-labelledby="unknown-outcome-title">
      <div className="wb-pane-head">
        <h2 id="unknown-outcome-title">Outcome unknown</h2>
        {found && answer ? <StatusBadge kind={answer.badge.kind} label={answer.badge.label} /> : null}
      </div>
      <p role="alert">
        {unknown.cause} The order may exist: this is not a failure, and not a reason to send a new order.
      </p>
      {detail ? <p className="wb-hint">{detail}</p> : null}
      <p>
        <strong>What a correct merchant does:</strong> <InlineCode text={UNKNOWN_OUTCOME_ADVICE} />
      </p>
      <blockquote className="wb-rule">
        <p>
          “<InlineCode text={UNKNOWN_OUTCOME_RULE.quote} />”
        </p>
        <footer>
          {UNKNOWN_OUTCOME_RULE.source}, {UNKNOWN_OUTCOME_RULE.section}
        </footer>
      </blockquote>
      <div className="wb-followups" role="group" aria-label="Unknown outcome">
        {unknown.clientOrderId !== undefined ? (
          <button
            type="button"
            className="ui-btn ui-btn-primary"
            disabled={!context || snap.phase === 'checking'}
            onClick={() => void check.check()}
          >
            Check with status
          </button>
        ) : null}
        <button type="button" className="ui-btn" disabled={!context || resending} onClick={onResend}>
          Resend the identical request
        </button>
      </div>
      <p className="wb-hint" aria-live="polite">
        {unknown.clientOrderId === undefined
          ? 'The request carried no client_orderid to look the order up by.'
          : snap.phase === 'waiting'
            ? snap.nextAt !== null
              ? `The console checks status by ${by} in a moment (the polling policy's first wait).`
              : `Check status by ${by}.`
            : snap.phase === 'checking'
              ? `Checking status by ${by}…`
              : snap.phase === 'failed'
                ? `The status check failed: ${snap.error}`
                : found && answer
                  ? `The gateway says: ${answer.status} (status by ${by}).`
                  : `The status check answered HTTP ${answer?.httpStatus}${answer?.errorMessage ? `: ${answer.errorMessage}` : ''}.`}
      </p>
      {found && answer ? (
        <AnswerFacts json={answer.json} keys={STATUS_FACTS} label="Status of the unknown outcome" />
      ) : null}
      {followUps.length > 0 ? (
        <div className="wb-followups" role="group" aria-label="Follow-ups after the status check">
          {followUps.map((f) => (
            <FollowUpButton key={f.path} followUp={f} onNavigate={onNavigate} />
          ))}
        </div>
      ) : null}
    </section>
  );
}
