import { useId, useState } from 'react';
import { errorText } from '../../core/errors.ts';
// By path, not through the core's index: the first page must not carry the decryption code.
import { decryptPrivateKey } from '../../core/keys/decrypt-key.ts';
import { webCryptoPort } from '../../core/index.ts';

const crypto = webCryptoPort();

/** The passphrase of an encrypted private key, to decrypt it here; the passphrase is not kept. */
export function KeyDecrypt({ pem, onDecrypted }: { pem: string; onDecrypted: (pem: string) => void }) {
  const id = useId();
  const [passphrase, setPassphrase] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="pf-inline pf-decrypt"
      aria-label="Decrypt the private key"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        decryptPrivateKey(pem, passphrase, crypto).then(
          (plain) => {
            setBusy(false);
            setPassphrase('');
            onDecrypted(plain);
          },
          (err: unknown) => {
            setBusy(false);
            setError(errorText(err));
          },
        );
      }}
    >
      <label htmlFor={`${id}-pass`}>Key passphrase</label>
      <input
        id={`${id}-pass`}
        type="password"
        autoComplete="off"
        value={passphrase}
        onChange={(e) => setPassphrase(e.target.value)}
      />
      <button type="submit" className="pf-button pf-button--primary" disabled={busy}>
        {busy ? 'Decrypting…' : 'Decrypt key'}
      </button>
      {error ? (
        <span role="alert" className="pf-error">
          {error}
        </span>
      ) : null}
    </form>
  );
}
