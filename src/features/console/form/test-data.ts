import {
  CVV_OUTCOMES,
  exampleValues,
  TEST_CARD as CATALOG_TEST_CARD,
  type Operation,
} from '../../../catalog/index.ts';

/** The sandbox's test card (the catalog's copy, which the sandbox and its docs read too). */
export const TEST_CARD: string = CATALOG_TEST_CARD.number;

/** The outcomes the sandbox picks by CVV, one per outcome (the catalog's table). */
export const OUTCOMES: ReadonlyArray<{ cvv: string; label: string }> = CVV_OUTCOMES.map((o) => ({
  cvv: o.cvvs[0]!,
  label: o.label,
}));

const PAN_FIELDS = new Set(['credit_card_number', 'credit-card-number', 'destination-card-no']);
const CVV_FIELDS = new Set(['cvv2']);
const YEAR_FIELDS = new Set(['expire_year', 'expire-year']);

export function hasCardCvv(op: Operation): boolean {
  return op.fields.some((f) => CVV_FIELDS.has(f.name));
}

/** A fresh merchant order id: a readable prefix, the time and random characters from the secure generator. */
export function freshOrderId(
  now: number,
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = random(6);
  let tail = '';
  for (const b of bytes) tail += alphabet[b % alphabet.length];
  return `inv-${now.toString(36)}-${tail}`;
}

export interface TestDataOptions {
  cvv: string;
  callbackUrl: string;
  returnUrl: string;
  now: Date;
  orderId: string;
}

/**
 * Values for every field that has an example, with the sandbox's test card, the chosen CVV, a
 * future expiry, a fresh order id and the session's callback inbox. Fields from the profile are
 * left alone.
 */
export function testDataFor(op: Operation, o: TestDataOptions): Record<string, string> {
  const values = exampleValues(op);
  for (const f of op.fields) {
    if (f.fromProfile) continue;
    if (PAN_FIELDS.has(f.name)) values[f.name] = TEST_CARD;
    else if (CVV_FIELDS.has(f.name)) values[f.name] = o.cvv;
    else if (f.role === 'client-order-id') values[f.name] = o.orderId;
    else if (YEAR_FIELDS.has(f.name)) values[f.name] = String(o.now.getUTCFullYear() + 3);
    else if (f.name === 'server_callback_url') values[f.name] = o.callbackUrl;
    else if (f.name === 'redirect_url') values[f.name] = o.returnUrl;
    else if (f.name === 'cRes' && !values[f.name])
      values[f.name] = base64Json({ messageType: 'CRes', messageVersion: '2.2.0', transStatus: 'Y' });
    else if (f.name === 'paRes' && !values[f.name])
      values[f.name] = base64Json({ PaRes: 'test', status: 'Y' });
  }
  return values;
}

function base64Json(value: unknown): string {
  return btoa(JSON.stringify(value));
}
