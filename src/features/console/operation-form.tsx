import { lazy, memo, Suspense, useState } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type UseFormRegister,
  type UseFormReturn,
} from 'react-hook-form';
import { describeFormula, type Scheme } from '../../core/index.ts';
import type { Operation } from '../../catalog/index.ts';
import { FieldRow } from './field-row.tsx';
import { duplicateExtraNames, fromFormulaRows, toFormulaRows, type FormulaRow } from './form-params.ts';
import type { FieldValues, MetaValues } from './meta.ts';
import { takesEarlierIds } from './takes-earlier-ids.ts';
import { hasCardCvv, OUTCOMES } from './test-data.ts';

export const SCHEME_LABEL: Record<Scheme, string> = {
  control: 'control (SHA-1)',
  'oauth-hmac-sha1': 'OAuth 1.0a HMAC-SHA1',
  'oauth-rsa-sha256': 'OAuth 1.0a RSA-SHA256',
};

function ExtrasEditor({ op, meta }: { op: Operation; meta: UseFormReturn<MetaValues> }) {
  const { fields, append, remove } = useFieldArray({ control: meta.control, name: 'extras' });
  const extras = useWatch({ control: meta.control, name: 'extras' });
  const duplicates = duplicateExtraNames(op, extras ?? []);
  return (
    <fieldset className="wb-box">
      <legend>Extra parameters</legend>
      <p className="wb-hint">
        Sent in the body and signed like any other parameter (the real field lists are incomplete).
      </p>
      {fields.map((f, i) => (
        <ExtraRow key={f.id} index={i} meta={meta} onRemove={() => remove(i)} duplicates={duplicates} />
      ))}
      <button type="button" className="ui-btn" onClick={() => append({ name: '', value: '' })}>
        Add parameter
      </button>
    </fieldset>
  );
}

function ExtraRow({
  index,
  meta,
  onRemove,
  duplicates,
}: {
  index: number;
  meta: UseFormReturn<MetaValues>;
  onRemove: () => void;
  duplicates: Set<string>;
}) {
  const name = useWatch({ control: meta.control, name: `extras.${index}.name` });
  const dup = duplicates.has((name ?? '').trim());
  return (
    <div className="wb-extra">
      <input
        aria-label={`Extra parameter ${index + 1} name`}
        placeholder="e.g. site_url"
        autoComplete="off"
        spellCheck={false}
        {...meta.register(`extras.${index}.name`)}
      />
      <input
        aria-label={`Extra parameter ${index + 1} value`}
        placeholder="e.g. https://shop.example.com"
        autoComplete="off"
        spellCheck={false}
        {...meta.register(`extras.${index}.value`)}
      />
      <button
        type="button"
        className="ui-btn ui-btn-small"
        aria-label={`Remove extra parameter ${index + 1}`}
        onClick={onRemove}
      >
        Remove
      </button>
      {dup ? (
        <p className="wb-field-error">This name is sent twice: the first value is the one a formula signs.</p>
      ) : null}
    </div>
  );
}

const KIND_LABEL: Record<FormulaRow['kind'], string> = {
  login: 'login (profile)',
  endpointId: 'endpointId (path)',
  field: 'field',
  minor: 'amount in minor units',
};

function FormulaEditor({ op, meta }: { op: Operation; meta: UseFormReturn<MetaValues> }) {
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

export function provenanceLabel(
  p: Operation['formulaSource'] | Operation['schemeSource'] | undefined,
): string {
  if (p === 'unsure') return 'unsure';
  if (p === 'gateway-notes') return 'from gateway notes';
  if (p === 'assumed') return 'assumed';
  return 'from the description';
}

function SchemePicker({ op, meta }: { op: Operation; meta: UseFormReturn<MetaValues> }) {
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
            {SCHEME_LABEL[s]}
            {s === op.scheme ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

function NonceTimestamp({
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

export interface OperationFormProps {
  op: Operation;
  register: UseFormRegister<FieldValues>;
  control: Control<FieldValues>;
  meta: UseFormReturn<MetaValues>;
  profileLogin: string;
  getPreview: () => { nonce: string; timestamp: string } | null;
  onFill: (cvv: string) => void;
  onClear: () => void;
  /** Fills the form with ids of an earlier answer (the picker beside the id fields). */
  onUseIds: (values: Record<string, string>) => void;
}

// The picker and this session's ids load with the forms that take ids, after the first form.
const EarlierIds = lazy(() => import('./earlier-ids.tsx').then((m) => ({ default: m.EarlierIds })));

function OperationFormImpl(p: OperationFormProps) {
  const { op } = p;
  const [cvv, setCvv] = useState('123');
  const required = op.fields.filter((f) => f.required);
  const optional = op.fields.filter((f) => !f.required);
  const fieldRow = (f: Operation['fields'][number]) => (
    <FieldRow key={f.name} spec={f} register={p.register} control={p.control} profileLogin={p.profileLogin} />
  );
  const showCvv = hasCardCvv(op);
  const scheme = useWatch({ control: p.meta.control, name: 'scheme' });
  return (
    <div className="wb-form">
      <div className="wb-box wb-fill">
        {showCvv ? (
          <label>
            Outcome (CVV){' '}
            <select value={cvv} onChange={(e) => setCvv(e.target.value)}>
              {OUTCOMES.map((o) => (
                <option key={o.cvv} value={o.cvv}>
                  {o.cvv}: {o.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="button" className="ui-btn" onClick={() => p.onFill(cvv)}>
          Fill with test data
        </button>
        <button type="button" className="ui-btn" onClick={p.onClear}>
          Clear
        </button>
      </div>
      {op.schemeAlternatives ? <SchemePicker op={op} meta={p.meta} /> : null}
      {required.length > 0 ? (
        <fieldset className="wb-fields">
          <legend>Required parameters</legend>
          {takesEarlierIds(op) ? (
            <Suspense fallback={null}>
              <EarlierIds op={op} onUse={p.onUseIds} />
            </Suspense>
          ) : null}
          {required.map(fieldRow)}
        </fieldset>
      ) : null}
      {optional.length > 0 ? (
        <details className="wb-fields" open={optional.length <= 6}>
          <summary>Optional parameters ({optional.length})</summary>
          {optional.map(fieldRow)}
        </details>
      ) : null}
      <ExtrasEditor op={op} meta={p.meta} />
      {scheme === 'control' && op.formulaSource !== undefined && op.formulaSource !== 'description' ? (
        <FormulaEditor op={op} meta={p.meta} />
      ) : null}
      {scheme !== 'control' ? <NonceTimestamp meta={p.meta} getPreview={p.getPreview} /> : null}
    </div>
  );
}

export const OperationForm = memo(OperationFormImpl);
