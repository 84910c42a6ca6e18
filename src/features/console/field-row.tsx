import { memo } from 'react';
import { useFormState, type Control, type UseFormRegister } from 'react-hook-form';
import { placeholderOf, type FieldSpec } from '../../catalog/index.ts';
import type { FieldValues } from './meta.ts';

const TYPE_LABEL: Record<FieldSpec['type'], string> = {
  text: 'text',
  amount: 'amount',
  currency: 'currency code',
  email: 'e-mail',
  pan: 'card number',
  cvv: 'CVV',
  month: 'month',
  year: 'year',
  digits: 'digits',
  url: 'URL',
  country: 'country code',
  ip: 'IP address',
  phone: 'phone',
  boolean: 'true/false',
  enum: 'one of',
  date: 'date',
  base64: 'Base64',
};

const INPUT_MODE: Partial<Record<FieldSpec['type'], 'numeric' | 'decimal' | 'email' | 'url' | 'tel'>> = {
  amount: 'decimal',
  pan: 'numeric',
  cvv: 'numeric',
  month: 'numeric',
  year: 'numeric',
  digits: 'numeric',
  email: 'email',
  url: 'url',
  phone: 'tel',
};

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
  const details = [
    spec.type === 'enum' && spec.options ? `one of ${spec.options.join(', ')}` : TYPE_LABEL[spec.type],
    spec.maxLength !== undefined ? `max ${spec.maxLength}` : null,
    spec.required ? 'required' : 'optional',
  ].filter(Boolean);
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
      {spec.type === 'enum' || spec.type === 'boolean' ? (
        <select {...common}>
          <option value="">(not sent)</option>
          {(spec.type === 'boolean' ? ['true', 'false'] : (spec.options ?? [])).map((o) => (
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
        {details.join(' · ')}
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
