import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { isPayError, webCryptoPort, type GeneratedKeyPair, type KeyInspection } from '../../core/index.ts';
import { GENERATABLE_BITS, generateKeyPair, inspectKey } from '../../core/keys/key-containers.ts';
import { replaceClassroomPrivateKey } from '../../shared/browser/classroom-credentials-write.ts';
import { consoleMode } from '../../shared/browser/console-mode.ts';
import { readKeyFile } from '../../shared/browser/read-key-file.ts';
import { InlineCode } from '../../shared/ui/inline-code.tsx';
import { CONVERSIONS, conversionsFor, usableFor, type Conversion } from './key-conversions.ts';
import { downloadText, PemOutput } from './pem-output.tsx';
import { answerMessage, registeredFingerprint, registerPublicKey, restoreDemoKey } from './register-key.ts';
import './keys.css';

const crypto = webCryptoPort();

/** How the private half of the generated pair was kept outside this page, if it was. */
type SavedAs = 'downloaded' | 'copied' | 'remembered';

/** The last generated pair, kept in memory for the session so that leaving the page does not lose it. */
let lastGenerated: { keys: GeneratedKeyPair; ms: number; saved: SavedAs | null } | null = null;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface KeysPageProps {
  activeLogin: string | null;
  onUseKey: (pkcs8Pem: string) => Promise<void>;
  /** Uses the key in the active profile and keeps it in the encrypted vault; false when cancelled. */
  onRememberKey: (pkcs8Pem: string) => Promise<boolean>;
}

export function KeysPage({ activeLogin, onUseKey, onRememberKey }: KeysPageProps) {
  const titleId = useId();
  return (
    <section className="ky-page" aria-labelledby={titleId}>
      <h1 id={titleId}>Keys</h1>
      <p className="ky-note">
        RSA key pairs for the v4 operations (OAuth RSA-SHA256). Everything here runs in this browser: the
        private key never leaves it unless you copy or download it.
      </p>
      <GenerateSection activeLogin={activeLogin} onUseKey={onUseKey} onRememberKey={onRememberKey} />
      {consoleMode() === 'classroom' ? (
        <p className="ky-note">
          In the classroom there is no demo merchant: if your merchant&apos;s key was lost or replaced, make a
          new one under &ldquo;Your key&rdquo; on the Exercises page, or ask the trainer to restore the key
          you joined with.
        </p>
      ) : (
        <RestoreSection activeLogin={activeLogin} onUseKey={onUseKey} />
      )}
      <InspectSection />
    </section>
  );
}

