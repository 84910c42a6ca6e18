import { useId, type KeyboardEvent, type ReactNode } from 'react';

// The debugger's labelled boxes: a hint or an error under each, tied to it by aria-describedby.

/** The hint under a field, or its error in place of the hint; its id is `${id}-hint`, which the field points to. */
function FieldHint({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return hint || error ? (
    <p id={`${id}-hint`} className={error ? 'dbg-error' : 'dbg-hint'}>
      {error ?? hint}
    </p>
  ) : null;
}

export function TextArea({
  label,
  value,
  onChange,
  rows = 4,
  hint,
  error,
  placeholder,
  onKeyDown,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  rows?: number;
  hint?: string;
  error?: string;
  placeholder?: string;
  onKeyDown?: (e: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  const id = useId();
  return (
    <div className="dbg-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint || error ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <FieldHint id={id} hint={hint} error={error} />
    </div>
  );
}

export function Input({
  label,
  value,
  onChange,
  type = 'text',
  hint,
  error,
  placeholder,
  after,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: 'text' | 'password';
  hint?: string;
  error?: string;
  placeholder?: string;
  after?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="dbg-field">
      <label htmlFor={id}>{label}</label>
      <span className="dbg-inline">
        <input
          id={id}
          type={type}
          value={value}
          spellCheck={false}
          autoComplete="off"
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={hint || error ? `${id}-hint` : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {after}
      </span>
      <FieldHint id={id} hint={hint} error={error} />
    </div>
  );
}
