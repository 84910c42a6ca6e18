import { CLIENT_ORDER_ID_NAMES } from '../../src/catalog/index.ts';
import { toMinorUnits } from '../../src/core/index.ts';
import { callbackHostAllowed } from '../relay/allowed-hosts.ts';
import { refuse } from '../replies.ts';
import type { CardData, EngineContext, OperationCall } from './context.ts';

/** Reading a request's parameters: an empty value counts as absent. */
export function param(c: OperationCall, name: string): string | undefined {
  const v = c.params.get(name);
  return v === undefined || v === '' ? undefined : v;
}

export interface ClientOrderId {
  name: string;
  value: string;
}

/** The merchant order id, whichever spelling the operation uses. */
export function clientOrderId(c: OperationCall): ClientOrderId {
  for (const name of CLIENT_ORDER_ID_NAMES) {
    if (c.op.fields.some((f) => f.name === name)) {
      const value = param(c, name);
      if (value === undefined) refuse(`${name} is required.`, 'VALIDATION');
      return { name, value };
    }
  }
  refuse('This operation has no merchant order id field.', 'VALIDATION');
}

export function minorAmount(c: OperationCall, name = 'amount'): number | undefined {
  const v = param(c, name);
  if (v === undefined) return undefined;
  const n = Number(toMinorUnits(v, name));
  if (!Number.isSafeInteger(n)) refuse(`${name} "${v}" is too large.`, 'VALIDATION');
  return n;
}

export function positiveAmount(c: OperationCall): number {
  const n = minorAmount(c);
  if (n === undefined) refuse('amount is required.', 'VALIDATION');
  if (n <= 0) refuse(`amount must be greater than 0 (got ${param(c, 'amount')}).`, 'VALIDATION');
  return n;
}

/**
 * `server_callback_url` (or `notify_url`, which also hears an order's later transactions) must
 * point at this machine unless any host is allowed.
 */
export function callbackUrl(
  x: EngineContext,
  c: OperationCall,
  name: 'server_callback_url' | 'notify_url' = 'server_callback_url',
): string | null {
  const v = param(c, name);
  if (v === undefined) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    refuse(`${name} "${v}" is not an absolute URL.`, 'VALIDATION');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    refuse(`${name} must be an http or https URL.`, 'VALIDATION');
  if (!callbackHostAllowed(u, x.options)) {
    refuse(
      `${name} host "${u.hostname}" is refused: the local sandbox sends callbacks only to this machine (127.0.0.1, localhost, [::1]). Use a loopback URL, list the host in SANDBOX_CALLBACK_HOSTS, or start the sandbox with SANDBOX_CALLBACKS_ANY_HOST=1.`,
      'CALLBACK_URL_REFUSED',
    );
  }
  const ruled = x.options.callbackRule?.(c.merchant.login, u);
  if (ruled !== undefined) refuse(ruled, 'CALLBACK_URL_REFUSED');
  return v;
}

export function redirectUrl(c: OperationCall): string | null {
  const v = param(c, 'redirect_url');
  if (v === undefined) return null;
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    refuse(
      `redirect_url "${v.slice(0, 100)}" is not an absolute http(s) URL: the customer is sent back there.`,
      'VALIDATION',
    );
  }
  return v;
}

const CARD_NAMES = {
  pan: 'credit_card_number',
  name: 'card_printed_name',
  month: 'expire_month',
  year: 'expire_year',
};

/** The card of the request; v4 operations spell the names with hyphens. */
export function cardOf(c: OperationCall, names: typeof CARD_NAMES = CARD_NAMES): CardData {
  return {
    pan: param(c, names.pan) ?? '',
    name: param(c, names.name) ?? '',
    expMonth: param(c, names.month) ?? '',
    expYear: param(c, names.year) ?? '',
    cvv: param(c, 'cvv2'),
  };
}

/** 3-D Secure 2 when the sale says so (`threeds_version`) or carries 3DS 2 browser fields; else 1.0.2. */
export function threeDsVersion(c: OperationCall): '2' | '1.0.2' {
  const v = param(c, 'threeds_version');
  if (v !== undefined) {
    if (/^2(\.\d+){0,2}$/.test(v)) return '2';
    if (/^1(\.0(\.2)?)?$/.test(v)) return '1.0.2';
    refuse(`threeds_version "${v}" is not 1.0.2 or 2.`, 'VALIDATION');
  }
  const browser = [...c.params.keys()].some(
    (k) => /^browser[A-Z]/.test(k) || k.startsWith('customer_browser_'),
  );
  return browser ? '2' : '1.0.2';
}

/** v2 payout and payout-check need somewhere to send the money. */
export function destinationRequired(c: OperationCall): void {
  const bank = param(c, 'account_number') !== undefined && param(c, 'bank_name') !== undefined;
  const card = param(c, 'destination-card-no') !== undefined;
  const phone = param(c, 'receiver_phone') !== undefined;
  if (!bank && !card && !phone) {
    refuse(
      'A payout needs a destination: account_number with bank_name, destination-card-no, or receiver_phone.',
      'VALIDATION',
    );
  }
}
