import { useEffect, useRef } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { WithheldReason } from '../../../model/index.ts';
import type { FieldValues, MetaValues } from './meta.ts';
import { revealField } from './reveal-field.ts';

const WHAT: Record<WithheldReason, string> = { 'card-number': 'card number', cvv: 'CVV', secret: 'secret' };

export interface WithheldValuesProps {
  withheld: Readonly<Record<string, WithheldReason>>;
  form: UseFormReturn<FieldValues>;
  meta: UseFormReturn<MetaValues>;
  /** Sends refused so far because of these values: each one says so and goes to the first. */
  refusals: number;
}

/**
 * The values the opened request came without (masked or dropped when it was kept): each named,
 * with what it is, until it is typed again, and the alert of a send refused for them (the
 * workbench refuses while `missingValues` finds any). Loaded only for such a request, so the first
 * form carries none of it.
 */
export function WithheldValues({ withheld, form, meta, refusals }: WithheldValuesProps) {
  const values = useWatch({ control: form.control });
  const extras = useWatch({ control: meta.control, name: 'extras' }) ?? [];
  const extraAt = (name: string) => extras.findIndex((e) => e.name.trim() === name);
  const empty = Object.keys(withheld).filter((name) =>
    Object.hasOwn(values, name) ? !values[name] : !extras[extraAt(name)]?.value,
  );
  const focus = (name: string) => {
    if (!Object.hasOwn(values, name)) return meta.setFocus(`extras.${extraAt(name)}.value`);
    revealField(name);
    form.setFocus(name);
  };
  const first = useRef<string | undefined>(undefined);
  first.current = empty[0];
  useEffect(() => {
    if (refusals > 0 && first.current !== undefined) focus(first.current);
    // Once per refused send, not on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refusals]);
  return (
    <>
      {empty.length > 0 ? (
        <div className="wb-box wb-withheld" role="group" aria-labelledby="wb-withheld-title">
          <p id="wb-withheld-title">
            Not kept with this request, so to be typed again before it is sent (it would go out without{' '}
            {empty.length === 1 ? 'it' : 'them'}):
          </p>
          <ul>
            {empty.map((name) => (
              <li key={name}>
                <button type="button" className="ui-btn ui-btn-small" onClick={() => focus(name)}>
                  {name}
                </button>{' '}
                ({WHAT[withheld[name]!]})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {refusals > 0 && empty.length > 0 ? (
        <p className="wb-invalid" role="alert">
          Not sent: fill in {empty.join(', ')} first. {empty.length === 1 ? 'It was' : 'They were'} not kept
          with the request, which would go out without {empty.length === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
    </>
  );
}
