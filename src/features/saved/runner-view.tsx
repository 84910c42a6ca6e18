/**
 * The collection runner (issue 33 §2), loaded only when a collection is run: it drives the model's
 * headless `CollectionRun` with the browser's ports and shows each step's request, answer and
 * assertions, with Stop, a re-run of one step, and the step's assertions edited as fields.
 */
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import {
  CollectionRun,
  type RunCollection,
  type RunStep,
  type StepResult,
} from '../../model/collection-run.ts';
import type { SigningRuntime } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { ChecksEditor } from './checks-editor.tsx';
import { browserRunPorts } from './runner-ports.ts';
import { updateRequest } from './saved-db.ts';
import type { Collection, SavedRequest } from './saved-schema.ts';

export interface RunnerViewProps {
  collection: Collection;
  requests: SavedRequest[];
  context: SigningContext | null;
  runtime: SigningRuntime;
  onClose: () => void;
}

const STATE_WORDS: Record<StepResult['state'], string> = {
  pending: 'not run',
  running: 'running',
  waiting: 'waiting for the final status',
  passed: 'passed',
  failed: 'failed',
  error: 'could not run',
  stopped: 'stopped',
};

const stepOf = (r: SavedRequest): RunStep => ({
  name: r.name,
  draft: r.draft,
  ...(r.checks ? { checks: r.checks } : {}),
});

function StepView({
  step,
  request,
  included,
  onInclude,
  busy,
  onRerun,
  onChecks,
}: {
  step: StepResult;
  request: SavedRequest;
  included: boolean;
  onInclude: (on: boolean) => void;
  busy: boolean;
  onRerun: () => void;
  onChecks: (r: SavedRequest) => void;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <li className={`sv-step sv-step-${step.state}`} aria-label={`Step ${step.index + 1}: ${step.name}`}>
      <div className="sv-inline">
        <input
          type="checkbox"
          aria-label={`Include ${step.name}`}
          checked={included}
          disabled={busy}
          onChange={(e) => onInclude(e.target.checked)}
        />
        <strong>
          {step.index + 1}. {step.name}
        </strong>
        <span className="sv-mono">{step.operation}</span>
        <span className="sv-step-state" data-state={step.state}>
          {STATE_WORDS[step.state]}
          {step.durationMs !== undefined ? ` · ${step.durationMs} ms` : ''}
        </span>
        <button
          type="button"
          className="ui-btn ui-btn-small"
          aria-label={`Re-run ${step.name}`}
          disabled={busy}
          onClick={onRerun}
        >
          Re-run step
        </button>
        <button
          type="button"
          className="ui-btn ui-btn-small"
          aria-expanded={editing}
          aria-label={`Edit the assertions of ${step.name}`}
          disabled={busy}
          onClick={() => setEditing((e) => !e)}
        >
          Assertions
        </button>
      </div>
      {editing ? (
        <ChecksEditor
          name={step.name}
          checks={request.checks}
          onSave={async (checks) => {
            onChecks(await updateRequest(request, { checks }));
            setEditing(false);
          }}
        />
      ) : null}
      {step.request ? (
        <details>
          <summary>
            Request: {step.request.method} {step.request.url}
          </summary>
          <pre className="sv-mono">{step.request.params.map((p) => `${p.name}=${p.value}`).join('\n')}</pre>
        </details>
      ) : null}
      {step.httpStatus !== undefined ? (
        <details>
          <summary>
            Answer: HTTP {step.httpStatus}
            {step.status ? ` · status ${step.status}` : ''}
            {step.statusChecks > 0 ? ` · ${step.statusChecks} status checks` : ''}
          </summary>
          <pre className="sv-mono">{step.answerBody}</pre>
        </details>
      ) : null}
      {step.assertions.length > 0 ? (
        <ul aria-label={`Assertions of ${step.name}`} className="sv-assertions">
          {step.assertions.map((a, i) => (
            <li key={i} data-ok={a.ok}>
              {a.ok ? '✓' : '✗'} {a.name}: expected {a.expected}
              {a.ok ? '' : `, got ${a.actual}`}
            </li>
          ))}
        </ul>
      ) : null}
      {Object.entries(step.saved).map(([k, v]) => (
        <div key={k} className="sv-muted">
          Saved {`{{${k}}}`} = {v}
        </div>
      ))}
      {step.error ? <p className="sv-error">{step.error}</p> : null}
    </li>
  );
}

