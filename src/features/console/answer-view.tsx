import { useEffect, useRef, useState } from 'react';
import { renderRawHttp, type BuiltRequest } from '../../core/index.ts';
import type { Operation } from '../../catalog/index.ts';
import type { Place, RequestDraft, SigningRuntime } from '../../model/index.ts';
import type { Exchange, SigningContext } from '../../shared/contracts/contracts.ts';
import type { ProxyEnvelope } from '../../shared/browser/proxy-client.ts';
import { CodeView, CopyButton } from '../../shared/ui/index.ts';
import type { Interpreted } from './answer.ts';
import { StatusBadge } from './badge.tsx';
import { FollowUpButton } from './follow-up-button.tsx';
import { carriedIds, followUpsFor } from './follow-ups.ts';
import { SignatureMismatch } from './signature-mismatch.tsx';
import { StatusPoller, type PollIds } from './status-poller.tsx';
import { freshOrderId } from './test-data.ts';

export interface SendOutcome {
  opPath: string;
  built: BuiltRequest;
  envelope: ProxyEnvelope;
  interpreted: Interpreted;
  sentAt: string;
}

export function AnswerView({
  op,
  outcome,
  context,
  place,
  runtime,
  onExchange,
  onNavigate,
}: {
  op: Operation;
  outcome: SendOutcome;
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
  onExchange: (ex: Exchange) => void;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  const { envelope: env, interpreted: a, built } = outcome;
  const [poll, setPoll] = useState<PollIds | null>(null);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    setPoll(null);
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [outcome]);
  const ids = carriedIds(built.body, a.json);
  const followUps =
    env.status === 200 ? followUpsFor(op, built.body, a.json, () => freshOrderId(Date.now())) : [];
  const canPoll =
    env.status === 200 && ids.clientOrderId !== undefined && a.badge.kind !== 'validation-error';
  return (
    <section className="wb-pane wb-answer" aria-labelledby="answer-title" ref={ref}>
      <div className="wb-pane-head">
        <h2 id="answer-title">Answer</h2>
        <StatusBadge kind={a.badge.kind} label={a.badge.label} />
      </div>
      <p className="wb-answer-line">
        <span>
          HTTP {env.status} {env.statusText}
        </span>{' '}
        · <span>{env.elapsedMs.toFixed(0)} ms</span> ·{' '}
        <span>{new Date(outcome.sentAt).toLocaleTimeString()}</span>
      </p>
      <AnswerSummary json={a.json} />
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
      <SignatureMismatch built={built} envelope={env} interpreted={a} />
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
      {canPoll || followUps.length > 0 ? (
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
        </div>
      ) : null}
      {poll && context ? (
        <StatusPoller
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
        <table className="wb-table" aria-label="Response headers">
          <tbody>
            {Object.entries(env.headers).map(([k, v]) => (
              <tr key={k}>
                <th scope="row">
                  <code>{k}</code>
                </th>
                <td>
                  <code className="wb-value">{v}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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

/** The answer's key facts, named by their API keys: a stable place to read them (and for tests). */
const SUMMARY_KEYS: ReadonlyArray<readonly [key: string, label: string]> = [
  ['type', 'Type'],
  ['status', 'Status'],
  ['paynet-order-id', 'Order id'],
  ['merchant-order-id', 'Merchant order id'],
  ['serial-number', 'Serial number'],
  ['card-ref-id', 'Card reference'],
  ['error-code', 'Error code'],
];

function AnswerSummary({ json }: { json: unknown }) {
  const body = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const facts = SUMMARY_KEYS.flatMap(([key, label]) => {
    const v = body[key];
    return typeof v === 'string' && v !== '' ? [{ key, label, value: v }] : [];
  });
  if (facts.length === 0) return null;
  return (
    <div className="wb-answer-summary" role="group" aria-label="Answer summary">
      {facts.map((f) => (
        <div key={f.key} role="group" aria-label={f.key}>
          <span role="term">
            {f.label} <code>{f.key}</code>
          </span>{' '}
          <span role="definition">{f.value}</span>
        </div>
      ))}
    </div>
  );
}
