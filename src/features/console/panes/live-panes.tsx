import { SCHEME_TITLES } from '../../../catalog/index.ts';
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type RefObject,
} from 'react';
import { useWatch, type Control } from 'react-hook-form';
import { renderCurl, renderRawHttp, type BuiltRequest } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import { draftKey, type Place, type RequestDraft, type SigningRuntime } from '../../../model/index.ts';
import { signingEnvFor, type SigningContext } from '../../../model/signing-context.ts';
import { CodeView, CopyButton } from '../../../ui/index.ts';
import { useStore } from '../../../ui/use-store.ts';
import { Cell } from '../../../core/store.ts';
import { tryBuild, type BuildResult } from './build.ts';
import type { FieldValues, MetaValues } from '../form/meta.ts';
import { SigningInputView } from './signing-input-view.tsx';
import { variablesStore } from '../../../browser/variables-store.ts';
import { resolveWorkbenchVariables } from '../variables/workbench-variables.ts';

// Loads after the first signature: only a form holding `{{…}}` has anything to list.
const LiveVariableUses = lazy(() =>
  import('../variables/variables-panel.tsx').then((m) => ({ default: m.LiveVariableUses })),
);

export interface PreviewRef {
  current: { nonce: string; timestamp: string } | null;
}

/** The request the panes show, which is the request Send sends. */
export interface ShownRequest {
  key: string;
  context: SigningContext;
  built: BuiltRequest;
}

export interface PanesHandle {
  shown: () => ShownRequest | null;
  /** Puts a request built for sending into the panes (it replaces the preview). */
  show: (key: string, context: SigningContext, built: BuiltRequest) => void;
}

/**
 * A state whose updates render at once: React renders a store's change synchronously, where a
 * `setState` from outside an event (an RSA signature from the worker) would be scheduled as a
 * task, and Chromium runs such tasks only after the next frame following a keystroke.
 */
function useImmediateState<T>(initial: T): [T, (value: T) => void] {
  const [cell] = useState(() => new Cell(initial));
  return [useStore(cell), cell.set];
}

/**
 * The live build: started from the form's own change callback, inside the input event, so the
 * signature is under way before React renders anything for the key (no render of the panes with
 * the new values and the old signature first).
 */
function useLiveBuild(
  draftOf: () => RequestDraft,
  watchFields: (onChange: () => void) => () => void,
  context: SigningContext | null,
  place: Place,
  runtime: SigningRuntime,
  draftNonce: string,
  panesRef: RefObject<PanesHandle | null>,
): BuildResult | null {
  const [result, setResult] = useImmediateState<BuildResult | null>(null);
  const seq = useRef(0);
  const shownRef = useRef<ShownRequest | null>(null);
  // What the last build was for: a change that leaves the request's key alone builds nothing.
  const last = useRef<readonly unknown[]>([]);
  useEffect(() => {
    panesRef.current = {
      shown: () => shownRef.current,
      show: (k, ctx, built) => {
        seq.current += 1;
        shownRef.current = { key: k, context: ctx, built };
        setResult({ ok: true, built });
      },
    };
    return () => {
      panesRef.current = null;
    };
  }, [panesRef, setResult]);
  const build = useCallback(() => {
    if (!context) return;
    const draft = draftOf();
    const key = draftKey(draft);
    const deps = [key, context, place, runtime, draftNonce];
    if (deps.every((d, i) => d === last.current[i])) return;
    last.current = deps;
    const mine = ++seq.current;
    shownRef.current = null;
    void tryBuild(draft, signingEnvFor(context, place, runtime), {
      nonce: draftNonce,
      keepInvalidEndpoint: true,
    }).then((r) => {
      if (mine !== seq.current) return;
      shownRef.current = r.ok ? { key, context, built: r.built } : null;
      setResult(r);
    });
  }, [draftOf, context, place, runtime, draftNonce, setResult]);
  useEffect(() => {
    build();
    return watchFields(build);
  }, [build, watchFields]);
  return context ? result : null;
}

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

export function LivePanes({
  watchFields,
  getFields,
  metaControl,
  context,
  place,
  runtime,
  toDraft,
  draftNonce,
  previewRef,
  panesRef,
}: {
  op: Operation;
  /** Calls back on every change of the form's values (inside the input event); returns its stop. */
  watchFields: (onChange: () => void) => () => void;
  getFields: () => FieldValues;
  metaControl: Control<MetaValues>;
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
  toDraft: (values: FieldValues, meta: Partial<MetaValues>) => RequestDraft;
  draftNonce: string;
  previewRef: PreviewRef;
  panesRef: RefObject<PanesHandle | null>;
}) {
  const meta = useWatch({ control: metaControl }) as MetaValues;
  // `{{name}}` resolved from the profile's variables before signing (issue 33).
  const stored = useStore(variablesStore);
  const appliedOf = useCallback(
    () => resolveWorkbenchVariables(toDraft(getFields(), meta), context, stored),
    [toDraft, getFields, meta, context, stored],
  );
  const draftOf = useCallback(() => appliedOf().draft, [appliedOf]);
  const result = useLiveBuild(draftOf, watchFields, context, place, runtime, draftNonce, panesRef);
  // The signature line renders with the result; the heavier panes in a render of their own after it.
  const deferred = useDeferredValue(result);
  const built = result?.ok ? result.built : null;
  useEffect(() => {
    previewRef.current =
      built && built.signing.scheme !== 'control'
        ? { nonce: built.signing.nonce, timestamp: built.signing.timestamp }
        : null;
  }, [built, previewRef]);

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
        <Suspense fallback={null}>
          <LiveVariableUses watchFields={watchFields} compute={appliedOf} />
        </Suspense>
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
              {meta.pin
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
