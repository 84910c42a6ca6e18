import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { findOperation } from '../../catalog/index.ts';
import { draftFromValues, type Place, type RequestDraft, type SigningRuntime } from '../../model/index.ts';
import { signingEnvFor, type Exchange, type SigningContext } from '../../shared/contracts/contracts.ts';
import { sendThroughProxy } from '../../shared/browser/proxy-client.ts';
import { AnswerFacts, STATUS_FACTS } from './answer-facts.tsx';
import { interpretAnswer, type Interpreted } from './answer.ts';
import { rememberAnswer } from './recent-ids-store.ts';
import { StatusBadge } from './badge.tsx';
import { FollowUpButton } from './follow-up-button.tsx';
import { tryBuild } from './build.ts';
import { toExchange } from './exchange.ts';
import { followUpsFor } from './follow-ups.ts';
import { freshOrderId } from './test-data.ts';
import { isFinalStatus, POLL_LIMIT_MS, pollDelayMs } from './polling.ts';

const STATUS = findOperation('v2/status')!;

export interface PollIds {
  clientOrderId: string;
  orderId?: string;
}

interface PollResult {
  sent: Array<{ name: string; value: string }>;
  interpreted: Interpreted;
  httpStatus: number;
  at: number;
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
  const [started] = useState(() => Date.now());
  const [pollKey] = useState(() => `${ids.clientOrderId}:${ids.orderId ?? ''}:${started}`);
  const contextRef = useRef(context);
  contextRef.current = context;
  const [now, setNow] = useState(started);
  const [checks, setChecks] = useState(0);

  const q = useQuery<PollResult, Error>({
    queryKey: ['status-poll', pollKey],
    queryFn: async ({ signal }) => {
      const ctx = contextRef.current;
      setChecks((c) => c + 1);
      const draft = draftFromValues(STATUS, {
        values: { client_orderid: ids.clientOrderId, orderid: ids.orderId ?? '' },
      });
      const r = await tryBuild(
        draft,
        signingEnvFor(ctx, { ...place, login: ctx.credentials.login }, runtime),
      );
      if (!r.ok) throw new Error(r.message);
      if (r.built.signing.signature === null)
        throw new Error(r.built.problems.map((p) => p.message).join(' '));
      const sentAt = new Date().toISOString();
      try {
        const env = await sendThroughProxy(ctx.target, r.built, signal);
        onExchange(toExchange(draft, ctx, r.built, sentAt, env));
        const interpreted = interpretAnswer(STATUS, env.status, env.body);
        if (env.status === 200) rememberAnswer(STATUS.path, r.built.body, interpreted.json, sentAt);
        return {
          sent: r.built.body,
          interpreted,
          httpStatus: env.status,
          at: Date.now(),
        };
      } catch (e) {
        onExchange(
          toExchange(draft, ctx, r.built, sentAt, undefined, e instanceof Error ? e.message : String(e)),
        );
        throw e;
      }
    },
    refetchInterval: (query) => {
      const d = query.state.data;
      if (query.state.status === 'error') return false;
      if (d && (isFinalStatus(d.interpreted.status) || d.httpStatus !== 200)) return false;
      if (Date.now() - started > POLL_LIMIT_MS) return false;
      return pollDelayMs(query.state.dataUpdateCount);
    },
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
  });

  const data = q.data;
  const onResultRef = useRef(onResult);
  onResultRef.current = onResult;
  useEffect(() => {
    if (data && data.httpStatus === 200) onResultRef.current?.(data.interpreted.json);
  }, [data]);
  const final = data ? isFinalStatus(data.interpreted.status) : false;
  const stopped =
    final || q.isError || (data !== undefined && data.httpStatus !== 200) || now - started > POLL_LIMIT_MS;
  useEffect(() => {
    if (stopped) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [stopped]);

  const attempts = q.isFetching ? checks - 1 : checks;
  const nextIn =
    data && !stopped ? Math.max(0, Math.ceil((data.at + pollDelayMs(attempts) - now) / 1000)) : null;
  const elapsed = Math.round((now - started) / 1000);
  const body =
    data?.interpreted.json && typeof data.interpreted.json === 'object'
      ? (data.interpreted.json as Record<string, unknown>)
      : {};
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
      ? followUpsFor(STATUS, data.sent, data.interpreted.json, () => freshOrderId(Date.now()))
      : [];
  return (
    <section className="wb-poller" aria-label="Status polling">
      <div className="wb-row">
        <strong>Status of {ids.orderId ? `order ${ids.orderId}` : ids.clientOrderId}</strong>
        {data ? (
          <StatusBadge kind={data.interpreted.badge.kind} label={data.interpreted.badge.label} />
        ) : null}
        {!stopped ? (
          <button type="button" className="ui-btn ui-btn-small" onClick={onStop}>
            Stop polling
          </button>
        ) : (
          <button type="button" className="ui-btn ui-btn-small" onClick={onStop}>
            Close
          </button>
        )}
      </div>
      <progress
        max={POLL_LIMIT_MS / 1000}
        value={final ? POLL_LIMIT_MS / 1000 : Math.min(elapsed, POLL_LIMIT_MS / 1000)}
        aria-label="Polling progress"
      />
      <p className="wb-hint" aria-live="polite">
        {q.isError
          ? `Polling stopped: ${q.error.message}`
          : final
            ? `Final status after ${attempts} check${attempts === 1 ? '' : 's'}: ${data?.interpreted.status}.`
            : data && data.httpStatus !== 200
              ? `Polling stopped: HTTP ${data.httpStatus}${data.interpreted.errorMessage ? `: ${data.interpreted.errorMessage}` : ''}.`
              : now - started > POLL_LIMIT_MS
                ? 'Polling stopped after 5 minutes without a final status; check again later.'
                : `Check ${attempts + (q.isFetching ? 1 : 0)}${q.isFetching ? ' in flight' : ''} · ${elapsed} s elapsed${nextIn !== null && !q.isFetching ? ` · next check in ${nextIn} s` : ''}`}
      </p>
      {data && data.httpStatus === 200 ? (
        <AnswerFacts
          json={data.interpreted.json}
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
      {data?.interpreted.links.map((l) => (
        <a key={l.url} href={l.url} target="_blank" rel="noopener noreferrer" className="ui-btn">
          {l.label}
        </a>
      ))}
    </section>
  );
}
