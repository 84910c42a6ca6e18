import { useId, useState, type ReactNode } from 'react';

interface SecretFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  disabled?: boolean;
  placeholder?: string;
  describedBy?: string;
  children?: ReactNode;
  after?: ReactNode;
}

export function SecretField({
  label,
  value,
  onChange,
  multiline,
  disabled,
  placeholder,
  describedBy,
  children,
  after,
}: SecretFieldProps) {
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const common = {
    id,
    value,
    disabled,
    placeholder,
    spellCheck: false,
    autoComplete: 'off',
    autoCorrect: 'off',
    autoCapitalize: 'off',
    'aria-describedby': describedBy,
    'data-1p-ignore': true,
  } as const;
  return (
    <div className={multiline ? 'pf-field pf-field--key' : 'pf-field pf-field--secret'}>
      <label htmlFor={id}>{label}</label>
      <div className="pf-secret">
        {multiline ? (
          <textarea
            {...common}
            rows={1}
            className={revealed ? 'pf-secret__input' : 'pf-secret__input pf-masked'}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <input
            {...common}
            type={revealed ? 'text' : 'password'}
            className="pf-secret__input"
            onChange={(e) => onChange(e.target.value)}
          />
        )}
        <button
          type="button"
          className="pf-button pf-button--quiet"
          aria-pressed={revealed}
          aria-controls={id}
          onClick={() => setRevealed((r) => !r)}
        >
          {revealed ? 'Hide' : 'Show'}
          <span className="ui-visually-hidden"> {label.toLowerCase()}</span>
        </button>
        {children}
      </div>
      {after}
    </div>
  );
}