/** The runner: the steps of one collection, run in order (all, or those ticked), on the active profile. */
export function RunnerView({ collection, requests, context, runtime, onClose }: RunnerViewProps) {
  const titleId = useId();
  // The requests as they were when the view opened; an edited assertion replaces its step.
  const [rows, setRows] = useState(requests);
  const [included, setIncluded] = useState(() => new Set(requests.map((_r, i) => i)));
  const [session] = useState(() => {
    if (!context) return null;
    const ports = browserRunPorts(context, runtime);
    const model: RunCollection = {
      name: collection.name,
      variables: collection.variables ?? {},
      steps: requests.map(stepOf),
    };
    return { run: new CollectionRun(model, ports), close: ports.close };
  });
  useEffect(() => () => session?.run.stop(), [session]);
  useEffect(() => () => session?.close(), [session]);
  const run = session?.run;
  const snap = useSyncExternalStore(
    run?.subscribe ?? (() => () => undefined),
    run?.getSnapshot ?? (() => null),
  );

  const selection = [...included].sort((a, b) => a - b);
  const done = snap
    ? selection.filter((i) => !['pending', 'running', 'waiting'].includes(snap.steps[i]!.state)).length
    : 0;
  const current = snap?.steps.find((s) => s.state === 'running' || s.state === 'waiting');
  const summary = !snap
    ? ''
    : snap.running
      ? `Running step ${(current?.index ?? 0) + 1} of ${rows.length}${current ? `: ${current.name}` : ''}…`
      : snap.passed + snap.failed > 0
        ? `${snap.passed} passed, ${snap.failed} failed of ${rows.length} steps.`
        : `${rows.length} steps, none run yet.`;

  return (
    <section className="sv-collection sv-runner" aria-labelledby={titleId}>
      <div className="sv-collection-head">
        <h2 id={titleId}>Run: {collection.name}</h2>
        <button type="button" className="ui-btn ui-btn-small" onClick={onClose} disabled={snap?.running}>
          Close the runner
        </button>
      </div>
      {!run || !snap ? (
        <p role="alert" className="sv-error">
          No profile is active: choose or create one (the environment the steps are signed and sent with).
        </p>
      ) : (
        <>
          <p className="sv-note">
            Signed with the profile “{context?.profileName}”, each step with a fresh nonce and timestamp;
            variables from what the run saved, the profile’s variables, then the collection’s.
          </p>
          <div className="sv-toolbar">
            <button
              type="button"
              className="ui-btn ui-btn-small ui-btn-primary"
              disabled={snap.running || selection.length === 0}
              onClick={() => void run.run(selection.length === rows.length ? undefined : selection)}
            >
              {selection.length === rows.length ? 'Run collection' : `Run ${selection.length} selected`}
            </button>
            <button
              type="button"
              className="ui-btn ui-btn-small"
              disabled={!snap.running}
              onClick={() => run.stop()}
            >
              Stop
            </button>
            <progress
              aria-label="Run progress"
              className="sv-progress"
              max={selection.length || 1}
              value={done}
            />
          </div>
          <p role="status" className="sv-note">
            {summary}
          </p>
          <ol className="sv-steps">
            {snap.steps.map((s) => (
              <StepView
                key={s.index}
                step={s}
                request={rows[s.index]!}
                included={included.has(s.index)}
                busy={snap.running}
                onInclude={(on) =>
                  setIncluded((prev) => {
                    const next = new Set(prev);
                    if (on) next.add(s.index);
                    else next.delete(s.index);
                    return next;
                  })
                }
                onRerun={() => void run.rerun(s.index)}
                onChecks={(r) => {
                  setRows((prev) => prev.map((o, i) => (i === s.index ? r : o)));
                  run.setStep(s.index, stepOf(r));
                }}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
