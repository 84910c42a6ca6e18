import { useId, useState } from 'react';
import { StepChecksSchema, type StepChecks } from '../../model/step-checks.ts';

interface Row {
  name: string;
  value: string;
}

const rows = (record: Record<string, string> | undefined): Row[] =>
  Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));

function record(list: readonly Row[]): Record<string, string> | undefined {
  const kept = list.filter((r) => r.name.trim() !== '');
  return kept.length > 0 ? Object.fromEntries(kept.map((r) => [r.name.trim(), r.value])) : undefined;
}

/** Name and value pairs (a field and its value, a variable and its field) with Add and Remove. */
function Pairs({
  legend,
  add,
  nameLabel,
  valueLabel,
  list,
  onChange,
}: {
  legend: string;
  add: string;
  nameLabel: string;
  valueLabel: string;
  list: Row[];
  onChange: (next: Row[]) => void;
}) {
  const set = (i: number, change: Partial<Row>) =>
    onChange(list.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <fieldset className="sv-checks-pairs">
      <legend>{legend}</legend>
      {list.map((r, i) => (
        <div key={i} className="sv-inline">
          <input
            aria-label={`${nameLabel} ${i + 1}`}
            value={r.name}
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <input
            aria-label={`${valueLabel} ${i + 1}`}
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <button
            type="button"
            className="ui-btn ui-btn-small"
            onClick={() => onChange(list.filter((_r, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="ui-btn ui-btn-small"
        onClick={() => onChange([...list, { name: '', value: '' }])}
      >
        {add}
      </button>
    </fieldset>
  );
}

/**
 * A step's assertions and variables, edited as fields (never as code): HTTP status, the final
 * status, `error-code`, fields of the answer, a callback with a valid `control`; variables set
 * from the answer; whether to wait for the final status.
 */
export function ChecksEditor({
  name,
  checks,
  onSave,
}: {
  name: string;
  checks: StepChecks | undefined;
  onSave: (checks: StepChecks | null) => Promise<void>;
}) {
  const id = useId();
  const e = checks?.expect;
  const [http, setHttp] = useState(e?.http === undefined ? '' : String(e.http));
  const [status, setStatus] = useState(e?.status ?? '');
  const [errorCode, setErrorCode] = useState(e?.errorCode ?? '');
  const [fields, setFields] = useState(rows(e?.fields));
  const [callback, setCallback] = useState(e?.callback === 'valid');
  const [set, setSet] = useState(rows(checks?.set));
  const [wait, setWait] = useState(checks?.wait === undefined ? '' : String(checks.wait));
  const [error, setError] = useState<string | null>(null);

  const build = (): unknown => {
    const expect = {
      ...(http.trim() !== '' ? { http: Number(http) } : {}),
      ...(status.trim() !== '' ? { status: status.trim() } : {}),
      ...(errorCode.trim() !== '' ? { errorCode: errorCode.trim() } : {}),
      ...(record(fields) ? { fields: record(fields) } : {}),
      ...(callback ? { callback: 'valid' } : {}),
    };
    return {
      ...(Object.keys(expect).length > 0 ? { expect } : {}),
      ...(record(set) ? { set: record(set) } : {}),
      ...(wait !== '' ? { wait: wait === 'true' } : {}),
    };
  };

  return (
    <form
      className="sv-checks"
      aria-label={`Assertions of ${name}`}
      onSubmit={(ev) => {
        ev.preventDefault();
        const parsed = StepChecksSchema.safeParse(build());
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          return setError(`Not saved: ${issue.path.join(' ') || 'the assertions'}: ${issue.message}.`);
        }
        setError(null);
        const empty = Object.keys(parsed.data).length === 0;
        onSave(empty ? null : parsed.data).catch((err: unknown) => setError(String(err)));
      }}
    >
      <div className="sv-checks-grid">
        <label htmlFor={`${id}-http`}>HTTP status</label>
        <input
          id={`${id}-http`}
          inputMode="numeric"
          placeholder="200"
          value={http}
          onChange={(ev) => setHttp(ev.target.value)}
        />
        <label htmlFor={`${id}-status`}>status</label>
        <input
          id={`${id}-status`}
          list={`${id}-statuses`}
          placeholder="approved"
          value={status}
          onChange={(ev) => setStatus(ev.target.value)}
        />
        <datalist id={`${id}-statuses`}>
          {['approved', 'declined', 'filtered', 'error', 'processing'].map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <label htmlFor={`${id}-code`}>error-code</label>
        <input id={`${id}-code`} value={errorCode} onChange={(ev) => setErrorCode(ev.target.value)} />
        <label htmlFor={`${id}-wait`}>Wait for the final status</label>
        <select id={`${id}-wait`} value={wait} onChange={(ev) => setWait(ev.target.value)}>
          <option value="">when the answer acknowledges an order</option>
          <option value="true">always</option>
          <option value="false">never</option>
        </select>
      </div>
      <label className="sv-inline">
        <input type="checkbox" checked={callback} onChange={(ev) => setCallback(ev.target.checked)} />A
        callback arrives and its control is valid
      </label>
      <Pairs
        legend="Field checks"
        add="Add a field check"
        nameLabel="Answer field"
        valueLabel="Expected value"
        list={fields}
        onChange={setFields}
      />
      <Pairs
        legend="Variables to save"
        add="Add a variable"
        nameLabel="Variable"
        valueLabel="From answer field"
        list={set}
        onChange={setSet}
      />
      <button type="submit" className="ui-btn ui-btn-small ui-btn-primary">
        Save assertions
      </button>
      {error ? (
        <p role="alert" className="sv-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
