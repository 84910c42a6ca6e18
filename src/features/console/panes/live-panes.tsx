import { SCHEME_TITLES } from '../../../catalog/index.ts';
import { lazy, memo, Suspense, useDeferredValue, useMemo } from 'react';
import { renderCurl, renderRawHttp, type BuiltRequest } from '../../../core/index.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { CodeView, CopyButton } from '../../../ui/index.ts';
import type { LiveRequest } from './build.ts';
import { SigningInputView } from './signing-input-view.tsx';

// Loads with the first form that holds a `{{…}}`: only such a form has anything to list.
const VariableUses = lazy(() =>
  import('../variables/variables-panel.tsx').then((m) => ({ default: m.VariableUses })),
);

// The panes below the signature line render after it (useDeferredValue in LivePanes), memoised
// so the signature's own render skips them.
const Problems = memo(function Problems({ built }: { built: BuiltRequest }) {
  // The profile bar says what is wrong with its endpoint id, beside the field: not again here.
  const shown = built.problems.filter((p) => !p.code.startsWith('ENDPOINT_'));
  if (shown.length === 0) return null;
  return (
    <ul className="wb-problems" aria-label="Problems">
      {shown.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
});

const RequestPanes = memo(function RequestPanes({ built }: { built: BuiltRequest }) {
  const raw = useMemo(() => renderRawHttp(built), [built]);
  const curl = useMemo(() => renderCurl(built), [built]);
  return (
    <section className="wb-pane" aria-labelledby="pane-raw">
      <div className="wb-pane-head">
        <h2 id="pane-raw">Raw HTTP request</h2>
        <CopyButton text={raw} label="Copy raw HTTP request" />
      </div>
      <CodeView value={raw} language="http" label="Raw HTTP request" editor="on-demand" />
      <div className="wb-pane-head">
        <h2>curl</h2>
        <CopyButton text={curl} label="Copy curl command" />
      </div>
      <pre className="ui-code" role="group" aria-label="curl command">
        {curl}
      </pre>
    </section>
  );
});

const MemoSigningInputView = memo(SigningInputView);

/**
 * The live request of the workbench's session: the signature line, the signing input, the raw HTTP
 * and curl of the one build the session made for the form's last change.
 */
export function LivePanes({ live, context }: { live: LiveRequest; context: SigningContext | null }) {
  const result = context ? live.result : null;
  // The signature line renders with the result; the heavier panes in a render of their own after it.
  const deferred = useDeferredValue(result);
  const { uses, unresolved } = live.variables;

  if (!context) {
    return (
      <section className="wb-pane" aria-label="Live request">
        <p className="wb-empty">
          Waiting for a profile: fill in the profile bar (login, control key, endpoint id) to see the
          signature.
        </p>
      </section>
    );
  }
  if (!result) {
    return (
      <section className="wb-pane" aria-label="Live request">
        <p className="wb-empty">Building the request…</p>
      </section>
    );
  }
  if (!result.ok) {
    return (
      <section className="wb-pane" aria-label="Live request">
        <p className="wb-error" role="alert">
          {result.message}
        </p>
      </section>
    );
  }
  const b = result.built;
  const later = deferred?.ok ? deferred.built : b;
  const s = b.signing;
  const auth = b.headers.find((h) => h.name === 'Authorization')?.value;
  return (
    <div className="wb-panes">
      <section className="wb-pane" aria-labelledby="pane-input">
        <h2 id="pane-input">
          Signing input <span className="wb-scheme">{SCHEME_TITLES[s.scheme]}</span>
        </h2>
        <Problems built={later} />
        {uses.length + unresolved.length > 0 ? (
          <Suspense fallback={null}>
            <VariableUses applied={live.variables} />
          </Suspense>
        ) : null}
        <MemoSigningInputView built={later} controlKey={context.credentials.controlKey} />
      </section>
      <section className="wb-pane" aria-labelledby="pane-sig">
        <h2 id="pane-sig">
          {s.scheme === 'control' ? 'The control parameter' : 'Signature and Authorization header'}
        </h2>
        <div className="wb-sig-row">
          <code className="wb-signature" role="group" aria-label="Signature">
            {s.signature ?? '(not signed)'}
          </code>
          <CopyButton text={s.signature ?? ''} label="Copy signature" disabled={!s.signature} />
        </div>
        {s.scheme === 'control' ? (
          <p className="wb-hint">
            Sent as the body parameter <code>control</code>.
          </p>
        ) : (
          <>
            <p className="wb-hint">
              oauth_nonce{' '}
              <code role="group" aria-label="oauth_nonce value">
                {s.nonce}
              </code>{' '}
              · oauth_timestamp{' '}
              <code role="group" aria-label="oauth_timestamp value">
                {s.timestamp}
              </code>
              {live.pinned
                ? ' (pinned)'
                : ' (Send draws a fresh nonce and timestamp and shows here the request that went)'}
            </p>
            <div className="wb-pane-sub">
              <span>Authorization header</span>
              <CopyButton text={auth ?? ''} label="Copy Authorization header" disabled={!auth} />
            </div>
            <pre className="ui-code wb-auth" role="group" aria-label="Authorization header">
              {auth ?? '(not signed)'}
            </pre>
          </>
        )}
      </section>
      <RequestPanes built={later} />
    </div>
  );
}
