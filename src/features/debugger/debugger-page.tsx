import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { KeyConsumer } from '../../diagnose/index.ts';
import { readCaptureFragment } from '../../model/capture-link.ts';
import type { Place, RequestDraft, SigningRuntime } from '../../model/index.ts';
import type { SigningContext } from '../../shared/contracts/contracts.ts';
import { RevealToggle } from '../../shared/ui/index.ts';
import { DiagnosisView } from './diagnosis-view.tsx';
import {
  CAPTURE_FORMAT_LABEL,
  detectCaptureFormat,
  EMPTY_FORM,
  draftOf,
  runDiagnosis,
  type CaptureFormat,
  type DebuggerForm,
  type DebuggerRun,
} from './run-diagnosis.ts';
import './debugger.css';

export interface DebuggerPageProps {
  /** The active profile, for "Use the active profile's keys"; its secrets are copied only on request. */
  context: SigningContext | null;
  place: Place;
  /** The app's crypto port and clock (the page makes none of its own). */
  runtime: SigningRuntime;
  /** Opens the capture in the workbench: its values, scheme, endpoint and pinned nonce and timestamp. */
  onOpen: (draft: RequestDraft) => void;
}

const FORMATS = Object.keys(CAPTURE_FORMAT_LABEL) as CaptureFormat[];

