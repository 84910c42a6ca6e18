import { useState } from 'react';
import { leaveClassroom } from '../../browser/classroom-credentials-write.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { errorText } from '../../core/errors.ts';

/** "Leave this classroom": asked first; the session ends on the server, the credentials leave this browser. */
export function LeaveClassroom({ login }: { login: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const leave = () => {
    setOpen(false);
    setBusy(true);
    setError(null);
    leaveClassroom().then(
      () => location.assign('/join'),
      (e: unknown) => {
        setBusy(false);
        setError(errorText(e));
      },
    );
  };
  return (
    <>
      <button type="button" className="pf-button" disabled={busy} onClick={() => setOpen(true)}>
        Leave this classroom
      </button>
      {error && (
        <span role="alert" className="pf-error">
          {error}
        </span>
      )}
      <ConfirmDialog
        open={open}
        title="Leave this classroom?"
        confirmLabel="Leave and delete the credentials"
        onConfirm={leave}
        onCancel={() => setOpen(false)}
      >
        <p>
          This browser deletes the control key and the private key of the classroom merchant{' '}
          <code>{login}</code>, and your session in the classroom ends: you cannot come back to it. Your
          results stay on the trainer&apos;s table. To take part again, join with a new display name.
        </p>
      </ConfirmDialog>
    </>
  );
}
