import { SCHEME_TITLES } from '../../../catalog/index.ts';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { describeFormula, type Scheme } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import { provenanceLabel } from './labels.ts';
import { fromFormulaRows, toFormulaRows, type FormulaRow } from './form-params.ts';
import type { MetaValues } from './meta.ts';

const KIND_LABEL: Record<FormulaRow['kind'], string> = {
  login: 'login (profile)',
  endpointId: 'endpointId (path)',
  field: 'field',
  minor: 'amount in minor units',
};

/**
 * The editor of a `control` formula the description does not give (get-card-info, payment-form,
 * payout-form). Loaded with those forms only: the first form signs with the catalog's formula.
 */
export function FormulaEditor({ op, meta }: { op: Operation; meta: UseFormReturn<MetaValues> }) {
  const { fields, append, remove, move, replace } = useFieldArray({ control: meta.control, name: 'formula' });
  const rows = useWatch({ control: meta.control, name: 'formula' });
  return (
    <fieldset className="wb-box">
      <legend>
        Control formula{' '}
        <span className={`wb-prov wb-prov-${op.formulaSource}`}>{provenanceLabel(op.formulaSource)}</span>
      </legend>
      {op.formulaNote ? <p className="wb-hint">{op.formulaNote}</p> : null}
      <ol className="wb-terms">
        {fields.map((f, i) => (
          <li key={f.id} className="wb-term">
            <span className="wb-term-n">{i + 1}</span>
            <select aria-label={`Term ${i + 1} kind`} {...meta.register(`formula.${i}.kind`)}>
              {(Object.keys(KIND_LABEL) as Array<FormulaRow['kind']>).map((k) => (
                <option key={k} value={k}>
                  {KIND_LABEL[k]}
                </option>
              ))}
            </select>
            {rows?.[i]?.kind === 'field' || rows?.[i]?.kind === 'minor' ? (
              <input
                aria-label={`Term ${i + 1} field name`}
                placeholder="e.g. client_orderid"
                spellCheck={false}
                autoComplete="off"
                {...meta.register(`formula.${i}.name`)}
              />
            ) : (
              <span className="wb-term-fixed" />
            )}
            <button
              type="button"
              className="ui-btn ui-btn-small"
              aria-label={`Move term ${i + 1} up`}
              disabled={i === 0}
              onClick={() => move(i, i - 1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="ui-btn ui-btn-small"
              aria-label={`Move term ${i + 1} down`}
              disabled={i === fields.length - 1}
              onClick={() => move(i, i + 1)}
            >
              ↓
            </button>
            <button
              type="button"
              className="ui-btn ui-btn-small"
              aria-label={`Remove term ${i + 1}`}
              onClick={() => remove(i)}
            >
              Remove
            </button>
          </li>
        ))}
        <li className="wb-term-key">{fields.length + 1}. merchant_control_key (always last)</li>
      </ol>
      <div className="wb-row">
        <button type="button" className="ui-btn" onClick={() => append({ kind: 'field', name: '' })}>
          Add term
        </button>
        <button type="button" className="ui-btn" onClick={() => replace(toFormulaRows(op.formula ?? []))}>
          Reset formula
        </button>
      </div>
      <p className="wb-hint">
        Signs: <code>{describeFormula(fromFormulaRows(rows ?? []))}</code>
      </p>
    </fieldset>
  );
}

/** Pinning an OAuth request's nonce and timestamp. Loaded with the OAuth forms only. */
export function NonceTimestamp({
  meta,
  getPreview,
}: {
  meta: UseFormReturn<MetaValues>;
  getPreview: () => { nonce: string; timestamp: string } | null;
}) {
  const pin = useWatch({ control: meta.control, name: 'pin' });
  return (
    <fieldset className="wb-box">
      <legend>Nonce and timestamp</legend>
      <label className="wb-check">
        <input
          type="checkbox"
          {...meta.register('pin', {
            onChange: (e: { target: { checked: boolean } }) => {
              const preview = getPreview();
              if (e.target.checked && preview) {
                if (!meta.getValues('nonce')) meta.setValue('nonce', preview.nonce);
                if (!meta.getValues('timestamp')) meta.setValue('timestamp', preview.timestamp);
              }
            },
          })}
        />{' '}
        Pin nonce and timestamp (to reproduce a ticket)
      </label>
      {pin ? (
        <div className="wb-pins">
          <label>
            oauth_nonce
            <input spellCheck={false} autoComplete="off" {...meta.register('nonce')} />
          </label>
          <label>
            oauth_timestamp
            <input
              spellCheck={false}
              autoComplete="off"
              inputMode="numeric"
              {...meta.register('timestamp')}
            />
          </label>
        </div>
      ) : (
        <p className="wb-hint">
          Every send uses a fresh nonce (the one the preview shows) and the clock's time when it is sent.
        </p>
      )}
    </fieldset>
  );
}

/** The scheme of an operation the documents disagree on. Loaded with those forms only. */
export function SchemePicker({ op, meta }: { op: Operation; meta: UseFormReturn<MetaValues> }) {
  const schemes: Scheme[] = [op.scheme, ...(op.schemeAlternatives ?? [])];
  return (
    <div className="wb-box">
      <label htmlFor="wb-scheme">Signature scheme</label>{' '}
      <span className="wb-prov wb-prov-unsure">
        {provenanceLabel(op.schemeSource)}: the documents disagree
      </span>
      <select id="wb-scheme" {...meta.register('scheme')}>
        {schemes.map((s) => (
          <option key={s} value={s}>
            {SCHEME_TITLES[s]}
            {s === op.scheme ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
