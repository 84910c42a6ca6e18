import type { TransactionStatus } from './store.ts';

/** What the card's CVV makes the sandbox do (gateway-notes.md, Sandbox behaviour). */
export type CvvOutcome =
  | { kind: 'final'; status: TransactionStatus; errorMessage?: string; errorCode?: string }
  | { kind: 'three-d-secure' }
  | { kind: 'unknown' };

export const THREE_DS_PASSWORD = 'hint';

const DECLINES: Record<string, { errorMessage: string; errorCode: string }> = {
  '101': { errorMessage: 'Declined: expired card', errorCode: 'EXPIRED_CARD' },
  '116': { errorMessage: 'Declined: insufficient funds', errorCode: 'INSUFFICIENT_FUNDS' },
  '119': {
    errorMessage: 'Declined: transaction not permitted to the cardholder',
    errorCode: 'NOT_PERMITTED',
  },
  '209': { errorMessage: 'Declined: stolen card, pick up', errorCode: 'STOLEN_CARD' },
};

/**
 * The sandbox's CVV table: 123/1234 approved; 321 3-D Secure challenge (password `hint`); 111 approved
 * without 3-D Secure; 217 unknown (stays non-final); 101/116/119/209 declined with a reason; any other
 * CVV declined. `threeDs` false turns the 321 challenge into a plain approval (rebills, transfers).
 */
export function outcomeForCvv(cvv: string | undefined, threeDs: boolean): CvvOutcome {
  if (cvv === undefined || cvv === '') return { kind: 'final', status: 'approved' };
  switch (cvv) {
    case '123':
    case '1234':
    case '111':
      return { kind: 'final', status: 'approved' };
    case '321':
      return threeDs ? { kind: 'three-d-secure' } : { kind: 'final', status: 'approved' };
    case '217':
      return { kind: 'unknown' };
  }
  const decline = DECLINES[cvv];
  if (decline) return { kind: 'final', status: 'declined', ...decline };
  return {
    kind: 'final',
    status: 'declined',
    errorMessage:
      'Declined by the issuer (sandbox: this CVV is not one of the approving test values 123, 1234, 111, 321)',
    errorCode: 'DECLINED',
  };
}

export const THREE_DS_DECLINE = {
  errorMessage: 'Declined: 3-D Secure authentication failed',
  errorCode: 'THREE_DS_FAILED',
};

/** Card brand from the BIN (leading digits). */
export function cardBrand(pan: string): string {
  const n = (len: number) => Number(pan.slice(0, len));
  if (/^4/.test(pan)) return 'Visa';
  if ((n(2) >= 51 && n(2) <= 55) || (n(4) >= 2221 && n(4) <= 2720)) return 'Mastercard';
  if (/^3[47]/.test(pan)) return 'American Express';
  if (n(4) >= 2200 && n(4) <= 2204) return 'Mir';
  if (/^6011/.test(pan) || /^65/.test(pan) || (n(3) >= 644 && n(3) <= 649)) return 'Discover';
  if (n(4) >= 3528 && n(4) <= 3589) return 'JCB';
  if (/^3(0[0-5]|[689])/.test(pan)) return 'Diners Club';
  if (/^62/.test(pan)) return 'UnionPay';
  if (/^(5[06-9]|6)/.test(pan)) return 'Maestro';
  return 'Unknown';
}

/** `444444******4448`: first six and last four digits, the rest masked (as many stars as digits hidden). */
export function maskCardNumber(bin: string, last4: string, length: number): string {
  return `${bin}${'*'.repeat(Math.max(0, length - bin.length - last4.length))}${last4}`;
}

/** Minor units back to the decimal text the gateway answers: 1042 → `10.42`. */
export function fromMinorUnits(minor: number): string {
  const whole = Math.floor(minor / 100);
  const cents = String(minor % 100).padStart(2, '0');
  return `${whole}.${cents}`;
}

/** Card number as digits only (the sandbox accepts spaces and dashes, as the console's form does). */
export function panDigits(pan: string): string {
  return pan.replace(/[\s-]/g, '');
}
