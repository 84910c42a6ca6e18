import { useState } from 'react';
import {
  CONTROL_KEY_MASK,
  hmacSigningKey,
  type BuiltRequest,
  type ControlTrace,
  type OAuthTrace,
} from '../../../core/index.ts';
import { CopyButton, RevealToggle } from '../../../ui/index.ts';

function ControlInput({ trace, controlKey }: { trace: ControlTrace; controlKey: string | undefined }) {
  const [reveal, setReveal] = useState(false);
  return (
    <>
      <table className="wb-table" aria-label="Control terms">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Term</th>
            <th scope="col">Value</th>
            <th scope="col">Source</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {trace.terms.map((t, i) => (
            <tr key={i} className={t.error ? 'wb-row-bad' : undefined}>
              <td>{i + 1}</td>
              <td>
                <code>{t.label}</code>
              </td>
              <td>
                <code className="wb-value">
                  {t.original !== undefined && !t.error
                    ? `${t.original} → ${t.value}`
                    : t.value === ''
                      ? '""'
                      : t.value}
                </code>
              </td>
              <td>{t.source}</td>
              <td>{t.error ? t.error.message : (t.note ?? '')}</td>
            </tr>
          ))}
          <tr>
            <td>{trace.terms.length + 1}</td>
            <td>
              <code>merchant_control_key</code>
            </td>
            <td>
              <code className="wb-value">{reveal && controlKey ? controlKey : '••••••'}</code>
            </td>
            <td>profile</td>
            <td>secret, always last</td>
          </tr>
        </tbody>
      </table>
      <div className="wb-pane-sub">
        <span>Concatenation (SHA-1 input)</span>
        <RevealToggle revealed={reveal} onChange={setReveal} what="control key" />
      </div>
      <pre className="ui-code wb-concat" role="group" aria-label="Concatenation">
        {trace.joined}
        <mark className="wb-key">{reveal && controlKey ? controlKey : CONTROL_KEY_MASK}</mark>
      </pre>
    </>
  );
}

function OAuthInput({
  trace,
  built,
  controlKey,
}: {
  trace: OAuthTrace;
  built: BuiltRequest;
  controlKey: string | undefined;
}) {
  const [reveal, setReveal] = useState(false);
  const { base } = trace;
  return (
    <>
      <table className="wb-table" aria-label="Signature parameters">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">Encoded</th>
            <th scope="col">Source</th>
            <th scope="col">Signed</th>
          </tr>
        </thead>
        <tbody>
          {trace.sorted.map((p, i) => (
            <tr key={`s${i}`}>
              <td>
                <code>{p.name}</code>
              </td>
              <td>
                <code className="wb-value">{p.value}</code>
              </td>
              <td>
                <code className="wb-value">{p.encodedValue}</code>
              </td>
              <td>{p.source}</td>
              <td>yes</td>
            </tr>
          ))}
          {trace.parameters
            .filter((p) => !p.included)
            .map((p, i) => (
              <tr key={`x${i}`} className="wb-row-muted">
                <td>
                  <code>{p.name}</code>
                </td>
                <td>
                  <code className="wb-value">{p.value}</code>
                </td>
                <td />
                <td>{p.source}</td>
                <td>no: {p.excludedBecause}</td>
              </tr>
            ))}
          <tr className="wb-row-muted">
            <td>
              <code>oauth_signature</code>
            </td>
            <td colSpan={2}>(computed below)</td>
            <td>oauth</td>
            <td>no: the signature is not part of its own input</td>
          </tr>
          {built.omitted.map((o, i) => (
            <tr key={`o${i}`} className="wb-row-muted">
              <td>
                <code>{o.name}</code>
              </td>
              <td>""</td>
              <td />
              <td>form</td>
              <td>no: {o.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="wb-pane-sub">
        <span>Base string, in three parts joined by &amp;</span>
        <CopyButton text={base.baseString} label="Copy base string" />
      </div>
      <ol className="wb-base-parts" aria-label="Base string parts">
        <li>
          <span className="wb-part-label">method</span>
          <code>{base.method}</code>
        </li>
        <li>
          <span className="wb-part-label">encoded URL</span>
          <code className="wb-value">{base.encodedUrl}</code>
        </li>
        <li>
          <span className="wb-part-label">encoded parameters</span>
          <code className="wb-value">{base.encodedParameters}</code>
        </li>
      </ol>
      <pre className="ui-code wb-base" role="group" aria-label="Base string">
        {base.baseString}
      </pre>
      {trace.maskedSigningKey !== undefined ? (
        <div className="wb-pane-sub">
          <span>
            Signing key:{' '}
            <code>{reveal && controlKey ? hmacSigningKey(controlKey) : trace.maskedSigningKey}</code>
          </span>
          <RevealToggle revealed={reveal} onChange={setReveal} what="signing key" />
        </div>
      ) : null}
    </>
  );
}

export function SigningInputView({
  built,
  controlKey,
}: {
  built: BuiltRequest;
  controlKey: string | undefined;
}) {
  const s = built.signing;
  return s.scheme === 'control' ? (
    <ControlInput trace={s} controlKey={controlKey} />
  ) : (
    <OAuthInput trace={s} built={built} controlKey={controlKey} />
  );
}
