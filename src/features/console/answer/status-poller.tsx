import { useEffect, useRef, useState } from 'react';
import type { Place, RequestDraft, SigningRuntime } from '../../../model/index.ts';
import { pollLimitText } from '../../../model/poll-policy.ts';
import { prepareExchange } from '../../../model/exchange.ts';
import { signingEnvFor, type SigningContext } from '../../../model/signing-context.ts';
import { type Exchange } from '../../../model/exchange.ts';
import { browserTransport } from '../../../browser/proxy-client.ts';
import { AnswerFacts, STATUS_FACTS } from './answer-facts.tsx';
import { rememberAnswer } from '../follow-ups/recent-ids-store.ts';
import { StatusBadge } from './badge.tsx';
import { FollowUpButton } from '../follow-ups/follow-up-button.tsx';
import { followUpsFor } from '../follow-ups/follow-ups.ts';
import { freshOrderId } from '../form/test-data.ts';
import { STATUS_OPERATION as STATUS, StatusPoll, type PollIds } from '../send/status-poll.ts';
import { useStore } from '../../../ui/use-store.ts';

export type { PollIds };

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

export function StatusPoller({
  ids,
  context,
  place,
  runtime,
  onExchange,
  onStop,
  onNavigate,
  onResult,
}: {
  ids: PollIds;
  /** Each status answer's body, as it arrives (the order's latest state). */
  onResult?: (json: unknown) => void;
  context: SigningContext;
  place: Place;
  runtime: SigningRuntime;
  onExchange: (ex: Exchange) => void;
  onStop: () => void;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  const latest = useRef({ context, place, onExchange, onResult });
  latest.current = { context, place, onExchange, onResult };
  const [poll] = useState(
    () =>
      new StatusPoll(ids, {
        prepare: (draft) => {
          const { context: ctx, place: p } = latest.current;
          return prepareExchange(draft, signingEnvFor(ctx, { ...p, login: ctx.credentials.login }, runtime));
        },
        transport: () => browserTransport(latest.current.context.target),
        party: () => ({
          profileName: latest.current.context.profileName,
          targetName: latest.current.context.target.name,
        }),
        clock: runtime.clock,
        sleep,
        onExchange: (record) => latest.current.onExchange(record),
        onStatus: (check) => {
          rememberAnswer(STATUS.path, check.sent, check.answer.json, check.sentAt);
          latest.current.onResult?.(check.answer.json);
        },
      }),
  );
  useEffect(() => {
    void poll.start();
    return () => poll.stop();
  }, [poll]);
  const snap = useStore(poll);
  const polling = snap.phase === 'polling';
  const [now, setNow] = useState(() => runtime.clock());
  useEffect(() => {
    if (!polling) return;
    const t = setInterval(() => setNow(runtime.clock()), 250);
    return () => clearInterval(t);
  }, [polling, runtime]);

  const data = snap.last;
  const answer = data?.answer;
  const final = snap.phase === 'final';
  const limitS = poll.policy.limitMs / 1000;
  const attempts = snap.inFlight ? snap.checks - 1 : snap.checks;
  const nextIn = snap.nextAt !== null && polling ? Math.max(0, Math.ceil((snap.nextAt - now) / 1000)) : null;
  const elapsed = Math.round((Math.max(now, snap.startedAt) - snap.startedAt) / 1000);
  const body =
    answer?.json && typeof answer.json === 'object' ? (answer.json as Record<string, unknown>) : {};
  const stage = typeof body['threeds-stage'] === 'string' ? body['threeds-stage'] : undefined;
  const threeDs =
    !final && stage === 'method'
      ? '3-D Secure: the Method step is pending. Upload its result (threeDSCompInd), then the challenge opens.'
      : !final && (stage === 'acs' || stage === 'challenge')
        ? '3-D Secure: the customer must pass the issuer page. Open it, then upload the result it returns.'
        : !final && stage
          ? `3-D Secure stage: ${stage}.`
          : null;
  const tdsFollowUps =
    data && !final && stage
      ? followUpsFor(STATUS, data.sent, data.answer.json, () => freshOrderId(runtime.clock()))
      : [];
  return (
    <section className="wb-poller" aria-label="Status polling">
      <div className="wb-row">
        <strong>Status of {ids.orderId ? `order ${ids.orderId}` : ids.clientOrderId}</strong>
        {answer ? <StatusBadge kind={answer.badge.kind} label={answer.badge.label} /> : null}
        {polling ? (
          // Stopping keeps what is known (the last answer, its 3-D Secure stage and follow-ups).
          <button type="button" className="ui-btn ui-btn-small" onClick={() => poll.stop()}>
            Stop polling
          </button>
        ) : (
          <button type="button" className="ui-btn ui-btn-small" onClick={onStop}>
            Close
          </button>
        )}
      </div>
      <progress
        max={limitS}
        value={final ? limitS : Math.min(elapsed, limitS)}
        aria-label="Polling progress"
      />
      <p className="wb-hint" aria-live="polite">
        {snap.phase === 'failed'
          ? `Polling stopped: ${snap.error}`
          : final
            ? `Final status after ${attempts} check${attempts === 1 ? '' : 's'}: ${answer?.status}.`
            : snap.phase === 'refused' && answer
              ? `Polling stopped: HTTP ${answer.httpStatus}${answer.errorMessage ? `: ${answer.errorMessage}` : ''}.`
              : snap.phase === 'expired'
                ? `Polling stopped after ${pollLimitText(poll.policy)} without a final status; check again later.`
                : snap.phase === 'stopped'
                  ? 'Polling stopped.'
                  : `Check ${snap.checks}${snap.inFlight ? ' in flight' : ''} · ${elapsed} s elapsed${nextIn !== null && !snap.inFlight ? ` · next check in ${nextIn} s` : ''}`}
      </p>
      {answer && answer.httpStatus === 200 ? (
        <AnswerFacts
          json={answer.json}
          keys={STATUS_FACTS}
          label="Last status answer"
          prefix="last status: "
        />
      ) : null}
      {threeDs ? <p className="wb-hint">{threeDs}</p> : null}
      {tdsFollowUps.length > 0 ? (
        <div className="wb-followups" role="group" aria-label="3-D Secure follow-ups">
          {tdsFollowUps.map((f) => (
            <FollowUpButton key={f.path} followUp={f} onNavigate={onNavigate} />
          ))}
        </div>
      ) : null}
      {answer?.links.map((l) => (
        <a key={l.url} href={l.url} target="_blank" rel="noopener noreferrer" className="ui-btn">
          {l.label}
        </a>
      ))}
    </section>
  );
}
