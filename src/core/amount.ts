import type { MinorUnits } from './brands.ts';
import { PayError } from './errors.ts';

const AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Converts a decimal amount in major units (`10.42`) to the minor-unit term the `control` formula
 * signs (`1042`), with exact string arithmetic: `0.29` is `29`, never `28.999…`.
 * @see api-description.md, Authentication, Scheme C step 3; gateway-notes.md, `control`.
 * @throws PayError with a code naming what is wrong with the text.
 */
export function toMinorUnits(amount: string, field = 'amount'): MinorUnits {
  const text = amount.trim();
  if (text === '') {
    throw new PayError('AMOUNT_EMPTY', `${field} is empty: enter an amount such as 10.00.`, { field });
  }
  if (text.startsWith('-')) {
    throw new PayError(
      'AMOUNT_NEGATIVE',
      `${field} "${amount}" is negative: amounts are positive, e.g. 10.00.`,
      {
        field,
      },
    );
  }
  if (/^\d+,\d+$/.test(text)) {
    throw new PayError(
      'AMOUNT_SEPARATOR',
      `${field} "${amount}" uses a comma: write the decimal separator as a dot, e.g. ${text.replace(',', '.')}.`,
      { field },
    );
  }
  if (/[eE]/.test(text) && /^[\d.]+[eE][+-]?\d+$/.test(text)) {
    throw new PayError(
      'AMOUNT_EXPONENT',
      `${field} "${amount}" is in exponent notation: write it out in full, e.g. 1000.00.`,
      { field },
    );
  }
  if (/^\d+\.\d{3,}$/.test(text)) {
    throw new PayError(
      'AMOUNT_PRECISION',
      `${field} "${amount}" has more than two decimals: the gateway signs whole cents, e.g. ${text.slice(0, text.indexOf('.') + 3)}.`,
      { field },
    );
  }
  const m = AMOUNT.exec(text);
  if (!m) {
    throw new PayError(
      'AMOUNT_FORMAT',
      `${field} "${amount}" is not a decimal amount: use digits with an optional dot and up to two decimals, e.g. 10.42.`,
      { field },
    );
  }
  const whole = BigInt(m[1]!);
  const cents = BigInt((m[2] ?? '').padEnd(2, '0'));
  return (whole * 100n + cents).toString() as MinorUnits;
}

/** True when {@link toMinorUnits} would accept the text. */
export function isValidAmount(amount: string): boolean {
  return AMOUNT.test(amount.trim());
}
