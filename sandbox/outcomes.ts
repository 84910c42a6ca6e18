import { cvvOutcomeSpec } from '../src/catalog/index.ts';
import type { ErrorReason } from '../src/catalog/error-codes.ts';
import type { TransactionStatus } from './store.ts';

/** What the card's CVV makes the sandbox do (gateway-notes.md, Sandbox behaviour). */
export type CvvOutcome =
  | { kind: 'final'; status: TransactionStatus; errorMessage?: string; errorCode?: ErrorReason }
  | { kind: 'three-d-secure' }
  | { kind: 'unknown' };

export { THREE_DS_PASSWORD } from '../src/catalog/index.ts';

/**
 * The sandbox's CVV table, read from the catalog (src/catalog/test-cards.ts) that the console and
 * the docs read too. `threeDs` false turns the 3-D Secure challenge into a plain approval (rebills,
 * transfers: no cardholder is present).
 */
export function outcomeForCvv(cvv: string | undefined, threeDs: boolean): CvvOutcome {
  const spec = cvvOutcomeSpec(cvv);
  switch (spec.kind) {
    case 'approved':
      return { kind: 'final', status: 'approved' };
    case 'three-d-secure':
      return threeDs ? { kind: 'three-d-secure' } : { kind: 'final', status: 'approved' };
    case 'unknown':
      return { kind: 'unknown' };
    case 'declined':
      return {
        kind: 'final',
        status: 'declined',
        ...(spec.errorMessage ? { errorMessage: spec.errorMessage } : {}),
        ...(spec.errorCode ? { errorCode: spec.errorCode } : {}),
      };
  }
}

export const THREE_DS_DECLINE = {
  errorMessage: 'Declined: 3-D Secure authentication failed',
  errorCode: 'THREE_DS_FAILED',
} as const satisfies { errorMessage: string; errorCode: ErrorReason };

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
