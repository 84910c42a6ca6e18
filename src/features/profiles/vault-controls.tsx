import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { ProfilesValue } from './profiles-provider.tsx';
import { errorText } from '../../core/errors.ts';

// "Leave this classroom" (and its confirmation) loads with a classroom profile only.
const LeaveClassroom = lazy(() =>
  import('./leave-classroom.tsx').then((m) => ({ default: m.LeaveClassroom })),
);

// The passphrase dialog (and its strength check) loads when someone remembers or unlocks secrets.
const PassphraseDialog = lazy(() =>
  import('./passphrase-dialog.tsx').then((m) => ({ default: m.PassphraseDialog })),
);

/** Where a classroom profile's secrets are: not in memory only, whatever the vault's state. */
const CLASSROOM_NOTE =
  'Classroom credentials are kept in this browser (IndexedDB, unencrypted) until you leave the classroom.';

export function VaultControls({ p, classroom }: { p: ProfilesValue; classroom: string | null }) {
  const [dialog, setDialog] = useState<'remember' | 'unlock' | null>(null);
  const [confirmForget, setConfirmForget] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const v = p.vault;

  const run = (action: () => Promise<void>) => {
    setError(null);
    action().catch((e: unknown) => setError(errorText(e)));
  };

  let status: string;
  let actions: ReactNode = null;
  switch (v.kind) {
    case 'checking':
      status = 'Checking this device…';
      break;
    case 'unavailable':
      status = `Secrets stay in memory for this session (${v.message})`;
      break;
    case 'off':
      status = 'Secrets stay in memory for this session only.';
      actions = (
        <button type="button" className="pf-button" onClick={() => setDialog('remember')}>
          Remember on this device
        </button>
      );
      break;
    case 'unlocked':
      status = 'Remembered on this device, encrypted with your passphrase.';
      actions = (
        <button type="button" className="pf-button" onClick={() => run(p.lock)}>
          Lock
        </button>
      );
      break;
    case 'locked':
      status = 'The remembered secrets are locked. Unlock to sign.';
      actions = (
        <button type="button" className="pf-button pf-button--primary" onClick={() => setDialog('unlock')}>
          Unlock
        </button>
      );
      break;
    case 'damaged':
      status = v.message;
      break;
  }
  // A classroom profile's secrets are kept unencrypted, whatever the vault does with the others'.
  if (classroom !== null)
    status = v.kind === 'off' || v.kind === 'unavailable' ? CLASSROOM_NOTE : `${status} ${CLASSROOM_NOTE}`;
  const canForget = v.kind === 'unlocked' || v.kind === 'locked' || v.kind === 'damaged';

  return (
    <div className="pf-vault" role="group" aria-label="Secrets on this device">
      <p className={v.kind === 'damaged' ? 'pf-error' : 'pf-vault__status'} role="status">
        {status}
      </p>
      <div className="pf-inline">
        {actions}
        {classroom !== null && (
          <Suspense fallback={null}>
            <LeaveClassroom login={classroom} />
          </Suspense>
        )}
        {canForget &&
          (confirmForget ? (
            <span role="group" aria-label="Confirm forgetting" className="pf-inline">
              <span>Delete the encrypted secrets from this device?</span>
              <button
                type="button"
                className="pf-button pf-button--danger"
                onClick={() => {
                  setConfirmForget(false);
                  run(p.forget);
                }}
              >
                Yes, forget
              </button>
              <button type="button" className="pf-button" onClick={() => setConfirmForget(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <button type="button" className="pf-button" onClick={() => setConfirmForget(true)}>
              Forget on this device
            </button>
          ))}
      </div>
      {(error ?? p.vaultWriteError) && (
        <p role="alert" className="pf-error">
          {error ?? p.vaultWriteError}
        </p>
      )}
      {dialog && (
        <Suspense fallback={null}>
          <PassphraseDialog
            mode={dialog}
            onSubmit={dialog === 'remember' ? p.remember : p.unlock}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
