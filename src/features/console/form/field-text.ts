import type { FieldSpec } from '../../../catalog/index.ts';

/** The words a field's meta line uses; shared by the React form and the pre-rendered one. */
export const TYPE_LABEL: Record<FieldSpec['type'], string> = {
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

export const INPUT_MODE: Partial<Record<FieldSpec['type'], 'numeric' | 'decimal' | 'email' | 'url' | 'tel'>> =
  {
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

/** `amount · max 10 · required`: the start of a field's meta line. */
export function fieldDetails(spec: FieldSpec): string {
  return [
    spec.type === 'enum' && spec.options ? `one of ${spec.options.join(', ')}` : TYPE_LABEL[spec.type],
    spec.maxLength !== undefined ? `max ${spec.maxLength}` : null,
    spec.required ? 'required' : 'optional',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The choices of a select field (enum or boolean), after "(not sent)". */
export function fieldOptions(spec: FieldSpec): readonly string[] | null {
  if (spec.type === 'boolean') return ['true', 'false'];
  if (spec.type === 'enum') return spec.options ?? [];
  return null;
}
