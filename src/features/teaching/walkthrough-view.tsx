import { SCHEME_TITLES } from '../../catalog/index.ts';
import { useRef } from 'react';
import type { Scheme } from '../../core/index.ts';
import { InlineCode } from '../../ui/index.ts';
import type { StepValue, Walkthrough } from '../../diagnose/index.ts';

/** One operation per scheme to walk through, for "walk through another scheme". */
export const WALK_EXAMPLES: ReadonlyArray<{ scheme: Scheme; path: string }> = [
  { scheme: 'control', path: 'v2/sale' },
  { scheme: 'oauth-hmac-sha1', path: 'v2/payout' },
  { scheme: 'oauth-rsa-sha256', path: 'v4/payout-check' },
];

function Value({ v, step }: { v: StepValue; step: number }) {
  const label = `${v.label} (step ${step})`;
  if ('text' in v) {
    return (
      <div className="teach-value">
        <span className="teach-value-label">{v.label}</span>
        <pre className="ui-code" role="group" aria-label={label}>
          {v.text}
        </pre>
      </div>
    );
  }
  return (
    <div className="teach-value">
      <span className="teach-value-label">{v.label}</span>
      <div className="teach-table-wrap">
        <table className="teach-table" aria-label={label}>
          <thead>
            <tr>
              {v.table.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {v.table.rows.map((r, i) => (
              <tr key={i}>
                {r.map((cell, j) => (
                  <td key={j}>
                    <code>{cell}</code>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function WalkthroughView({
  walk,
  scheme,
  onWalk,
  currentPath,
  step: current,
  onStep,
}: {
  walk: Walkthrough | null;
  scheme: Scheme;
  onWalk: (path: string) => void;
  currentPath: string;
  /** The current step, kept by the teaching session (within the walkthrough's steps). */
  step: number;
  onStep: (step: number) => void;
}) {
  const items = useRef<Array<HTMLElement | null>>([]);
  const count = walk?.steps.length ?? 0;
  const go = (i: number) => {
    onStep(i);
    const el = items.current[i];
    el?.scrollIntoView({ block: 'nearest' });
    el?.focus();
  };
  return (
    <section className="teach-block" aria-labelledby="teach-walk">
      <h2 id="teach-walk">Step by step: {SCHEME_TITLES[scheme]}</h2>
      <p className="teach-hint">
        Each step shows its input and its output with your values, names the rule of the description it
        applies, and is computed by the signing core’s own function, the one that signs the real request.
      </p>
      <div className="teach-walk-others" role="group" aria-label="Walk through a scheme">
        {WALK_EXAMPLES.map((e) => (
          <button
            key={e.scheme}
            type="button"
            className="ui-btn ui-btn-small"
            aria-pressed={e.scheme === scheme}
            disabled={e.path === currentPath && e.scheme === scheme}
            onClick={() => onWalk(e.path)}
          >
            {SCHEME_TITLES[e.scheme]} ({e.path})
          </button>
        ))}
      </div>
      {walk === null ? (
        <p className="teach-hint">The steps appear once the profile can sign.</p>
      ) : (
        <>
          {walk.missing ? (
            <p className="teach-warn" role="note">
              {walk.missing}
            </p>
          ) : null}
          <nav className="teach-step-nav" aria-label="Steps navigation">
            <button
              type="button"
              className="ui-btn ui-btn-small"
              disabled={current === 0}
              onClick={() => go(current - 1)}
            >
              Previous step
            </button>
            <span aria-live="polite">
              Step {Math.min(current + 1, count)} of {count}
            </span>
            <button
              type="button"
              className="ui-btn ui-btn-small"
              disabled={current >= count - 1}
              onClick={() => go(current + 1)}
            >
              Next step
            </button>
          </nav>
          <ol className="teach-steps" aria-label="Steps">
            {walk.steps.map((s, i) => (
              <li
                key={s.call}
                aria-current={i === current ? 'step' : undefined}
                className={i === current ? 'teach-step teach-step-current' : 'teach-step'}
              >
                <article
                  aria-labelledby={`teach-step-${i}`}
                  tabIndex={-1}
                  ref={(el) => {
                    items.current[i] = el;
                  }}
                  onFocus={() => onStep(i)}
                >
                  <h3 id={`teach-step-${i}`}>
                    Step {i + 1}: {s.title}
                  </h3>
                  {s.rules.map((r, k) => (
                    <p className="teach-rule" key={k}>
                      <cite>
                        {r.document === 'api-description.md' ? null : `${r.document} › `}
                        <InlineCode text={r.section} />
                      </cite>
                      : <InlineCode text={r.quote} />
                    </p>
                  ))}
                  <p className="teach-call">
                    Computed by <code>{s.call}()</code>
                  </p>
                  <div
                    className={
                      [...s.input, ...s.output].some((v) => 'table' in v && v.table.columns.length > 4)
                        ? 'teach-io teach-io-stacked'
                        : 'teach-io'
                    }
                  >
                    <div>
                      <h4>Input</h4>
                      {s.input.map((v, k) => (
                        <Value key={k} v={v} step={i + 1} />
                      ))}
                    </div>
                    <div>
                      <h4>Output</h4>
                      {s.output.map((v, k) => (
                        <Value key={k} v={v} step={i + 1} />
                      ))}
                    </div>
                  </div>
                </article>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
