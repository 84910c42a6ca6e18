import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { checkNewPassphrase, VAULT_MIN_ITERATIONS } from './vault-crypto.ts';
import { errorText } from '../../core/errors.ts';

interface PassphraseDialogProps {
  mode: 'remember' | 'unlock';
  onSubmit: (passphrase: string) => Promise<void>;
  onClose: () => void;
}

export function PassphraseDialog({ mode, onSubmit, onClose }: PassphraseDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const passId = useId();
  const repeatId = useId();
  const errorId = useId();
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (mode === 'remember') {
      const problem = checkNewPassphrase(passphrase, repeat);
      if (problem) {
        setError(problem);
        return;
      }
    } else if (passphrase === '') {
      setError('Enter the passphrase you chose when you asked to remember the secrets.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(passphrase);
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }

  const title = mode === 'remember' ? 'Remember the secrets on this device' : 'Unlock the remembered secrets';
  return (
    <dialog ref={ref} className="pf-dialog" aria-labelledby={titleId} onCancel={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <h2 id={titleId}>{title}</h2>
        {mode === 'remember' ? (
          <p>
            The control keys and private keys of all profiles are kept in this browser&apos;s IndexedDB,
            encrypted with AES-GCM under a key derived from your passphrase (PBKDF2-SHA-256,{' '}
            {VAULT_MIN_ITERATIONS.toLocaleString('en')} iterations). The passphrase itself is never stored:
            without it nobody, you included, can read them back.
          </p>
        ) : (
          <p>
            The secrets were remembered on this device encrypted. Enter the passphrase to bring them back into
            this session.
          </p>
        )}
        <div className="pf-field">
          <label htmlFor={passId}>Passphrase</label>
          <input
            id={passId}
            type="password"
            autoFocus
            autoComplete={mode === 'remember' ? 'new-password' : 'current-password'}
            value={passphrase}
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </div>
        {mode === 'remember' && (
          <div className="pf-field">
            <label htmlFor={repeatId}>Repeat the passphrase</label>
            <input
              id={repeatId}
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          </div>
        )}
        {error && (
          <p id={errorId} role="alert" className="pf-error">
            {error}
          </p>
        )}
        {busy && (
          <p role="status" className="pf-busy">
            <span className="pf-spinner" aria-hidden="true" />
            Deriving the key from the passphrase…
          </p>
        )}
        <div className="pf-dialog__actions">
          <button type="submit" className="pf-button pf-button--primary" disabled={busy}>
            {mode === 'remember' ? 'Encrypt and remember' : 'Unlock with this passphrase'}
          </button>
          <button type="button" className="pf-button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
