import { useEffect, useRef, useState } from 'react';
import { findOperation } from '../../catalog/index.ts';
import type { RequestDraft, SigningRuntime } from '../../model/index.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { browserDeps } from './browser-deps.ts';
import { downloadText } from '../../browser/download.ts';
import { flowCollectionsFile } from './flow-collection.ts';
import { FlowRun } from './flow-engine.ts';
import type { ControlCheck, StepState, TimelineEntry } from './flow-run-types.ts';
import type { FlowDefinition } from './flow-types.ts';
import { FlowInbox, type InboxState } from './inbox.ts';
import { useStore } from '../../ui/use-store.ts';

const STATE_TEXT: Record<StepState, string> = {
  pending: 'pending',
  running: 'running',
  waiting: 'waiting',
  done: 'done',
  warning: 'done with a warning',
  failed: 'failed',
};

const STATE_ICON: Record<StepState, string> = {
  pending: '○',
  running: '◔',
  waiting: '◔',
  done: '✓',
  warning: '!',
  failed: '✗',
};

const CONTROL_TEXT: Record<ControlCheck, string> = {
  checking: 'checking control…',
  valid: '✓ control valid',
  invalid: '✗ control does not match',
  'no-key': 'enter the control key to check control',
  'no-control': 'no control field',
};

const INBOX_TEXT: Record<InboxState, string> = {
  idle: 'connecting to the callback inbox…',
  connecting: 'connecting to the callback inbox…',
  open: 'callback inbox connected',
  error: 'callback inbox unreachable',
};

function time(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour12: false });
}

function TimelineRow({ entry, onOpen }: { entry: TimelineEntry; onOpen: (d: RequestDraft) => void }) {
  if (entry.kind === 'request') {
    const title = findOperation(entry.operation)?.title ?? entry.operation;
    return (
      <li
        className={`flow-tl flow-tl-request ${entry.ok ? 'flow-ok' : entry.httpStatus === null ? '' : 'flow-bad'}`}
      >
        <time className="flow-tl-time">{time(entry.at)}</time>
        <span className="flow-tl-kind">request</span>
        <span className="flow-tl-main">
          <code>{entry.operation}</code> · HTTP {entry.httpStatus ?? '…'} · {entry.type ?? '…'}
          {entry.elapsedMs !== null ? ` · ${Math.round(entry.elapsedMs)} ms` : ''}
          {entry.checks > 1 ? ` · ${entry.checks} checks` : ''}
          {entry.summary ? <span className="flow-tl-sub">{entry.summary}</span> : null}
        </span>
        {entry.draft ? (
          <button
            type="button"
            className="ui-btn ui-btn-small"
            aria-label={`Open in workbench: ${title} (${time(entry.at)})`}
            onClick={() => onOpen(entry.draft!)}
          >
            Open in workbench
          </button>
        ) : null}
      </li>
    );
  }
  if (entry.kind === 'status') {
    return (
      <li className={`flow-tl flow-tl-status flow-st-${entry.status}`}>
        <time className="flow-tl-time">{time(entry.at)}</time>
        <span className="flow-tl-kind">status</span>
        <span className="flow-tl-main">
          Status: <strong>{entry.status}</strong>
          {entry.detail ? ` · ${entry.detail}` : ''} · order {entry.orderid}
        </span>
      </li>
    );
  }
  if (entry.kind === 'callback') {
    return (
      <li className={`flow-tl flow-tl-callback ${entry.control === 'invalid' ? 'flow-bad' : ''}`}>
        <time className="flow-tl-time">{time(entry.at)}</time>
        <span className="flow-tl-kind">callback</span>
        <span className="flow-tl-main">
          Callback: <strong>{entry.status || '(no status)'}</strong>
          {entry.type ? ` · ${entry.type}` : ''} · order {entry.orderid} · {CONTROL_TEXT[entry.control]}
        </span>
      </li>
    );
  }
  if (entry.kind === 'customer') {
    return (
      <li className="flow-tl flow-tl-customer">
        <time className="flow-tl-time">{time(entry.at)}</time>
        <span className="flow-tl-kind">customer</span>
        <span className="flow-tl-main">{entry.text}</span>
      </li>
    );
  }
  return (
    <li className={`flow-tl flow-tl-note flow-note-${entry.tone}`}>
      <time className="flow-tl-time">{time(entry.at)}</time>
      <span className="flow-tl-kind">note</span>
      <span className="flow-tl-main">{entry.text}</span>
    </li>
  );
}

