import { useId } from 'react';
import {
  GROUP_TITLES,
  OPERATIONS,
  placeholderOf,
  SCHEME_TITLES,
  type OperationGroup,
} from '../../catalog/index.ts';
import type { Scheme } from '../../core/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { schemesOf } from './teaching-model.ts';
import type { TeachingSession, TeachingSnapshot } from './teaching-session.ts';

const GROUPS = Object.keys(GROUP_TITLES) as OperationGroup[];

interface ViewProps {
  s: TeachingSnapshot;
  session: TeachingSession;
  context: SigningContext | null;
}

/** The operation and scheme pickers, and whom the page signs as. */
export function TeachingSetup({
  s,
  session,
  context,
  onPickOperation,
}: ViewProps & { onPickOperation: (path: string) => void }) {
  const { op, scheme } = s;
  return (
    <div className="teach-setup">
      <div className="teach-field">
        <label htmlFor="teach-op">Operation</label>
        <select id="teach-op" value={op.path} onChange={(e) => onPickOperation(e.target.value)}>
          {GROUPS.map((g) => (
            <optgroup key={g} label={GROUP_TITLES[g]}>
              {OPERATIONS.filter((o) => o.group === g).map((o) => (
                <option key={o.path} value={o.path}>
                  {o.title} ({o.path})
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      {schemesOf(op).length > 1 ? (
        <div className="teach-field">
          <label htmlFor="teach-scheme">Scheme</label>
          <select
            id="teach-scheme"
            value={scheme}
            onChange={(e) => session.pickScheme(e.target.value as Scheme)}
          >
            {schemesOf(op).map((x) => (
              <option key={x} value={x}>
                {SCHEME_TITLES[x]}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <p className="teach-scheme">
          Signed with <strong>{SCHEME_TITLES[scheme]}</strong>
        </p>
      )}
      {context ? (
        <p className="teach-hint">
          As <code>{context.credentials.login || '(no login)'}</code> on{' '}
          {context.endpoint.kind === 'group' ? 'endpoint group' : 'endpoint'}{' '}
          <code>{context.endpoint.id}</code> of <code>{context.target.baseUrl}</code> (the active profile).
        </p>
      ) : (
        <p className="teach-warn" role="note">
          No active profile: fill in the profile bar (login, control key or private key) to sign.
        </p>
      )}
    </div>
  );
}

/** The values taught on (fields and extra parameters), and the OAuth nonce and timestamp. */
export function TeachingValues({
  s,
  session,
  context,
  fromWorkbench,
}: ViewProps & { fromWorkbench: boolean }) {
  const valuesId = useId();
  const { op, values, extraNames, scheme, pinned } = s;
  return (
    <>
      <details className="teach-values">
        <summary>
          Values ({op.fields.length + extraNames.length} fields
          {fromWorkbench ? ', from the workbench' : ''})
        </summary>
        <div className="teach-values-actions">
          <button type="button" className="ui-btn ui-btn-small" onClick={() => session.fillTestValues()}>
            Fill with test data
          </button>
          {scheme !== 'control' ? (
            <button type="button" className="ui-btn ui-btn-small" onClick={() => session.freshNonce()}>
              New nonce and timestamp
            </button>
          ) : null}
        </div>
        <div className="teach-values-grid">
          {extraNames.map((name) => (
            <div className="teach-field" key={`extra-${name}`}>
              <label htmlFor={`${valuesId}-extra-${name}`}>{name}</label>
              <input
                id={`${valuesId}-extra-${name}`}
                value={values[name] ?? ''}
                title="An extra parameter (not a field of this operation)"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => session.setValue(name, e.target.value)}
              />
            </div>
          ))}
          {op.fields.map((f) => (
            <div className="teach-field" key={f.name}>
              <label htmlFor={`${valuesId}-${f.name}`}>{f.name}</label>
              <input
                id={`${valuesId}-${f.name}`}
                value={values[f.name] ?? ''}
                placeholder={placeholderOf(f, context?.credentials.login ?? '') ?? undefined}
                title={f.title}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => session.setValue(f.name, e.target.value)}
              />
            </div>
          ))}
        </div>
      </details>
      {scheme !== 'control' ? (
        <p className="teach-hint">
          <code>oauth_nonce</code> <code aria-label="Nonce">{pinned.nonce}</code> ·{' '}
          <code>oauth_timestamp</code> <code aria-label="Timestamp">{pinned.timestamp}</code> (fresh ones on
          every send)
        </p>
      ) : null}
    </>
  );
}

/** "Inject one mistake": the scheme's switches, one at a time. */
export function MistakeSwitches({ s, session, context }: ViewProps) {
  const { mistake, switches, scheme, otherId, wrongKey } = s;
  return (
    <fieldset className="teach-switches">
      <legend>Inject one mistake</legend>
      <label className="teach-switch">
        <input
          type="radio"
          name="teach-mistake"
          checked={mistake === null}
          onChange={() => session.pickMistake(null)}
        />
        No mistake
      </label>
      {switches.map((m) => (
        <label className="teach-switch" key={m.id}>
          <input
            type="radio"
            name="teach-mistake"
            checked={mistake === m.id}
            onChange={() => session.pickMistake(m.id)}
          />
          {m.teachingSwitch}
        </label>
      ))}
      {mistake === 'endpoint-vs-group-id' && scheme === 'control' ? (
        <div className="teach-field">
          <label htmlFor="teach-other-id">
            The merchant’s other id (
            {context?.endpoint.kind === 'group' ? 'endpoint id' : 'endpoint group id'})
          </label>
          <input id="teach-other-id" value={otherId} onChange={(e) => session.setOtherId(e.target.value)} />
        </div>
      ) : null}
      {wrongKey !== 'unwanted' ? (
        <p className="teach-hint">
          {wrongKey === 'ready'
            ? 'Signed with a throwaway RSA-2048 key made in this page, which no merchant registered.'
            : 'Making a throwaway RSA-2048 key…'}
        </p>
      ) : null}
    </fieldset>
  );
}
