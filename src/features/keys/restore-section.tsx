import { useId } from 'react';
import { InlineCode } from '../../ui/inline-code.tsx';
import type { KeysSession, KeysSnapshot, ProfileKeys } from './keys-session.ts';

export function RestoreSection({
  s,
  session,
  activeLogin,
  onUseKey,
}: Omit<ProfileKeys, 'onRememberKey'> & { s: KeysSnapshot; session: KeysSession }) {
  const headingId = useId();
  const r = s.restored;
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
          disabled={s.restoring}
          onClick={() => void session.restore(activeLogin, onUseKey)}
        >
          Restore the demo key
        </button>
      </div>
      {s.restoreError && (
        <p role="alert" className="ky-error">
          <InlineCode text={s.restoreError} />
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