/** The hint under a field, or its error in place of the hint; its id is `${id}-hint`, which the field points to. */
function FieldHint({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return hint || error ? (
    <p id={`${id}-hint`} className={error ? 'dbg-error' : 'dbg-hint'}>
      {error ?? hint}
    </p>
  ) : null;
}

function TextArea({
  label,
  value,
  onChange,
  rows = 4,
  hint,
  error,
  placeholder,
  onKeyDown,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  rows?: number;
  hint?: string;
  error?: string;
  placeholder?: string;
  onKeyDown?: (e: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  const id = useId();
  return (
    <div className="dbg-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint || error ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <FieldHint id={id} hint={hint} error={error} />
    </div>
  );
}

function Input({
  label,
  value,
  onChange,
  type = 'text',
  hint,
  error,
  placeholder,
  after,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: 'text' | 'password';
  hint?: string;
  error?: string;
  placeholder?: string;
  after?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="dbg-field">
      <label htmlFor={id}>{label}</label>
      <span className="dbg-inline">
        <input
          id={id}
          type={type}
          value={value}
          spellCheck={false}
          autoComplete="off"
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={hint || error ? `${id}-hint` : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {after}
      </span>
      <FieldHint id={id} hint={hint} error={error} />
    </div>
  );
}

/** The signature debugger: a captured request in, a verdict with its likely causes out. */
export function DebuggerPage({ context, place, runtime, onOpen }: DebuggerPageProps) {
  // A link may carry a capture (`/debugger#capture=…`, e.g. a classroom exercise's): it fills the field.
  const [linked] = useState(() => readCaptureFragment(location.hash));
  const [form, setForm] = useState<DebuggerForm>(() =>
    linked && 'capture' in linked ? { ...EMPTY_FORM, capture: linked.capture } : EMPTY_FORM,
  );
  const [revealKey, setRevealKey] = useState(false);
  const [useProfileKey, setUseProfileKey] = useState(false);
  const [run, setRun] = useState<DebuggerRun | null>(null);
  const [busy, setBusy] = useState(false);
  const runId = useRef(0);
  const results = useRef<HTMLElement>(null);
  // After Diagnose, the verdict (or the error) is where the eye and the keyboard go next.
  useEffect(() => {
    if (run === null) return;
    const target = results.current?.querySelector<HTMLElement>('[data-verdict]');
    if (!target) return;
    target.scrollIntoView?.({ block: 'start' });
    target.focus({ preventScroll: true });
  }, [run]);
  const set = useCallback(
    <K extends keyof DebuggerForm>(k: K, v: DebuggerForm[K]) => setForm((f) => ({ ...f, [k]: v })),
    [],
  );
  const detected = form.capture.trim() === '' ? undefined : detectCaptureFormat(form.capture);

  const diagnoseNow = useCallback(async () => {
    const id = ++runId.current;
    setBusy(true);
    const privateKey = useProfileKey ? context?.credentials.privateKey : undefined;
    const r = await runDiagnosis(form, {
      crypto: runtime.crypto,
      clock: runtime.clock,
      ...(privateKey ? { profilePrivateKey: privateKey } : {}),
    });
    if (id !== runId.current) return;
    setRun(r);
    setBusy(false);
  }, [form, useProfileKey, context, runtime]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void diagnoseNow();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void diagnoseNow();
    }
  };

  const useProfile = () => {
    if (!context) return;
    const c = context.credentials;
    setForm((f) => ({
      ...f,
      login: c.login,
      controlKey: c.controlKey ?? '',
      ...(context.endpoint.kind === 'group'
        ? { endpointGroupId: context.endpoint.id }
        : { endpointId: context.endpoint.id }),
    }));
    setUseProfileKey(c.privateKey !== undefined);
  };

  const clear = () => {
    runId.current++;
    setForm(EMPTY_FORM);
    setUseProfileKey(false);
    setRevealKey(false);
    setRun(null);
    setBusy(false);
  };

  const err = (field: string) => (run && !run.ok && run.field === field ? run.message : undefined);

  return (
    <section className="dbg" aria-labelledby="dbg-title">
      <header className="dbg-head">
        <h1 id="dbg-title">Signature debugger</h1>
        <p>
          Paste a request as it was captured: raw HTTP, a curl command, a log line of <code>key=value</code>{' '}
          pairs or a HAR entry. The debugger finds the operation, takes every value, nonce and timestamp from
          the capture, signs it again and names the likely cause of a difference. Everything runs in this
          browser: nothing is sent anywhere and no secret is stored.
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
        <form className="dbg-form" aria-label="Captured request and secrets" onSubmit={submit} noValidate>
          <TextArea
            label="Captured request"
            rows={10}
            value={form.capture}
            onChange={(v) => set('capture', v)}
            onKeyDown={onKeyDown}
            placeholder={'POST /paynet/api/v2/sale/1111 HTTP/1.1\nHost: …'}
            {...(err('capture') ? { error: err('capture') } : {})}
          />
          <p className="dbg-detected" role="status" aria-label="Detected format">
            {form.format !== 'auto'
              ? `Read as a ${CAPTURE_FORMAT_LABEL[form.format]} (chosen)`
              : detected
                ? `Detected: ${CAPTURE_FORMAT_LABEL[detected]}`
                : form.capture.trim() === ''
                  ? 'Nothing pasted yet'
                  : 'Not recognised: paste raw HTTP, a curl command, a HAR entry or a key=value log line'}
          </p>
          <div className="dbg-field">
            <label htmlFor="dbg-format">Read as</label>
            <select
              id="dbg-format"
              value={form.format}
              onChange={(e) => set('format', e.target.value as DebuggerForm['format'])}
            >
              <option value="auto">Detect automatically</option>
              {FORMATS.map((f) => (
                <option key={f} value={f}>
                  {CAPTURE_FORMAT_LABEL[f]}
                </option>
              ))}
            </select>
          </div>

          <fieldset className="dbg-fieldset">
            <legend>Secrets (optional; kept in this page’s memory only)</legend>
            <p className="dbg-hint">
              Without them the checks that need no secret still run. The control key checks{' '}
              <code>control</code> and HMAC-SHA1; the public key checks RSA-SHA256.
            </p>
            <button type="button" className="ui-btn" disabled={!context} onClick={useProfile}>
              Use the active profile’s keys
            </button>
            {!context ? <p className="dbg-hint">No active profile: fill in the profile bar first.</p> : null}
            {useProfileKey ? (
              <p className="dbg-hint" role="note">
                The active profile’s private key is used to check RSA-SHA256 (held in memory, never shown).{' '}
                <button type="button" className="ui-btn ui-btn-small" onClick={() => setUseProfileKey(false)}>
                  Stop using the profile’s private key
                </button>
              </p>
            ) : null}
            <Input
              label="Merchant login"
              value={form.login}
              onChange={(v) => set('login', v)}
              hint="Default: the body’s login or the oauth_consumer_key."
            />
            <Input
              label="Merchant control key"
              type={revealKey ? 'text' : 'password'}
              value={form.controlKey}
              onChange={(v) => set('controlKey', v)}
              after={<RevealToggle revealed={revealKey} onChange={setRevealKey} what="the control key" />}
            />
            <TextArea
              label="Public key (PEM)"
              value={form.publicKeyPem}
              onChange={(v) => set('publicKeyPem', v)}
              placeholder="-----BEGIN PUBLIC KEY-----"
              {...(err('publicKeyPem') ? { error: err('publicKeyPem') } : {})}
            />
            <TextArea
              label="Private key (PEM)"
              value={form.privateKeyPem}
              onChange={(v) => set('privateKeyPem', v)}
              placeholder="-----BEGIN PRIVATE KEY-----"
              hint="Optional: inspected for PKCS#1 / PKCS#8 / public-key confusion and matched with the public key. Never shown."
            />
            <div className="dbg-field">
              <label htmlFor="dbg-consumer">The private key is meant for</label>
              <select
                id="dbg-consumer"
                value={form.keyConsumer}
                onChange={(e) => set('keyConsumer', e.target.value as KeyConsumer | '')}
              >
                <option value="">Not known</option>
                <option value="pkcs8">A tool that takes PKCS#8 (signing libraries, Web Crypto, Java)</option>
                <option value="pkcs1">A tool that takes PKCS#1 (the gateway’s in-page builders)</option>
              </select>
            </div>
          </fieldset>

          <fieldset className="dbg-fieldset">
            <legend>More to try (optional)</legend>
            <div className="dbg-pair">
              <Input label="Endpoint id" value={form.endpointId} onChange={(v) => set('endpointId', v)} />
              <Input
                label="Endpoint group id"
                value={form.endpointGroupId}
                onChange={(v) => set('endpointGroupId', v)}
              />
            </div>
            <p className="dbg-hint">
              The merchant’s ids: the debugger tries signing with the one the path does not carry.
            </p>
            {form.alternatives.map((a, i) => (
              <div className="dbg-pair" key={i} role="group" aria-label={`Other key ${i + 1}`}>
                <Input
                  label={`Other key ${i + 1}: label`}
                  value={a.label}
                  placeholder="production"
                  onChange={(v) =>
                    set(
                      'alternatives',
                      form.alternatives.map((x, j) => (j === i ? { ...x, label: v } : x)),
                    )
                  }
                />
                <Input
                  label={`Other key ${i + 1}: control key`}
                  type="password"
                  value={a.controlKey}
                  onChange={(v) =>
                    set(
                      'alternatives',
                      form.alternatives.map((x, j) => (j === i ? { ...x, controlKey: v } : x)),
                    )
                  }
                  after={
                    <button
                      type="button"
                      className="ui-btn ui-btn-small"
                      aria-label={`Remove other key ${i + 1}`}
                      onClick={() =>
                        set(
                          'alternatives',
                          form.alternatives.filter((_, j) => j !== i),
                        )
                      }
                    >
                      Remove
                    </button>
                  }
                />
              </div>
            ))}
            <button
              type="button"
              className="ui-btn ui-btn-small"
              onClick={() => set('alternatives', [...form.alternatives, { label: '', controlKey: '' }])}
            >
              Add another key to try
            </button>
            <Input
              label="Now (for the timestamp check)"
              value={form.now}
              onChange={(v) => set('now', v)}
              placeholder="the current time"
              hint="Empty: the current time. Or a date and time (2026-01-04T12:00:00Z), or epoch seconds or milliseconds."
              {...(err('now') ? { error: err('now') } : {})}
            />
          </fieldset>

          <TextArea
            label="The gateway’s expected base string"
            value={form.expectedBaseString}
            onChange={(v) => set('expectedBaseString', v)}
            placeholder="POST&https%3A%2F%2F…   or, for control, the concatenation"
            hint="Optional: paste what the gateway (or the local sandbox’s debug answer) says it signed; it is compared with ours."
          />
          <div className="dbg-actions">
            <button type="submit" className="ui-btn ui-btn-primary" disabled={busy}>
              {busy ? 'Checking…' : 'Diagnose'}
            </button>
            <button type="button" className="ui-btn" onClick={clear}>
              Clear
            </button>
          </div>
        </form>

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
              <div className="dbg-actions">
                <button type="button" className="ui-btn" onClick={() => onOpen(draftOf(run, place))}>
                  Open in the workbench
                </button>
              </div>
              <DiagnosisView parsed={run.parsed} d={run.diagnosis} now={run.now} />
            </>
          )}
        </section>
      </div>
    </section>
  );
}
