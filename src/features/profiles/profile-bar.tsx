import { lazy, Suspense, useId, useState, type ChangeEvent, type ReactNode } from 'react';
import { checkEndpointId } from '../../core/index.ts';
import { readKeyFile } from '../../shared/browser/read-key-file.ts';
import { describeKey } from './key-import.ts';
import { useProfiles, type KeyState, type ProfilesValue } from './profiles-provider.tsx';
import { SecretField } from './secret-field.tsx';

// Only an encrypted key needs it (and node-forge, which it loads on Decrypt).
const KeyDecrypt = lazy(() => import('./key-decrypt.tsx').then((m) => ({ default: m.KeyDecrypt })));
import './profiles.css';

// "Leave this classroom" (and its confirmation) loads with a classroom profile only.
const LeaveClassroom = lazy(() =>
  import('./leave-classroom.tsx').then((m) => ({ default: m.LeaveClassroom })),
);

// The passphrase dialog (and its strength check) loads when someone remembers or unlocks secrets.
const PassphraseDialog = lazy(() =>
  import('./passphrase-dialog.tsx').then((m) => ({ default: m.PassphraseDialog })),
);

export function ProfileBar() {
  const p = useProfiles();
  const ids = {
    endpoint: useId(),
    endpointError: useId(),
    login: useId(),
    target: useId(),
    keyStatus: useId(),
    collapsible: useId(),
  };
  const [open, setOpen] = useState(false);
  const active = p.active;
  const locked = p.vault.kind === 'locked';

  if (!active) {
    return (
      <section className="pf-bar" aria-label="Merchant credentials">
        {p.targets.error ? (
          <p role="alert" className="pf-error">
            {p.targets.error}{' '}
            <button type="button" className="pf-button" onClick={p.targets.retry}>
              Retry
            </button>
          </p>
        ) : (
          <p role="status" className="pf-busy">
            <span className="pf-spinner" aria-hidden="true" />
            Loading the profiles…
          </p>
        )}
      </section>
    );
  }

  const group = active.endpointKind === 'group';
  const endpointText = group ? `group ${active.endpointGroupId}` : active.endpointId;
  const endpointProblem = checkEndpointId({
    kind: group ? 'group' : 'endpoint',
    id: (group ? active.endpointGroupId : active.endpointId).trim(),
  });
  return (
    <section className="pf-bar" aria-label="Merchant credentials" data-open={open}>
      <div className="pf-summary">
        <p className="pf-summary__text">
          {[active.name, active.targetName, endpointText, active.login].filter((x) => x !== '').join(' · ')}
        </p>
        <button
          type="button"
          className="pf-button"
          aria-expanded={open}
          aria-controls={ids.collapsible}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide credentials' : 'Show credentials'}
        </button>
      </div>
      <div className="pf-collapsible" id={ids.collapsible}>
        <div className="pf-row pf-row--top">
          <ProfileSwitcher p={p} />
          <VaultControls p={p} classroom={active.origin === 'classroom' ? active.login : null} />
        </div>
        <div className="pf-row">
          <div className="pf-field">
            <label htmlFor={ids.target}>Target</label>
            <select
              id={ids.target}
              value={active.targetName}
              disabled={!p.targets.data}
              onChange={(e) => p.updateProfile('targetName', e.target.value)}
            >
              {!p.targets.data && (
                <option value={active.targetName}>
                  {p.targets.loading ? 'Loading targets…' : active.targetName || 'No targets'}
                </option>
              )}
              {p.targets.data && !p.targets.data.some((t) => t.name === active.targetName) && (
                <option value={active.targetName}>
                  {active.targetName ? `${active.targetName} (not offered)` : 'Choose a target'}
                </option>
              )}
              {p.targets.data?.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name} ({t.kind})
                </option>
              ))}
            </select>
          </div>
          <div className="pf-field pf-field--endpoint">
            <div className="pf-field__head">
              <label htmlFor={ids.endpoint}>{group ? 'Endpoint group id' : 'Endpoint id'}</label>
              <label className="pf-check">
                <input
                  type="checkbox"
                  checked={group}
                  onChange={(e) => p.updateProfile('endpointKind', e.target.checked ? 'group' : 'endpoint')}
                />
                Use endpoint group
              </label>
            </div>
            <input
              id={ids.endpoint}
              inputMode="numeric"
              autoComplete="off"
              value={group ? active.endpointGroupId : active.endpointId}
              aria-invalid={endpointProblem ? true : undefined}
              aria-describedby={endpointProblem ? ids.endpointError : undefined}
              onChange={(e) => p.updateProfile(group ? 'endpointGroupId' : 'endpointId', e.target.value)}
            />
            {endpointProblem ? (
              <p className="pf-field-error" id={ids.endpointError}>
                {endpointProblem.message}
              </p>
            ) : null}
          </div>
          <div className="pf-field pf-field--login">
            <label htmlFor={ids.login}>Login</label>
            <input
              id={ids.login}
              autoComplete="off"
              spellCheck={false}
              value={active.login}
              onChange={(e) => p.updateProfile('login', e.target.value)}
            />
          </div>
          <SecretField
            label="Control key"
            value={p.secrets.controlKey}
            disabled={locked}
            placeholder={locked ? 'Locked' : ''}
            onChange={(v) => p.setSecret('controlKey', v)}
          />
          <SecretField
            label="Private key"
            multiline
            value={p.secrets.privateKeyPem}
            disabled={locked}
            placeholder={
              locked ? 'Locked' : 'Paste BEGIN PRIVATE KEY (PKCS#8) or BEGIN RSA PRIVATE KEY (PKCS#1)'
            }
            describedBy={ids.keyStatus}
            onChange={(v) => p.setSecret('privateKeyPem', v)}
            after={
              <>
                <KeyStatus id={ids.keyStatus} keyState={p.key} />
                {p.key.status === 'done' && p.key.inspection.kind === 'encrypted-private' && !locked ? (
                  <Suspense fallback={null}>
                    <KeyDecrypt
                      pem={p.secrets.privateKeyPem}
                      onDecrypted={(pem) => p.setSecret('privateKeyPem', pem)}
                    />
                  </Suspense>
                ) : null}
              </>
            }
          >
            <KeyFileButton disabled={locked} onText={(text) => p.setSecret('privateKeyPem', text)} />
          </SecretField>
        </div>
        {p.setupError && <p className="pf-note">{p.setupError}</p>}
      </div>
    </section>
  );
}

