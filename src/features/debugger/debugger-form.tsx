import type { FormEvent, KeyboardEvent } from 'react';
import type { SigningContext } from '../../model/signing-context.ts';
import { TextArea } from './debugger-fields.tsx';
import { MoreToTryFieldset, SecretsFieldset } from './debugger-secrets.tsx';
import {
  detectedFormatText,
  fieldError,
  type DebuggerSession,
  type DebuggerSnapshot,
} from './debugger-session.ts';
import { CAPTURE_FORMAT_LABEL, type CaptureFormat, type DebuggerForm } from './run-diagnosis.ts';

const FORMATS = Object.keys(CAPTURE_FORMAT_LABEL) as CaptureFormat[];

/** The boxes: the capture, how to read it, the secrets and what else to try. */
export function DebuggerFormView({
  session,
  snap,
  context,
}: {
  session: DebuggerSession;
  snap: DebuggerSnapshot;
  context: SigningContext | null;
}) {
  const { form, run, busy } = snap;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void session.diagnose(context);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void session.diagnose(context);
    }
  };
  const captureError = fieldError(run, 'capture');

  return (
    <form className="dbg-form" aria-label="Captured request and secrets" onSubmit={submit} noValidate>
      <TextArea
        label="Captured request"
        rows={10}
        value={form.capture}
        onChange={(v) => session.set('capture', v)}
        onKeyDown={onKeyDown}
        placeholder={'POST /paynet/api/v2/sale/1111 HTTP/1.1\nHost: …'}
        {...(captureError ? { error: captureError } : {})}
      />
      <p className="dbg-detected" role="status" aria-label="Detected format">
        {detectedFormatText(form)}
      </p>
      <div className="dbg-field">
        <label htmlFor="dbg-format">Read as</label>
        <select
          id="dbg-format"
          value={form.format}
          onChange={(e) => session.set('format', e.target.value as DebuggerForm['format'])}
        >
          <option value="auto">Detect automatically</option>
          {FORMATS.map((f) => (
            <option key={f} value={f}>
              {CAPTURE_FORMAT_LABEL[f]}
            </option>
          ))}
        </select>
      </div>

      <SecretsFieldset session={session} snap={snap} context={context} />
      <MoreToTryFieldset session={session} snap={snap} />

      <TextArea
        label="The gateway’s expected base string"
        value={form.expectedBaseString}
        onChange={(v) => session.set('expectedBaseString', v)}
        placeholder="POST&https%3A%2F%2F…   or, for control, the concatenation"
        hint="Optional: paste what the gateway (or the local sandbox’s debug answer) says it signed; it is compared with ours."
      />
      <div className="dbg-actions">
        <button type="submit" className="ui-btn ui-btn-primary" disabled={busy}>
          {busy ? 'Checking…' : 'Diagnose'}
        </button>
        <button type="button" className="ui-btn" onClick={() => session.clear()}>
          Clear
        </button>
      </div>
    </form>
  );
}
