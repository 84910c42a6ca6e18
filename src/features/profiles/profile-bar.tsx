import { lazy, Suspense, useId, useState } from 'react';
import { checkEndpointId } from '../../core/index.ts';
import { KeyFileButton, KeyStatus } from './key-status.tsx';
import { ProfileSwitcher } from './profile-switcher.tsx';
import { useProfiles } from './profiles-provider.tsx';
import { SecretField } from './secret-field.tsx';
import { VaultControls } from './vault-controls.tsx';

// Only an encrypted key needs it (and node-forge, which it loads on Decrypt).
const KeyDecrypt = lazy(() => import('./key-decrypt.tsx').then((m) => ({ default: m.KeyDecrypt })));
import './profiles.css';

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
