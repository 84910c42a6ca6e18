import { OPERATIONS, findOperation } from '../../catalog/index.ts';
import type { Exchange } from '../../shared/contracts.ts';

const catalogNames = (kind: 'pan' | 'cvv') =>
  new Set(OPERATIONS.flatMap((o) => o.fields.filter((f) => f.sensitive === kind).map((f) => f.name)));
const PAN_FIELDS = catalogNames('pan');
const CVV_FIELDS = catalogNames('cvv');
const CVV_NAME = /^(?:card[_-]?)?(?:cvv2?|cvc2?|cvn|csc)(?:[_-]?code)?$/i;
const SECRET_NAME = /(?:control|merchant)[_-]?key|private[_-]?key|secret|passphrase|password/i;
const PRIVATE_PEM =
  /-----BEGIN (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----|$)/g;
const PRIVATE_PEM_TEST = /-----BEGIN (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----/;
/** 12–19 digits, optionally grouped by single spaces or dashes, not touching other digits. */
const DIGIT_RUN = /(?<!\d[ -]?)\d(?:[ -]?\d){11,18}(?![ -]?\d)/g;

export function isCvvName(name: string): boolean {
  return CVV_FIELDS.has(name) || CVV_NAME.test(name);
}

export function isPanName(name: string, operationPath?: string): boolean {
  const op = operationPath ? findOperation(operationPath) : undefined;
  const spec = op?.fields.find((f) => f.name === name);
  return spec ? spec.sensitive === 'pan' : PAN_FIELDS.has(name);
}

/** The Luhn (mod 10) check of ISO/IEC 7812. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Keeps the first six and last four digits, stars in between; separators stay where they were. */
export function maskDigits(text: string): string {
  const n = (text.match(/\d/g) ?? []).length;
  const keepHead = n >= 12 ? 6 : 0;
  const keepTail = n > 4 ? 4 : 0;
  let i = 0;
  return text.replace(/\d/g, (d) => {
    const idx = i++;
    return idx < keepHead || idx >= n - keepTail ? d : '*';
  });
}

/** Masks every Luhn-valid run of 12–19 digits in a text. */
export function maskCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => (luhnValid(run.replace(/[ -]/g, '')) ? maskDigits(run) : run));
}

export function containsCardNumber(text: string): boolean {
  for (const m of text.matchAll(DIGIT_RUN)) if (luhnValid(m[0].replace(/[ -]/g, ''))) return true;
  return false;
}

const CVV_KEY = '(?:card[_-]?)?(?:cvv2?|cvc2?|cvn|csc)(?:[_-]?code)?';
const FORM_CVV = new RegExp(`(^|[&?])${CVV_KEY}=[^&#\\s]*(&?)`, 'gi');
const JSON_CVV_AFTER = new RegExp(`,\\s*"${CVV_KEY}"\\s*:\\s*(?:"(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`, 'gi');
const JSON_CVV_BEFORE = new RegExp(`"${CVV_KEY}"\\s*:\\s*(?:"(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)\\s*,?`, 'gi');
const LINE_CVV = new RegExp(`^${CVV_KEY}\\s*[=:].*$`, 'gim');

/** Removes CVV parameters from form-encoded, JSON and `key=value` line texts. */
export function dropCvvFromText(text: string): string {
  return text
    .replace(FORM_CVV, (_m, lead: string, trail: string) => (trail === '&' ? lead : ''))
    .replace(JSON_CVV_AFTER, '')
    .replace(JSON_CVV_BEFORE, '')
    .replace(LINE_CVV, '');
}

/** Everything free text goes through before storage. */
export function scrubText(text: string): string {
  return maskCardNumbers(dropCvvFromText(text).replace(PRIVATE_PEM, '[private key removed]'));
}

export interface MaskedExchange {
  exchange: Exchange;
  /** Body fields that were masked or dropped: their stored values must not be reused. */
  masked: string[];
}

/** Masks card numbers to first6…last4, drops CVVs and anything secret-looking, then checks the result. */
export function maskExchange(ex: Exchange): MaskedExchange {
  const masked = new Set<string>();
  const body: Array<{ name: string; value: string }> = [];
  for (const pair of ex.request.body) {
    if (isCvvName(pair.name) || SECRET_NAME.test(pair.name)) {
      masked.add(pair.name);
      continue;
    }
    const value = isPanName(pair.name, ex.operationPath) ? maskDigits(pair.value) : scrubText(pair.value);
    if (value !== pair.value) masked.add(pair.name);
    body.push({ name: pair.name, value });
  }
  const headers = ex.request.headers
    .filter((h) => !SECRET_NAME.test(h.name))
    .map((h) => ({ name: h.name, value: scrubText(h.value) }));
  const exchange: Exchange = {
    operationPath: ex.operationPath,
    profileName: scrubText(ex.profileName),
    targetName: ex.targetName,
    sentAt: ex.sentAt,
    request: {
      method: ex.request.method,
      url: scrubText(ex.request.url),
      headers,
      body,
      ...(ex.request.pinned ? { pinned: { ...ex.request.pinned } } : {}),
    },
    ...(ex.response
      ? {
          response: {
            status: ex.response.status,
            elapsedMs: ex.response.elapsedMs,
            headers: Object.fromEntries(
              Object.entries(ex.response.headers)
                .filter(([k]) => !SECRET_NAME.test(k))
                .map(([k, v]) => [k, scrubText(v)]),
            ),
            body: scrubText(ex.response.body),
          },
        }
      : {}),
    ...(ex.error !== undefined ? { error: scrubText(ex.error) } : {}),
  };
  assertNothingSecret(exchange);
  return { exchange, masked: [...masked] };
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  }
  return out;
}

/** The invariant of every stored entry: no full card number, no CVV field, no private key. */
export function assertNothingSecret(ex: Exchange): void {
  if (ex.request.body.some((p) => isCvvName(p.name) || SECRET_NAME.test(p.name))) {
    throw new Error('Refusing to store this exchange: a CVV or secret field is still in its body.');
  }
  for (const s of strings(ex)) {
    if (PRIVATE_PEM_TEST.test(s))
      throw new Error('Refusing to store this exchange: it contains a private key.');
    if (containsCardNumber(s))
      throw new Error('Refusing to store this exchange: it contains an unmasked card number.');
  }
}
