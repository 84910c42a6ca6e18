import { useEffect, useId, useRef } from 'react';
import { consoleMode } from '../../browser/console-mode.ts';

/** Registering replaces the key the sandbox verifies with: a private half kept nowhere is a dead end. */
export function SaveFirstDialog({
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
