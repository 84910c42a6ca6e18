import { lazy, Suspense, type RefObject } from 'react';
import type { Control } from 'react-hook-form';
import type { RequestDraft } from '../../../model/index.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import type { FieldValues } from '../form/meta.ts';
import type { WorkbenchSession } from './workbench-session.ts';
import { useSlice } from './use-slice.ts';

// The failed Send's summary loads with the first failed Send.
const InvalidSummary = lazy(() =>
  import('../form/invalid-summary.tsx').then((m) => ({ default: m.InvalidSummary })),
);
// A failed send's message (a refusal, a cancel, a timeout) loads with the first one.
const SendFailed = lazy(() => import('../send/send-failed.tsx').then((m) => ({ default: m.SendFailed })));

/** The answer's announcement, Send and Cancel, the timeout box and what stands in the way of a send. */
export function SendBar({
  context,
  session,
  timeoutInput,
  control,
  onNavigate,
}: {
  context: SigningContext | null;
  session: WorkbenchSession;
  timeoutInput: RefObject<HTMLInputElement | null>;
  control: Control<FieldValues>;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  // Not the live build: typing does not render the bar.
  const timeout = useSlice(session, (s) => s.timeout);
  const timeoutText = useSlice(session, (s) => s.timeoutText);
  const invalid = useSlice(session, (s) => s.invalid);
  const sending = useSlice(session, (s) => s.send);
  const outcome = sending.outcome;
  return (
    <>
      <p className="ui-visually-hidden" aria-live="polite" aria-atomic="true">
        {outcome
          ? `Answer: HTTP ${outcome.envelope.status} ${outcome.envelope.statusText}, ${outcome.interpreted.badge.label}, at ${new Date(outcome.sentAt).toLocaleTimeString()}.`
          : ''}
      </p>
      <div className="wb-send-bar">
        <button
          type="submit"
          className="ui-btn ui-btn-primary"
          disabled={sending.pending || !context}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          {sending.pending ? 'Sending…' : 'Send'}
        </button>
        {sending.pending ? (
          <button type="button" className="ui-btn" onClick={() => session.cancel()}>
            Cancel
          </button>
        ) : null}
        <span className="wb-timeout">
          <label htmlFor="wb-timeout">Timeout (s)</label>
          <input
            id="wb-timeout"
            ref={timeoutInput}
            inputMode="numeric"
            autoComplete="off"
            size={4}
            value={timeoutText}
            aria-invalid={timeout.ok ? undefined : true}
            aria-describedby={timeout.ok ? undefined : 'wb-timeout-err'}
            onChange={(e) => session.setTimeoutText(e.target.value)}
          />
        </span>
        <span className="wb-hint">
          Ctrl/⌘+Enter · to <strong>{context?.target.name ?? 'no target'}</strong>
          {context?.target.kind === 'production' ? ' (production)' : ''}
        </span>
        {invalid ? (
          <Suspense fallback={null}>
            <InvalidSummary
              names={invalid}
              draft={() => session.draft()}
              control={control}
              onSendAnyway={() => void session.requestSend(true)}
            />
          </Suspense>
        ) : null}
        {timeout.ok ? null : (
          <p className="wb-field-error wb-invalid" id="wb-timeout-err">
            {timeout.message}
          </p>
        )}
        {sending.error ? (
          <Suspense fallback={<p className="wb-error">{sending.error.message}</p>}>
            <SendFailed
              error={sending.error}
              unknown={sending.unknown !== null}
              control={control}
              onNavigate={onNavigate}
            />
          </Suspense>
        ) : null}
      </div>
    </>
  );
}
