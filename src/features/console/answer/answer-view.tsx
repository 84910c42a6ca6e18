import { useEffect, useMemo, useRef, useState } from 'react';
import { renderRawHttp } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import type { Place, RequestDraft, SigningRuntime } from '../../../model/index.ts';
import type { Exchange } from '../../../model/exchange.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { CodeView, CopyButton } from '../../../ui/index.ts';
import { StatusBadge } from './badge.tsx';
import { FollowUpButton } from '../follow-ups/follow-up-button.tsx';
import { AnswerFacts, ANSWER_FACTS } from './answer-facts.tsx';
import { canPollIn, carriedIds, followUpPlan, heldBackNote, orderStateOf } from '../follow-ups/follow-ups.ts';
import { recentOrders, rememberAnswer } from '../follow-ups/recent-ids-store.ts';
import { knownStatus } from '../follow-ups/recent-ids.ts';
import { SignatureMismatch } from './signature-mismatch.tsx';
import { StatusPoller, type PollIds } from './status-poller.tsx';
import { freshOrderId } from '../form/test-data.ts';
import type { SendOutcome } from '../send/send-session.ts';
import { NameValueTable } from '../../../ui/name-value-table.tsx';

export type { SendOutcome };

export function AnswerView({
  op,
  outcome,
  context,
  place,
  runtime,
  onExchange,
  onNavigate,
  stale = false,
}: {
  op: Operation;
  outcome: SendOutcome;
  /** The form has changed since this answer's request was sent. */
  stale?: boolean;
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
  onExchange: (ex: Exchange) => void;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  const { envelope: env, interpreted: a, built } = outcome;
  const [poll, setPoll] = useState<PollIds | null>(null);
  // The latest status answer about this order: the order's state, once polled, is its.
  const [latestStatus, setLatestStatus] = useState<unknown>(undefined);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (outcome.envelope.status === 200)
      rememberAnswer(op.path, outcome.built.body, outcome.interpreted.json, outcome.sentAt);
  }, [op, outcome]);
  useEffect(() => {
    setPoll(null);
    setLatestStatus(undefined);
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [outcome]);
  const ids = carriedIds(built.body, a.json);
  // An identical resend answers the original acknowledgement: the status read since still holds.
  // Read at the answer's first render, before it is remembered.
  const known = useMemo(
    () => knownStatus(recentOrders(), op.path, outcome.built.body, outcome.interpreted.json),
    [op, outcome],
  );
  const state = orderStateOf(latestStatus ?? (known ? { status: known } : a.json));
  const plan =
    env.status === 200
      ? followUpPlan(op, built.body, a.json, () => freshOrderId(Date.now()), state)
      : { offered: [], heldBack: [] };
  const followUps = plan.offered;
  const heldBack = heldBackNote(plan.heldBack, state);
  const canPoll =
    env.status === 200 &&
    ids.clientOrderId !== undefined &&
    a.badge.kind !== 'validation-error' &&
    canPollIn(state);
  return (
    <section
      className="wb-pane wb-answer"
      aria-labelledby="answer-title"
      ref={ref}
      data-stale={stale || undefined}
    >
      <div className="wb-pane-head">
        <h2 id="answer-title">Answer</h2>
        <StatusBadge kind={a.badge.kind} label={a.badge.label} />
      </div>
      {stale ? (
        <p className="wb-stale" role="note">
          This answer belongs to the previous request: the form has changed since it was sent.
        </p>
      ) : null}
      <p className="wb-answer-line">
        <span>
          HTTP {env.status} {env.statusText}
        </span>{' '}
        · <span>{env.elapsedMs.toFixed(0)} ms</span> ·{' '}
        <span>{new Date(outcome.sentAt).toLocaleTimeString()}</span>
      </p>
      <AnswerFacts json={a.json} keys={ANSWER_FACTS} label="Answer summary" />
      {env.headers['x-sandbox-note'] ? (
        // Why the sandbox answered as it did (a value it recorded in place of the one sent).
        <p className="wb-hint" role="note" aria-label="Sandbox note">
          Sandbox: {env.headers['x-sandbox-note']}
        </p>
      ) : null}
      {a.errorMessage ? (
        <p className="wb-error" role="group" aria-label="Error message">
          {a.errorMessage}
          {a.errorCode ? <span className="wb-error-code"> (code {a.errorCode})</span> : null}
        </p>
      ) : null}
      {!a.schemaOk && a.isJson ? (
        <details className="wb-issues">
          <summary>
            The body does not match the {a.schema} schema ({a.schemaIssues.length} issue
            {a.schemaIssues.length === 1 ? '' : 's'})
          </summary>
          <ul>
            {a.schemaIssues.map((i) => (
              <li key={i}>{i}</li>
            ))}
          </ul>
        </details>
      ) : null}
      <SignatureMismatch built={built} interpreted={a} />
      {a.links.length > 0 ? (
        <div className="wb-row">
          {a.links.map((l) => (
            <a
              key={l.url}
              className="ui-btn ui-btn-primary"
              href={l.url}
              target="_blank"
              rel="noopener noreferrer"
            >
              {l.label} (new tab)
            </a>
          ))}
        </div>
      ) : null}
      {canPoll || followUps.length > 0 || heldBack ? (
        <div className="wb-followups" role="group" aria-label="Follow-ups">
          {canPoll ? (
            <button
              type="button"
              className="ui-btn ui-btn-primary"
              disabled={!context || poll !== null}
              onClick={() =>
                setPoll({
                  clientOrderId: ids.clientOrderId!,
                  ...(ids.orderId ? { orderId: ids.orderId } : {}),
                })
              }
            >
              Poll status until final
            </button>
          ) : null}
          {followUps.map((f) => (
            <FollowUpButton key={f.path} followUp={f} onNavigate={onNavigate} />
          ))}
          {heldBack ? <p className="wb-hint wb-held-back">{heldBack}</p> : null}
        </div>
      ) : null}
      {poll && context ? (
        <StatusPoller
          onResult={setLatestStatus}
          ids={poll}
          context={context}
          place={place}
          runtime={runtime}
          onExchange={onExchange}
          onStop={() => setPoll(null)}
          onNavigate={onNavigate}
        />
      ) : null}
      <div className="wb-pane-head">
        <h3>Body</h3>
        <CopyButton text={env.body} label="Copy response body" />
      </div>
      <CodeView
        value={a.pretty}
        language={a.isJson ? 'json' : 'plaintext'}
        label="Response body"
        maxLines={30}
      />
      <details>
        <summary>Response headers ({Object.keys(env.headers).length})</summary>
        <NameValueTable label="Response headers" rows={Object.entries(env.headers)} />
      </details>
      <details>
        <summary>The request as sent</summary>
        <pre className="ui-code" role="group" aria-label="Request as sent">
          {renderRawHttp(built)}
        </pre>
      </details>
    </section>
  );
}
