import { useEffect, useRef, useState } from 'react';
import { readCaptureFragment } from '../../model/capture-link.ts';
import type { Place, RequestDraft, SigningRuntime } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { DebuggerFormView } from './debugger-form.tsx';
import { DebuggerSession } from './debugger-session.ts';
import { DiagnosisView } from './diagnosis-view.tsx';
import { draftOf } from './run-diagnosis.ts';
import './debugger.css';
import { useStore } from '../../ui/use-store.ts';

export interface DebuggerPageProps {
  /** The active profile, for "Use the active profile's keys"; its secrets are copied only on request. */
  context: SigningContext | null;
  place: Place;
  /** The app's crypto port and clock (the page makes none of its own). */
  runtime: SigningRuntime;
  /** Opens the capture in the workbench: its values, scheme, endpoint and pinned nonce and timestamp. */
  onOpen: (draft: RequestDraft) => void;
}

/** The signature debugger: a captured request in, a verdict with its likely causes out. */
export function DebuggerPage({ context, place, runtime, onOpen }: DebuggerPageProps) {
  // A link may carry a capture (`/debugger#capture=…`, e.g. a classroom exercise's): it fills the field.
  const [linked, setLinked] = useState(() => readCaptureFragment(location.hash));
  const [session] = useState(
    () =>
      new DebuggerSession(
        { crypto: runtime.crypto, clock: runtime.clock },
        linked && 'capture' in linked ? linked.capture : undefined,
      ),
  );
  const snap = useStore(session);
  // A capture link followed while the page is open (one the classroom's trainer pushed) fills it again.
  useEffect(() => {
    const follow = () => {
      const next = readCaptureFragment(location.hash);
      if (!next) return;
      setLinked(next);
      if ('capture' in next) session.set('capture', next.capture);
    };
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, [session]);
  const { run, busy } = snap;
  const results = useRef<HTMLElement>(null);
  // After Diagnose, the verdict (or the error) is where the eye and the keyboard go next.
  useEffect(() => {
    if (run === null) return;
    const target = results.current?.querySelector<HTMLElement>('[data-verdict]');
    if (!target) return;
    target.scrollIntoView?.({ block: 'start' });
    target.focus({ preventScroll: true });
  }, [run]);

  return (
    <section className="dbg" aria-labelledby="dbg-title">
      <header className="dbg-head">
        <h1 id="dbg-title">Signature debugger</h1>
        <p>
          Paste a request as it was captured: raw HTTP, a curl command, a HAR entry, a log line (
          <code>key=value</code> pairs, Monolog, Laravel, Symfony, logback, pino), Python’s debug output or an
          access-log line of a callback. The debugger finds the operation, takes every value, nonce and
          timestamp from the capture, signs it again and names the likely cause of a difference. Everything
          runs in this browser: nothing is sent anywhere and no secret is stored. A whole incident (many log
          lines, callbacks, returns)? Paste it into the <a href="/capsule">incident capsule</a>.
        </p>
        {linked && 'error' in linked ? (
          <p className="dbg-error" role="alert">
            {linked.error}
          </p>
        ) : linked ? (
          <p className="dbg-hint" role="note">
            The captured request below came with the link you opened.
          </p>
        ) : null}
      </header>
      <div className="dbg-grid">
        <DebuggerFormView session={session} snap={snap} context={context} />

        <section className="dbg-results" aria-label="Diagnosis" aria-busy={busy} ref={results}>
          {busy ? (
            <p role="status">Checking the signature…</p>
          ) : run === null ? (
            <p className="dbg-hint">The verdict, the likely causes and the first difference appear here.</p>
          ) : !run.ok ? (
            <p className="dbg-error" role="alert" tabIndex={-1} data-verdict>
              {run.message}
            </p>
          ) : (
            <>
              {run.diagnosis.operationPath !== 'callback' ? (
                <div className="dbg-actions">
                  <button type="button" className="ui-btn" onClick={() => onOpen(draftOf(run, place))}>
                    Open in the workbench
                  </button>
                </div>
              ) : null}
              <DiagnosisView
                parsed={run.parsed}
                d={run.diagnosis}
                now={run.now}
                onReadAs={(format) => {
                  session.set('format', format);
                  void session.diagnose(context);
                }}
              />
            </>
          )}
        </section>
      </div>
    </section>
  );
}
