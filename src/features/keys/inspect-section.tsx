import { useId, type ChangeEvent } from 'react';
import { readKeyFile } from '../../browser/read-key-file.ts';
import { InlineCode } from '../../ui/inline-code.tsx';
import { CONVERSIONS, conversionsFor, usableFor } from './key-conversions.ts';
import type { KeysSession, KeysSnapshot } from './keys-session.ts';
import { PemOutput } from './pem-output.tsx';

export function InspectSection({ s, session }: { s: KeysSnapshot; session: KeysSession }) {
  const headingId = useId();
  const inputId = useId();
  const fileId = useId();
  const { inspection, converted } = s;

  async function readFile(e: ChangeEvent<HTMLInputElement>) {
    const read = await readKeyFile(e);
    if (read) session.openedFile(read);
  }

  const conversion = converted && CONVERSIONS.find((c) => c.id === converted.id);
  return (
    <section className="ky-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Inspect and convert a key</h2>
      <label htmlFor={inputId}>Key to inspect</label>
      <textarea
        id={inputId}
        rows={6}
        spellCheck={false}
        className="ky-mono"
        placeholder="Paste a PEM key or certificate: BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY, BEGIN PUBLIC KEY, BEGIN RSA PUBLIC KEY, BEGIN CERTIFICATE"
        value={s.keyText}
        onChange={(e) => session.setKeyText(e.target.value)}
      />
      <div className="ky-inline">
        <label htmlFor={fileId} className="ky-button">
          Open a key file to inspect
        </label>
        <input
          id={fileId}
          type="file"
          className="ui-visually-hidden"
          accept=".pem,.key,.pub,.crt,.cer,.txt,text/plain"
          onChange={(e) => void readFile(e)}
        />
      </div>
      {inspection && (
        <dl className="ky-facts" aria-label="Key inspection">
          <dt>Kind</dt>
          <dd>{inspection.label}</dd>
          {inspection.bits !== undefined && (
            <>
              <dt>Size</dt>
              <dd>{inspection.bits} bits</dd>
            </>
          )}
          {inspection.fingerprint && (
            <>
              <dt>Fingerprint</dt>
              <dd className="ky-mono">{inspection.fingerprint}</dd>
            </>
          )}
          <dt>Problems</dt>
          <dd className={inspection.problem ? 'ky-error' : undefined}>
            <InlineCode text={inspection.problem ? inspection.problem.message : usableFor(inspection)} />
          </dd>
          {inspection.warnings.length > 0 && (
            <>
              <dt>Warnings</dt>
              <dd>{inspection.warnings.join(' ')}</dd>
            </>
          )}
        </dl>
      )}
      {inspection &&
        inspection.kind !== 'garbage' &&
        inspection.kind !== 'unsupported' &&
        inspection.kind !== 'encrypted-private' && (
          <div className="ky-inline" role="group" aria-label="Convert">
            {conversionsFor(inspection).map((c) => (
              <button
                key={c.id}
                type="button"
                className="ky-button"
                onClick={() => void session.convert(c.id)}
              >
                {c.button}
              </button>
            ))}
          </div>
        )}
      {s.inspectError && (
        <p role="alert" className="ky-error">
          <InlineCode text={s.inspectError} />
        </p>
      )}
      {converted && conversion && (
        <PemOutput
          label={`Converted ${conversion.label}`}
          short="converted key"
          pem={converted.pem}
          filename={conversion.filename}
        />
      )}
    </section>
  );
}
