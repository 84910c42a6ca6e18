import { lazy, memo, Suspense, useState } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type UseFormRegister,
  type UseFormReturn,
} from 'react-hook-form';
import type { Operation } from '../../../catalog/index.ts';
import { FieldRow } from './field-row.tsx';
import { duplicateExtraNames } from './form-params.ts';
import type { FieldValues, MetaValues } from './meta.ts';
import { takesEarlierIds } from '../follow-ups/takes-earlier-ids.ts';
import { hasCardCvv, OUTCOMES } from './test-data.ts';
import { OPEN_UP_TO } from './optional-group.ts';

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
  /** Fields the user must type again (not kept with the opened request): their group stays open. */
  needed?: readonly string[];
}

// The formula editor and the nonce box load with the forms that have them (not the first form).
const FormulaEditor = lazy(() => import('./signing-options.tsx').then((m) => ({ default: m.FormulaEditor })));
const SchemePicker = lazy(() => import('./signing-options.tsx').then((m) => ({ default: m.SchemePicker })));
const NonceTimestamp = lazy(() =>
  import('./signing-options.tsx').then((m) => ({ default: m.NonceTimestamp })),
);
// The picker and this session's ids load with the forms that take ids, after the first form.
const EarlierIds = lazy(() =>
  import('../follow-ups/earlier-ids.tsx').then((m) => ({ default: m.EarlierIds })),
);

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
      {op.schemeAlternatives ? (
        <Suspense fallback={null}>
          <SchemePicker op={op} meta={p.meta} />
        </Suspense>
      ) : null}
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
        <details
          className="wb-fields"
          open={optional.length <= OPEN_UP_TO || optional.some((f) => p.needed?.includes(f.name))}
        >
          <summary>Optional parameters ({optional.length})</summary>
          {optional.map(fieldRow)}
        </details>
      ) : null}
      <ExtrasEditor op={op} meta={p.meta} />
      {scheme === 'control' && op.formulaSource !== undefined && op.formulaSource !== 'description' ? (
        <Suspense fallback={null}>
          <FormulaEditor op={op} meta={p.meta} />
        </Suspense>
      ) : null}
      {scheme !== 'control' ? (
        <Suspense fallback={null}>
          <NonceTimestamp meta={p.meta} getPreview={p.getPreview} />
        </Suspense>
      ) : null}
    </div>
  );
}

export const OperationForm = memo(OperationFormImpl);
