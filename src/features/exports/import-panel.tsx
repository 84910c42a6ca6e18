import { useId, useState } from 'react';
import { importCapture, type ImportedPreset } from '../../exports/index.ts';
import type { FormPreset, SigningContext } from '../../shared/contracts/contracts.ts';
import { errorText } from './download.ts';

const EXAMPLE = `curl -X POST 'https://sandbox.example.com/paynet/api/v2/status/1111' \\
  -H 'Accept: application/vnd.pay+json' \\
  --data-raw 'login=demo-merchant&client_orderid=inv-1&orderid=6768788&control=…'`;

function differences(imported: ImportedPreset, context: SigningContext | null): string[] {
  if (!context) return [];
  const out: string[] = [];
  if (imported.baseUrl.replace(/\/+$/, '') !== context.target.baseUrl.replace(/\/+$/, '')) {
    out.push(
      `The capture went to ${imported.baseUrl}; the form signs for the active target ${context.target.name} (${context.target.baseUrl}).`,
    );
  }
  const e = imported.endpoint;
  if (e.kind !== context.endpoint.kind || e.id !== context.endpoint.id) {
    out.push(
      `The capture names ${e.kind === 'group' ? 'endpoint group' : 'endpoint'} ${e.id}; the profile uses ${context.endpoint.kind === 'group' ? 'endpoint group' : 'endpoint'} ${context.endpoint.id}.`,
    );
  }
  return out;
}

export function ImportPanel({
  context,
  onOpen,
}: {
  context: SigningContext | null;
  onOpen: (preset: FormPreset) => void;
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
    let imported: ImportedPreset;
    try {
      imported = importCapture(text);
    } catch (e) {
      setError(errorText(e));
      return;
    }
    setNotes([...imported.notes, ...differences(imported, context)]);
    onOpen({
      operationPath: imported.operationPath,
      values: imported.values,
      ...(imported.extras ? { extras: imported.extras } : {}),
      endpoint: imported.endpoint,
    });
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
        The operation and every value are taken from the capture; <code>control</code> and the OAuth
        parameters are computed again with the active profile's keys. Nothing is sent.
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