function GenerateSection({ activeLogin, onUseKey, onRememberKey }: KeysPageProps) {
  const headingId = useId();
  const [bits, setBits] = useState<number>(lastGenerated?.keys.bits ?? 4096);
  const [pair, setPair] = useState(lastGenerated);
  const [askSave, setAskSave] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  function markSaved(how: SavedAs) {
    setPair((p) => {
      if (!p) return p;
      const next = { ...p, saved: p.saved ?? how };
      lastGenerated = next;
      return next;
    });
  }
  const [useResult, setUseState] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const generate = useMutation({
    mutationFn: async (size: number) => {
      const started = performance.now();
      const keys = await generateKeyPair(size, crypto);
      return { keys, ms: performance.now() - started };
    },
    onSuccess: (result) => {
      const next = { ...result, saved: null };
      lastGenerated = next;
      setPair(next);
      setUseState(null);
      register.reset();
    },
  });
  const register = useMutation({
    mutationFn: async ({ login, pem, privatePem }: { login: string; pem: string; privatePem: string }) => {
      const result = await registerPublicKey(login, pem);
      // A classroom merchant's private key lives with the classroom credentials: keep the new one there.
      if (result.ok && consoleMode() === 'classroom') await replaceClassroomPrivateKey(login, privatePem);
      return result;
    },
  });
  const elapsed = useElapsed(generate.isPending);

  function registerNow() {
    if (activeLogin && pair)
      register.mutate({ login: activeLogin, pem: pair.keys.spkiPem, privatePem: pair.keys.pkcs8Pem });
  }

  // Registering replaces the key the sandbox verifies with: a private half kept nowhere is a dead end.
  function startRegister() {
    setSaveError(null);
    if (pair?.saved) registerNow();
    else setAskSave(true);
  }

  async function rememberThenRegister() {
    if (!pair) return;
    setSaveError(null);
    try {
      if (!(await onRememberKey(pair.keys.pkcs8Pem))) return;
    } catch (e) {
      setSaveError(message(e));
      return;
    }
    markSaved('remembered');
    setUseState({
      kind: 'ok',
      text: `The active profile now signs with this key (fingerprint ${pair.keys.fingerprint}), remembered on this device, encrypted.`,
    });
    registerNow();
  }

  async function applyToProfile(pem: string) {
    setUseState(null);
    try {
      await onUseKey(pem);
      setUseState({
        kind: 'ok',
        text: `The active profile now signs with this key (fingerprint ${pair?.keys.fingerprint}).`,
      });
    } catch (e) {
      setUseState({ kind: 'error', text: message(e) });
    }
  }

  return (
    <section className="ky-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Generate a key pair</h2>
      <fieldset className="ky-bits" disabled={generate.isPending}>
        <legend>Key size</legend>
        {GENERATABLE_BITS.map((b) => (
          <label key={b} className="ky-radio">
            <input type="radio" name="ky-bits" value={b} checked={bits === b} onChange={() => setBits(b)} />
            {b} bits
          </label>
        ))}
      </fieldset>
      <div className="ky-inline">
        <button
          type="button"
          className="ky-button ky-button--primary"
          disabled={generate.isPending}
          onClick={() => generate.mutate(bits)}
        >
          Generate key pair
        </button>
        <span role="status" className="ky-status">
          {generate.isPending ? (
            <>
              <span className="ky-spinner" aria-hidden="true" />
              Generating a {bits}-bit key pair… {(elapsed / 1000).toFixed(1)} s
            </>
          ) : pair ? (
            `Generated a ${pair.keys.bits}-bit key pair in ${Math.round(pair.ms)} ms.`
          ) : null}
        </span>
      </div>
      {generate.isPending && <progress className="ky-progress" aria-label="Generating the key pair" />}
      {generate.error && (
        <p role="alert" className="ky-error">
          The key pair could not be generated: <InlineCode text={message(generate.error)} />
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
              disabled={!activeLogin || register.isPending}
              onClick={startRegister}
            >
              Register with the local sandbox
            </button>
            <button
              type="button"
              className="ky-button"
              onClick={() => void applyToProfile(pair.keys.pkcs8Pem)}
            >
              Use this key in the active profile
            </button>
          </div>
          {!activeLogin && (
            <p className="ky-note">
              Enter a login in the active profile to register the key for that merchant.
            </p>
          )}
          {activeLogin && !register.data && !register.error && (
            <p className="ky-note">
              Registering sends the public key for merchant <code>{activeLogin}</code> to the local sandbox,
              as a merchant sends it to the gateway&apos;s support. The sandbox then verifies v4 signatures
              with it instead of the previous key.
            </p>
          )}
          {askSave && activeLogin && (
            <SaveFirstDialog
              login={activeLogin}
              onDownload={() => {
                setAskSave(false);
                downloadText(pair.keys.pkcs8Pem, 'private-pkcs8.pem');
                markSaved('downloaded');
                registerNow();
              }}
              onRemember={() => {
                setAskSave(false);
                void rememberThenRegister();
              }}
              onRegisterAnyway={() => {
                setAskSave(false);
                registerNow();
              }}
              onCancel={() => setAskSave(false)}
            />
          )}
          {saveError && (
            <p role="alert" className="ky-error">
              The key was not remembered, and not registered: <InlineCode text={saveError} />
            </p>
          )}
          {register.isPending && (
            <p role="status" className="ky-status">
              <span className="ky-spinner" aria-hidden="true" />
              Registering…
            </p>
          )}
          {register.error && (
            <p role="alert" className="ky-error">
              <InlineCode text={message(register.error)} />
            </p>
          )}
          {register.data && (
            <div role="status" className={register.data.ok ? 'ky-answer' : 'ky-answer ky-error'}>
              <p>
                {register.data.ok ? 'Registered' : 'Refused'}: the sandbox answered HTTP{' '}
                {register.data.status}
                {answerMessage(register.data) ? ` — ${answerMessage(register.data)}` : '.'}
              </p>
              {registeredFingerprint(register.data) && (
                <p>
                  The sandbox now verifies this merchant&apos;s v4 signatures with the key of fingerprint{' '}
                  <code className="ky-mono">{registeredFingerprint(register.data)}</code>
                  {registeredFingerprint(register.data) === pair.keys.fingerprint
                    ? ' (this pair).'
                    : ' (not this pair!).'}
                </p>
              )}
              <pre className="ky-mono ky-pre" aria-label="Sandbox answer">
                {register.data.body !== undefined
                  ? JSON.stringify(register.data.body, null, 2)
                  : register.data.text}
              </pre>
            </div>
          )}
          {useResult && (
            <p
              role={useResult.kind === 'error' ? 'alert' : 'status'}
              className={useResult.kind === 'error' ? 'ky-error' : 'ky-ok'}
            >
              {useResult.text}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function SaveFirstDialog({
  login,
  onDownload,
  onRemember,
  onRegisterAnyway,
  onCancel,
}: {
  login: string;
  onDownload: () => void;
  onRemember: () => void;
  onRegisterAnyway: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="ui-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>Save the private key before registering</h2>
      <div className="ui-dialog-body" id={bodyId}>
        <p>
          After registering, the local sandbox verifies the v4 signatures of <code>{login}</code> with this
          pair only, also after restarts. The private key has not been saved anywhere yet: it lives in this
          page, and a reload loses it, after which every v4 request is refused.
        </p>
        <p>
          Download it or remember it on this device (encrypted with a passphrase) first.{' '}
          {consoleMode() === 'classroom'
            ? 'In the classroom, registering also keeps it with your classroom credentials (this browser, unencrypted), and the trainer can restore the key you joined with.'
            : 'The demo merchant can always get its shipped key back with "Restore the demo key".'}
        </p>
      </div>
      <div className="ui-dialog-actions ky-save-actions">
        <button type="button" className="ui-btn" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="ui-btn" onClick={onRegisterAnyway}>
          Register without saving
        </button>
        <button type="button" className="ui-btn" onClick={onRemember}>
          Remember on this device, then register
        </button>
        <button type="button" className="ui-btn ui-btn-primary" onClick={onDownload}>
          Download the private key, then register
        </button>
      </div>
    </dialog>
  );
}

function RestoreSection({ activeLogin, onUseKey }: Omit<KeysPageProps, 'onRememberKey'>) {
  const headingId = useId();
  const restore = useMutation({
    mutationFn: async () => {
      const result = await restoreDemoKey();
      // The active profile signs for the demo merchant: give it the shipped private key back.
      const used =
        result.privateKeyPkcs8Pem !== null && activeLogin === result.restored.login
          ? await onUseKey(result.privateKeyPkcs8Pem).then(() => true)
          : false;
      return { ...result, used };
    },
  });
  const r = restore.data;
  return (
    <section className="ky-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Restore the demo key</h2>
      <p className="ky-note">
        The local sandbox&apos;s demo merchant ships with a key pair. If you registered another public key and
        no longer have its private half, this makes the sandbox verify the demo merchant with the shipped pair
        again (in its database too, so it holds after restarts), and gives the active profile the shipped
        private key when it signs as the demo merchant. From a terminal:{' '}
        <code>npm run sandbox -- --restore-demo-key</code>.
      </p>
      <div className="ky-inline">
        <button
          type="button"
          className="ky-button"
          disabled={restore.isPending}
          onClick={() => restore.mutate()}
        >
          Restore the demo key
        </button>
      </div>
      {restore.error && (
        <p role="alert" className="ky-error">
          <InlineCode text={message(restore.error)} />
        </p>
      )}
      {r && (
        <p role="status" className="ky-ok">
          {r.restored.restored ? 'Restored' : 'Nothing to restore'}: the sandbox verifies the v4 signatures of{' '}
          <code>{r.restored.login}</code> with the demo key (RSA-{r.restored.keyBits}, fingerprint{' '}
          <code className="ky-mono">{r.restored.keyFingerprint}</code>).
          {r.used
            ? ' The active profile signs with it.'
            : r.privateKeyPkcs8Pem === null
              ? ' The sandbox does not hold its private key: paste it in the profile.'
              : ` The active profile signs as another merchant (${activeLogin ?? 'no login'}): it was left as it is.`}
        </p>
      )}
    </section>
  );
}

function useElapsed(running: boolean): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!running) return;
    const started = performance.now();
    setElapsed(0);
    const t = setInterval(() => setElapsed(performance.now() - started), 100);
    return () => clearInterval(t);
  }, [running]);
  return elapsed;
}

function InspectSection() {
  const headingId = useId();
  const inputId = useId();
  const fileId = useId();
  const [text, setText] = useState('');
  const [inspected, setInspected] = useState<{ text: string; result: KeyInspection } | null>(null);
  const [converted, setConverted] = useState<{ id: Conversion; pem: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (text.trim() === '') return;
    let current = true;
    void inspectKey(text, crypto).then((result) => current && setInspected({ text, result }));
    return () => {
      current = false;
    };
  }, [text]);
  const inspection = text.trim() !== '' && inspected?.text === text ? inspected.result : null;

  async function convert(c: (typeof CONVERSIONS)[number]) {
    setError(null);
    try {
      setConverted({ id: c.id, pem: await c.run(text, crypto) });
    } catch (e) {
      setConverted(null);
      setError(isPayError(e) ? e.message : `The conversion failed: ${message(e)}`);
    }
  }

  async function readFile(e: ChangeEvent<HTMLInputElement>) {
    const read = await readKeyFile(e);
    if (!read) return;
    if ('error' in read) {
      setError(read.error);
      return;
    }
    setError(null);
    setConverted(null);
    setText(read.text);
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
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setConverted(null);
          setError(null);
        }}
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
              <button key={c.id} type="button" className="ky-button" onClick={() => void convert(c)}>
                {c.button}
              </button>
            ))}
          </div>
        )}
      {error && (
        <p role="alert" className="ky-error">
          <InlineCode text={error} />
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
