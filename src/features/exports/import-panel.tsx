import { useId, useState } from 'react';
import { importCapture, type ImportedCapture } from '../../exports/index.ts';
import type { Place, RequestDraft } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { errorText } from '../../core/errors.ts';

const EXAMPLE = `curl -X POST 'https://sandbox.example.com/paynet/api/v2/status/1111' \\
  -H 'Accept: application/vnd.pay+json' \\
  --data-raw 'login=demo-merchant&client_orderid=inv-1&orderid=6768788&control=…'`;

function differences(imported: ImportedCapture, context: SigningContext | null): string[] {
  if (!context) return [];
  const out: string[] = [];
  if (imported.baseUrl.replace(/\/+$/, '') !== context.target.baseUrl.replace(/\/+$/, '')) {
    out.push(
      `The capture went to ${imported.baseUrl}; the form signs for the active target ${context.target.name} (${context.target.baseUrl}).`,
    );
  }
  const e = imported.draft.endpoint;
  if (e && (e.kind !== context.endpoint.kind || e.id !== context.endpoint.id)) {
    out.push(
      `The capture names ${e.kind === 'group' ? 'endpoint group' : 'endpoint'} ${e.id} and the form signs for it; the profile uses ${context.endpoint.kind === 'group' ? 'endpoint group' : 'endpoint'} ${context.endpoint.id}.`,
    );
  }
  return out;
}

export function ImportPanel({
  context,
  place,
  current,
  onOpen,
}: {
  context: SigningContext | null;
  place: Place;
  /** The form the capture is opened over (its edited formula is kept for the same operation). */
  current?: RequestDraft | null;
  onOpen: (draft: RequestDraft) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const submit = () => {
    setError(null);
    setNotes([]);
    if (text.trim() === '') {
      setError('Paste a curl command or a raw HTTP request first.');
      return;
    }
    let imported: ImportedCapture;
    try {
      imported = importCapture(text, { place, ...(current ? { base: current } : {}) });
    } catch (e) {
      setError(errorText(e));
      return;
    }
    setNotes([...imported.notes, ...differences(imported, context)]);
    onOpen(imported.draft);
  };
  return (
    <form
      className="ex-import"
      aria-label="Import a request"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={`${id}-capture`} className="ex-label">
        Captured request (curl command or raw HTTP)
      </label>
      <textarea
        id={`${id}-capture`}
        className="ex-textarea"
        rows={7}
        spellCheck={false}
        placeholder={EXAMPLE}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="ex-note">
        The operation and every value are taken from the capture; <code>control</code> and the OAuth signature
        are computed again with the active profile's keys, with an OAuth capture's nonce and timestamp pinned
        so that its signature is reproduced. Nothing is sent.
      </p>
      <button type="submit" className="ui-btn ui-btn-primary">
        Import into the form
      </button>
      {error ? (
        <p className="ex-error" role="alert">
          {error}
        </p>
      ) : null}
      {notes.length > 0 ? (
        <ul className="ex-notes" aria-label="Import notes">
          {notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
