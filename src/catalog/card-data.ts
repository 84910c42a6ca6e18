import { findOperation } from './lookup.ts';
import { OPERATIONS } from './operations.ts';
import { luhnValid } from './validators.ts';

/**
 * Card-data policy, one copy for every place that keeps or hands out request data (history, HAR
 * and share-link exports, the callback inbox): card numbers masked to the first six and last four
 * digits, CVVs and secrets dropped, private keys removed.
 */

const catalogNames = (kind: 'pan' | 'cvv') =>
  new Set(OPERATIONS.flatMap((o) => o.fields.filter((f) => f.sensitive === kind).map((f) => f.name)));
const PAN_FIELDS = catalogNames('pan');
const CVV_FIELDS = catalogNames('cvv');
const CVV_KEY = '(?:card[_-]?)?(?:cvv2?|cvc2?|cvn|csc|cid)(?:[_-]?code)?';
const CVV_NAME = new RegExp(`^${CVV_KEY}$`, 'i');
const SECRET_NAME =
  /(?:control|merchant)[_-]?key|private[_-]?key|secret|passphrase|password|^cookie$|^set-cookie$/i;
const PRIVATE_PEM =
  /-----BEGIN (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----|$)/g;
const PRIVATE_PEM_TEST = /-----BEGIN (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----/;
/** 12–19 digits, optionally grouped by single spaces or dashes, not touching other digits. */
const DIGIT_RUN = /(?<!\d[ -]?)\d(?:[ -]?\d){11,18}(?![ -]?\d)/g;
const FORM_CVV = new RegExp(`(^|[&?])${CVV_KEY}=[^&#\\s]*(&?)`, 'gi');
const JSON_CVV_AFTER = new RegExp(`,\\s*"${CVV_KEY}"\\s*:\\s*(?:"(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`, 'gi');
const JSON_CVV_BEFORE = new RegExp(`"${CVV_KEY}"\\s*:\\s*(?:"(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)\\s*,?`, 'gi');
const LINE_CVV = new RegExp(`^${CVV_KEY}\\s*[=:].*$`, 'gim');

export function isCvvName(name: string): boolean {
  return CVV_FIELDS.has(name) || CVV_NAME.test(name);
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A card-number field of the operation (or of any operation when the path is unknown). */
export function isPanName(name: string, operationPath?: string): boolean {
  const spec = operationPath ? findOperation(operationPath)?.fields.find((f) => f.name === name) : undefined;
  return spec ? spec.sensitive === 'pan' : PAN_FIELDS.has(name);
}

export function containsPrivateKey(text: string): boolean {
  return PRIVATE_PEM_TEST.test(text);
}

/**
 * Keeps the first six and last four digits of a card number, stars in between; separators stay.
 * Stars already there count as digit positions, so a masked number stays as it is.
 */
export function maskDigits(text: string): string {
  const n = (text.match(/[\d*]/g) ?? []).length;
  const head = n >= 12 ? 6 : 0;
  const tail = n > 4 ? 4 : 0;
  let i = 0;
  return text.replace(/[\d*]/g, (d) => {
    const at = i++;
    return at < head || at >= n - tail ? d : '*';
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

/** Removes CVV parameters from form-encoded, JSON and `key=value` line texts. */
export function dropCvvFromText(text: string): string {
  return text
    .replace(FORM_CVV, (_m, lead: string, trail: string) => (trail === '&' ? lead : ''))
    .replace(JSON_CVV_AFTER, '')
    .replace(JSON_CVV_BEFORE, '')
    .replace(LINE_CVV, '');
}

/** Everything free text goes through before it is kept or handed out. */
export function scrubText(text: string): string {
  return maskCardNumbers(dropCvvFromText(text).replace(PRIVATE_PEM, '[private key removed]'));
}

/** A body pair as it may be kept or leave the console: undefined when it must be dropped. */
export function maskPair(
  pair: { name: string; value: string },
  operationPath?: string,
): { name: string; value: string } | undefined {
  if (isCvvName(pair.name) || isSecretName(pair.name)) return undefined;
  if (isPanName(pair.name, operationPath)) return { name: pair.name, value: maskDigits(pair.value) };
  return { name: pair.name, value: scrubText(pair.value) };
}
