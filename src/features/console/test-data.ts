import { exampleValues, type Operation } from '../../catalog/index.ts';

/** The sandbox's test card (gateway-notes.md, Sandbox behaviour). */
export const TEST_CARD = '4444444444444448';

/** The outcomes the sandbox picks by CVV (gateway-notes.md, Sandbox behaviour). */
export const OUTCOMES: ReadonlyArray<{ cvv: string; label: string }> = [
  { cvv: '123', label: 'Approved' },
  { cvv: '321', label: '3-D Secure challenge (password: hint)' },
  { cvv: '111', label: 'Approved without 3-D Secure' },
  { cvv: '217', label: 'Unknown (stays non-final)' },
  { cvv: '101', label: 'Declined: expired card' },
  { cvv: '116', label: 'Declined: insufficient funds' },
  { cvv: '119', label: 'Declined: not permitted' },
  { cvv: '209', label: 'Declined: stolen card' },
];

const PAN_FIELDS = new Set(['credit_card_number', 'credit-card-number', 'destination-card-no']);
const CVV_FIELDS = new Set(['cvv2']);
const ORDER_ID_FIELDS = new Set(['client_orderid', 'client-order-id', 'client-orderid']);
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
    else if (ORDER_ID_FIELDS.has(f.name)) values[f.name] = o.orderId;
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
