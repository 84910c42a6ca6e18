import { useId, useState } from 'react';
import { variablesStore } from '../../../browser/variables-store.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import type { AppliedVariables } from '../../../model/variables.ts';
import { answerField, suggestedVariable, variableList } from '../../../model/variable-words.ts';
import type { SendOutcome } from '../send/send-session.ts';
import { profileSource } from './workbench-variables.ts';
import { useStore } from '../../../ui/use-store.ts';

/** The variables kept for the active profile (its environment), to add, change and remove. */
export function VariablesPanel({ context }: { context: SigningContext | null }) {
  const id = useId();
  const stored = useStore(variablesStore);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!context) return null;
  const own = stored[context.profileId] ?? {};
  const builtIn = profileSource(context, {})[0]!.values;
  return (
    <details className="wb-pane wb-vars">
      <summary id={`${id}-t`}>
        Variables of “{context.profileName}” ({Object.keys(own).length + Object.keys(builtIn).length})
      </summary>
      <p className="wb-hint">
        Write <code>{'{{name}}'}</code> in any field: it is resolved before signing. The profile gives{' '}
        {variableList(Object.keys(builtIn))}; secrets stay the profile’s and are never variables.
      </p>
      <table className="wb-vars-table" aria-labelledby={`${id}-t`}>
        <thead>
          <tr>
            <th scope="col">Variable</th>
            <th scope="col">Value</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(builtIn).map(([n, v]) =>
            Object.hasOwn(own, n) ? null : (
              <tr key={`p-${n}`}>
                <td>
                  <code>{`{{${n}}}`}</code>
                </td>
                <td>{v}</td>
                <td>from the profile</td>
              </tr>
            ),
          )}
          {Object.entries(own).map(([n, v]) => (
            <tr key={n}>
              <td>
                <code>{`{{${n}}}`}</code>
              </td>
              <td>{v}</td>
              <td>
                <button
                  type="button"
                  className="ui-btn ui-btn-small"
                  onClick={() => variablesStore.remove(context.profileId, n)}
                  aria-label={`Remove {{${n}}}`}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="wb-vars-add" role="group" aria-label="Add a variable">
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value.trim())} spellCheck={false} />
        </label>
        <label>
          Value <input value={value} onChange={(e) => setValue(e.target.value)} spellCheck={false} />
        </label>
        <button
          type="button"
          className="ui-btn"
          onClick={() => {
            const refusal = variablesStore.set(context.profileId, name, value);
            setError(refusal ?? null);
            if (!refusal) {
              setName('');
              setValue('');
            }
          }}
        >
          Set variable
        </button>
      </div>
      {error ? (
        <p className="wb-error" role="alert">
          {error}
        </p>
      ) : null}
    </details>
  );
}

const SAVED_FROM_ANSWER = ['paynet-order-id', 'merchant-order-id'] as const;

/** One click from an answer: "Save paynet-order-id as {{orderid}}" into the profile's variables. */
export function SaveFromAnswer({
  outcome,
  context,
}: {
  outcome: SendOutcome;
  context: SigningContext | null;
}) {
  const [saved, setSaved] = useState<string | null>(null);
  const answer = outcome.interpreted;
  const fields = SAVED_FROM_ANSWER.flatMap((f) => {
    const v = answerField(answer.body, answer.json, f);
    return v === undefined ? [] : [{ field: f, value: v, variable: suggestedVariable(f) }];
  });
  if (!context || fields.length === 0) return null;
  return (
    <div className="wb-save-vars" role="group" aria-label="Save from the answer">
      {fields.map((f) => (
        <button
          key={f.field}
          type="button"
          className="ui-btn ui-btn-small"
          onClick={() => {
            variablesStore.set(context.profileId, f.variable, f.value);
            setSaved(`Saved {{${f.variable}}} = ${f.value}`);
          }}
        >
          Save {f.field} as {`{{${f.variable}}}`}
        </button>
      ))}
      {saved ? <span role="status">{saved}</span> : null}
    </div>
  );
}

/** Where each variable of the signed request came from, under the signing input. */
export function VariableUses({ applied }: { applied: Pick<AppliedVariables, 'uses' | 'unresolved'> }) {
  if (applied.uses.length === 0 && applied.unresolved.length === 0) return null;
  return (
    <div className="wb-var-uses">
      {applied.unresolved.length > 0 ? (
        <p className="wb-error" role="alert">
          Not resolved: {variableList(applied.unresolved)}. Set{' '}
          {applied.unresolved.length === 1 ? 'it' : 'them'} under Variables, or save{' '}
          {applied.unresolved.length === 1 ? 'it' : 'them'} from an answer; Send refuses until then.
        </p>
      ) : null}
      {applied.uses.length > 0 ? (
        <ul aria-label="Variables resolved">
          {applied.uses.map((u, i) => (
            <li key={i}>
              <code>{u.param}</code> ← <code>{`{{${u.variable}}}`}</code> = <code>{u.shown}</code>{' '}
              <span className="wb-hint-inline">
                ({u.source.kind === 'environment' ? `profile “${u.source.name}”` : u.source.name})
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
