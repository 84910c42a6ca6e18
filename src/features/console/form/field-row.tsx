import { memo } from 'react';
import { useFormState, type Control, type UseFormRegister } from 'react-hook-form';
import { placeholderOf, type FieldSpec } from '../../../catalog/index.ts';
import { fieldDetails, fieldOptions, INPUT_MODE } from './field-text.ts';
import type { FieldValues } from './meta.ts';

/** The field's own message; the one alert of a failed Send is the summary in the send bar. */
function FieldError({ message, id }: { message: string; id: string }) {
  return (
    <p className="wb-field-error" id={id}>
      {message}
    </p>
  );
}

function FieldRowImpl({
  spec,
  register,
  control,
  profileLogin,
}: {
  spec: FieldSpec;
  register: UseFormRegister<FieldValues>;
  control: Control<FieldValues>;
  profileLogin: string;
}) {
  const id = `f-${spec.name}`;
  const meta = `${id}-meta`;
  const err = `${id}-err`;
  const title = `${id}-title`;
  const options = fieldOptions(spec);
  const reg = register(spec.name);
  const { errors } = useFormState({ control, name: spec.name });
  const error = errors[spec.name]?.message;
  const message = typeof error === 'string' ? error : '';
  const common = {
    id,
    'aria-describedby': `${title} ${meta} ${err}`,
    'aria-required': spec.required,
    'aria-invalid': message !== '' ? true : undefined,
    ...reg,
  };
  return (
    <div className="wb-field">
      <div className="wb-field-head">
        <label htmlFor={id} className="wb-field-name">
          {spec.name}
        </label>
        <span className="wb-field-title" id={title}>
          {spec.title}
        </span>
      </div>
      {options ? (
        <select {...common}>
          <option value="">(not sent)</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type="text"
          inputMode={INPUT_MODE[spec.type]}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholderOf(spec, profileLogin) ?? undefined}
        />
      )}
      <p className="wb-field-meta" id={meta}>
        {fieldDetails(spec)}
        {spec.fromProfile ? ' · filled from the profile' : ''}
        {spec.provenance !== 'description' ? (
          <span className={`wb-prov wb-prov-${spec.provenance}`}>
            {spec.provenance === 'gateway-notes' ? 'from gateway notes' : 'assumed'}
          </span>
        ) : null}
        {spec.help ? <span className="wb-field-help"> {spec.help}</span> : null}
      </p>
      <FieldError message={message} id={err} />
    </div>
  );
}

export const FieldRow = memo(FieldRowImpl);