export function FlowRunner({
  flow,
  context,
  runtime,
  onOpen,
  onExchange,
}: {
  flow: FlowDefinition;
  context: SigningContext | null;
  runtime: SigningRuntime;
  onOpen: (draft: RequestDraft) => void;
  onExchange?: (ex: Exchange) => void | Promise<void>;
}) {
  const contextRef = useRef(context);
  contextRef.current = context;
  const exchangeRef = useRef(onExchange);
  exchangeRef.current = onExchange;
  const [{ run, inbox }] = useState(() => {
    let target: FlowRun | null = null;
    const box = new FlowInbox((e) => target?.receive(e));
    target = new FlowRun(
      flow,
      browserDeps(
        () => contextRef.current,
        box.url,
        (ex) => void Promise.resolve(exchangeRef.current?.(ex)).catch(() => undefined),
        runtime,
      ),
    );
    return { run: target, inbox: box };
  });
  const snap = useStore(run);
  const inboxState = useStore(inbox);

  useEffect(() => {
    inbox.open();
    return () => {
      inbox.close();
      run.stop();
    };
  }, [inbox, run]);

  useEffect(() => {
    if (snap.phase !== 'waiting-customer') return;
    const t = setInterval(() => void inbox.refresh(), 2000);
    return () => clearInterval(t);
  }, [snap.phase, inbox]);

  const busy = snap.phase === 'running' || snap.phase === 'waiting-customer';
  const production = context?.target.kind === 'production';
  const blocked = !context || production;
  const finished = snap.cursor >= flow.steps.length;
  const started = snap.cursor > 0 || snap.timeline.length > 0;
  const customerUrl = snap.customer && /^https?:\/\//i.test(snap.customer.url) ? snap.customer.url : null;

  return (
    <article className="flow" aria-labelledby="flow-title">
      <header className="flow-head">
        <h1 id="flow-title">{flow.title}</h1>
        <p>{flow.summary}</p>
        {production ? (
          <p className="flow-warn" role="alert">
            The active target <strong>{context?.target.name}</strong> is a production gateway. Guided flows
            move money and use the sandbox's test card and CVV outcomes: pick a sandbox target to run them.
          </p>
        ) : context && context.target.kind !== 'local' ? (
          <p className="flow-info">
            The flows follow the local sandbox's behaviour (CVV outcomes, the issuer password "hint"); another
            sandbox may answer differently.
          </p>
        ) : null}
        {!context ? <p className="flow-info">Waiting for the profile: fill in the profile bar.</p> : null}
      </header>

      <fieldset className="flow-inputs" disabled={started}>
        <legend>Inputs</legend>
        {flow.inputs.map((input) => (
          <label key={input.name} className="flow-input">
            <span>{input.label}</span>
            <input
              value={snap.vars[input.name] ?? ''}
              onChange={(e) => run.setInput(input.name, e.target.value)}
              aria-describedby={input.help ? `flow-help-${input.name}` : undefined}
            />
            {input.help ? (
              <small id={`flow-help-${input.name}`} className="flow-help">
                {input.help}
              </small>
            ) : null}
          </label>
        ))}
      </fieldset>

      <div className="flow-controls" role="group" aria-label="Run controls">
        <button
          type="button"
          className="ui-btn"
          disabled={busy || finished || blocked}
          onClick={() => void run.next()}
        >
          Next step
        </button>
        <button
          type="button"
          className="ui-btn ui-btn-primary"
          disabled={busy || finished || blocked}
          onClick={() => void run.runAll()}
        >
          Run all
        </button>
        <button type="button" className="ui-btn" disabled={!busy} onClick={() => run.stop()}>
          Stop
        </button>
        <button type="button" className="ui-btn" disabled={busy || !started} onClick={() => run.reset()}>
          Start over
        </button>
        <button
          type="button"
          className="ui-btn"
          onClick={() =>
            // An editable copy: import it on Saved requests, or run it with `paysign run`.
            downloadText(
              `${flow.id}.collections.json`,
              `${JSON.stringify(flowCollectionsFile(flow, new Date().toISOString()), null, 2)}\n`,
              'application/json',
            )
          }
        >
          Export as a collection
        </button>
        <span className={`flow-inbox flow-inbox-${inboxState}`}>{INBOX_TEXT[inboxState]}</span>
      </div>

      <p
        className={`flow-message flow-phase-${snap.phase}`}
        role="status"
        aria-label="Flow progress"
        aria-live="polite"
      >
        {snap.message || `Ready: ${flow.steps.length} steps. Run them one by one or all at once.`}
      </p>

      {snap.customer ? (
        <section className="flow-customer" aria-labelledby="flow-customer-title">
          <h2 id="flow-customer-title">{snap.customer.title}</h2>
          <p>
            Open the issuer page as the customer and enter the password (on the local sandbox:{' '}
            <code>hint</code>
            ). The issuer sends the customer back with the {snap.customer.returns}; the flow continues by
            itself.
          </p>
          {customerUrl ? (
            <p>
              <a
                className="ui-btn ui-btn-primary"
                href={customerUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                Open the issuer page
              </a>
            </p>
          ) : (
            <p className="flow-warn">The issuer address {snap.customer.url} is not a web address.</p>
          )}
        </section>
      ) : null}

      <div className="flow-grid">
        <section aria-labelledby="flow-steps-title">
          <h2 id="flow-steps-title">Steps</h2>
          <ol className="flow-steps" aria-label="Steps">
            {snap.steps.map((s, i) => {
              const def = flow.steps[i]!;
              return (
                <li
                  key={s.id}
                  className={`flow-step flow-step-${s.state}${i === snap.cursor && !finished ? ' flow-step-next' : ''}`}
                  aria-current={i === snap.cursor && !finished ? 'step' : undefined}
                >
                  <span className="flow-step-icon" aria-hidden="true">
                    {STATE_ICON[s.state]}
                  </span>
                  <div>
                    <div className="flow-step-title">
                      {s.title} <span className="flow-step-state">— {STATE_TEXT[s.state]}</span>
                    </div>
                    <div className="flow-step-explain">
                      {def.kind === 'request' ? (
                        <>
                          <code>{def.operation}</code>:{' '}
                        </>
                      ) : null}
                      {def.explain}
                    </div>
                    {s.detail ? <div className="flow-step-detail">{s.detail}</div> : null}
                  </div>
                </li>
              );
            })}
          </ol>
        </section>

        <section aria-labelledby="flow-timeline-title">
          <h2 id="flow-timeline-title">Timeline</h2>
          {snap.timeline.length === 0 ? (
            <p className="flow-empty">Requests, status changes and callbacks appear here as the flow runs.</p>
          ) : (
            <ol className="flow-timeline" aria-label="Timeline">
              {snap.timeline.map((e) => (
                <TimelineRow key={e.key} entry={e} onOpen={onOpen} />
              ))}
            </ol>
          )}
        </section>
      </div>
    </article>
  );
}
