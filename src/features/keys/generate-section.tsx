import { useId } from 'react';
import { GENERATABLE_BITS } from '../../core/keys/key-containers.ts';
import { InlineCode } from '../../ui/inline-code.tsx';
import type { KeysSession, KeysSnapshot, ProfileKeys } from './keys-session.ts';
import { downloadText, PemOutput } from './pem-output.tsx';
import { answerMessage, registeredFingerprint } from './register-key.ts';
import { SaveFirstDialog } from './save-first-dialog.tsx';

export function GenerateSection({
  s,
  session,
  activeLogin,
  onUseKey,
  onRememberKey,
}: ProfileKeys & { s: KeysSnapshot; session: KeysSession }) {
  const headingId = useId();
  const { pair, bits, generating, registered } = s;
  const markSaved = (how: 'copied' | 'downloaded') => session.markSaved(how);
  return (
    <section className="ky-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Generate a key pair</h2>
      <fieldset className="ky-bits" disabled={generating}>
        <legend>Key size</legend>
        {GENERATABLE_BITS.map((b) => (
          <label key={b} className="ky-radio">
            <input
              type="radio"
              name="ky-bits"
              value={b}
              checked={bits === b}
              onChange={() => session.pickBits(b)}
            />
            {b} bits
          </label>
        ))}
      </fieldset>
      <div className="ky-inline">
        <button
          type="button"
          className="ky-button ky-button--primary"
          disabled={generating}
          onClick={() => void session.generate()}
        >
          Generate key pair
        </button>
        <span role="status" className="ky-status">
          {generating ? (
            <>
              <span className="ky-spinner" aria-hidden="true" />
              Generating a {bits}-bit key pair… {(s.elapsedMs / 1000).toFixed(1)} s
            </>
          ) : pair ? (
            `Generated a ${pair.keys.bits}-bit key pair in ${Math.round(pair.ms)} ms.`
          ) : null}
        </span>
      </div>
      {generating && <progress className="ky-progress" aria-label="Generating the key pair" />}
      {s.generateError && (
        <p role="alert" className="ky-error">
          The key pair could not be generated: <InlineCode text={s.generateError} />
        </p>
      )}
      {pair && (
        <div className="ky-result">
          <p>
            Fingerprint (SHA-256 of the public key, as{' '}
            <code>openssl pkey -pubin -outform DER | sha256sum</code> prints it):{' '}
            <code className="ky-mono" aria-label="Generated key fingerprint">
              {pair.keys.fingerprint}
            </code>
          </p>
          <div className="ky-pems">
            <PemOutput
              label="Generated PKCS#8"
              short="PKCS#8"
              pem={pair.keys.pkcs8Pem}
              filename="private-pkcs8.pem"
              note="The private key for signing libraries and Web Crypto (BEGIN PRIVATE KEY). Keep it secret."
              onSaved={markSaved}
            />
            <PemOutput
              label="Generated PKCS#1"
              short="PKCS#1"
              pem={pair.keys.pkcs1Pem}
              filename="private-pkcs1.pem"
              note="The same private key as PKCS#1 (BEGIN RSA PRIVATE KEY), for the gateway's in-page request builders."
              onSaved={markSaved}
            />
            <PemOutput
              label="Generated public key (SPKI)"
              short="public key"
              pem={pair.keys.spkiPem}
              filename="public.pem"
              note="The public key to send to the gateway's support (BEGIN PUBLIC KEY)."
            />
          </div>
          <div className="ky-inline">
            <button
              type="button"
              className="ky-button"
              disabled={!activeLogin || s.registering}
              onClick={() => activeLogin && void session.startRegister(activeLogin)}
            >
              Register with the local sandbox
            </button>
            <button type="button" className="ky-button" onClick={() => void session.useInProfile(onUseKey)}>
              Use this key in the active profile
            </button>
          </div>
          {!activeLogin && (
            <p className="ky-note">
              Enter a login in the active profile to register the key for that merchant.
            </p>
          )}
          {activeLogin && !registered && !s.registerError && (
            <p className="ky-note">
              Registering sends the public key for merchant <code>{activeLogin}</code> to the local sandbox,
              as a merchant sends it to the gateway&apos;s support. The sandbox then verifies v4 signatures
              with it instead of the previous key.
            </p>
          )}
          {s.askSave && activeLogin && (
            <SaveFirstDialog
              login={activeLogin}
              onDownload={() => {
                session.closeSaveFirst();
                downloadText(pair.keys.pkcs8Pem, 'private-pkcs8.pem');
                session.markSaved('downloaded');
                void session.register(activeLogin);
              }}
              onRemember={() => void session.rememberThenRegister(activeLogin, onRememberKey)}
              onRegisterAnyway={() => void session.register(activeLogin)}
              onCancel={() => session.closeSaveFirst()}
            />
          )}
          {s.saveError && (
            <p role="alert" className="ky-error">
              The key was not remembered, and not registered: <InlineCode text={s.saveError} />
            </p>
          )}
          {s.registering && (
            <p role="status" className="ky-status">
              <span className="ky-spinner" aria-hidden="true" />
              Registering…
            </p>
          )}
          {s.registerError && (
            <p role="alert" className="ky-error">
              <InlineCode text={s.registerError} />
            </p>
          )}
          {registered && (
            <div role="status" className={registered.ok ? 'ky-answer' : 'ky-answer ky-error'}>
              <p>
                {registered.ok ? 'Registered' : 'Refused'}: the sandbox answered HTTP {registered.status}
                {answerMessage(registered) ? ` — ${answerMessage(registered)}` : '.'}
              </p>
              {registeredFingerprint(registered) && (
                <p>
                  The sandbox now verifies this merchant&apos;s v4 signatures with the key of fingerprint{' '}
                  <code className="ky-mono">{registeredFingerprint(registered)}</code>
                  {registeredFingerprint(registered) === pair.keys.fingerprint
                    ? ' (this pair).'
                    : ' (not this pair!).'}
                </p>
              )}
              <pre className="ky-mono ky-pre" aria-label="Sandbox answer">
                {registered.body !== undefined ? JSON.stringify(registered.body, null, 2) : registered.text}
              </pre>
            </div>
          )}
          {s.useResult && (
            <p
              role={s.useResult.kind === 'error' ? 'alert' : 'status'}
              className={s.useResult.kind === 'error' ? 'ky-error' : 'ky-ok'}
            >
              {s.useResult.text}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