function ProfileSwitcher({ p }: { p: ProfilesValue }) {
  const selectId = useId();
  const renameId = useId();
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle');
  const [name, setName] = useState('');
  const active = p.active!;

  if (mode === 'rename') {
    const save = () => {
      if (name.trim() !== '') p.updateProfile('name', name.trim());
      setMode('idle');
    };
    return (
      <form
        className="pf-inline pf-switcher"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label htmlFor={renameId}>New name</label>
        <input
          id={renameId}
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && setMode('idle')}
        />
        <button type="submit" className="pf-button pf-button--primary">
          Save name
        </button>
        <button type="button" className="pf-button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </form>
    );
  }

  return (
    <div className="pf-inline pf-switcher">
      <label htmlFor={selectId}>Profile</label>
      <div className="pf-inline">
        <select id={selectId} value={active.id} onChange={(e) => p.selectProfile(e.target.value)}>
          {p.profiles.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
            </option>
          ))}
        </select>
        {mode === 'delete' ? (
          <span role="group" aria-label="Confirm deletion" className="pf-inline">
            <span>Delete “{active.name}” and its secrets?</span>
            <button
              type="button"
              className="pf-button pf-button--danger"
              onClick={() => {
                p.deleteProfile();
                setMode('idle');
              }}
            >
              Yes, delete
            </button>
            <button type="button" className="pf-button" onClick={() => setMode('idle')}>
              Cancel
            </button>
          </span>
        ) : (
          <>
            <button type="button" className="pf-button" onClick={p.addProfile}>
              New profile
            </button>
            <button
              type="button"
              className="pf-button"
              onClick={() => {
                setName(active.name);
                setMode('rename');
              }}
            >
              Rename profile
            </button>
            <button type="button" className="pf-button" onClick={p.duplicateProfile}>
              Duplicate profile
            </button>
            <button
              type="button"
              className="pf-button"
              disabled={p.profiles.length <= 1}
              title={p.profiles.length <= 1 ? 'The last profile cannot be deleted' : undefined}
              onClick={() => setMode('delete')}
            >
              Delete profile
            </button>
          </>
        )}
      </div>
    </div>
  );
}

function KeyFileButton({ disabled, onText }: { disabled: boolean; onText: (text: string) => void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  async function read(e: ChangeEvent<HTMLInputElement>) {
    const result = await readKeyFile(e);
    if (!result) return;
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    onText(result.text);
  }
  return (
    <>
      <label className={disabled ? 'pf-button pf-file pf-file--disabled' : 'pf-button pf-file'} htmlFor={id}>
        Open a key file
      </label>
      <input
        id={id}
        type="file"
        className="ui-visually-hidden"
        accept=".pem,.key,.txt,.p8,text/plain"
        disabled={disabled}
        onChange={(e) => void read(e)}
      />
      {error && (
        <span role="alert" className="pf-error">
          {error}
        </span>
      )}
    </>
  );
}

function KeyStatus({ id, keyState }: { id: string; keyState: KeyState }) {
  let text: string;
  let tone = 'pf-key-status';
  if (keyState.status === 'none') text = 'No private key: v4 operations need one.';
  else if (keyState.status === 'importing') text = 'Reading the key…';
  else {
    const summary = describeKey(keyState.inspection);
    if (keyState.error) {
      text = `${keyState.inspection.kind === 'garbage' ? '' : `${summary}. `}${keyState.error}`;
      tone += ' pf-error';
    } else {
      const converted =
        keyState.inspection.kind === 'pkcs1-private' ? ' — converted to PKCS#8 for Web Crypto' : '';
      text = `${summary}${converted}`;
      if (keyState.inspection.warnings.length > 0) text += `. ${keyState.inspection.warnings.join(' ')}`;
    }
  }
  return (
    <p id={id} className={tone} role="status" aria-live="polite">
      {text}
    </p>
  );
}

/** Where a classroom profile's secrets are: not in memory only, whatever the vault's state. */
const CLASSROOM_NOTE =
  'Classroom credentials are kept in this browser (IndexedDB, unencrypted) until you leave the classroom.';

function VaultControls({ p, classroom }: { p: ProfilesValue; classroom: string | null }) {
  const [dialog, setDialog] = useState<'remember' | 'unlock' | null>(null);
  const [confirmForget, setConfirmForget] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const v = p.vault;

  const run = (action: () => Promise<void>) => {
    setError(null);
    action().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
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
