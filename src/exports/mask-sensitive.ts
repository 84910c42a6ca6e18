import { luhnValid, OPERATIONS, findOperation } from '../catalog/index.ts';

/**
 * Defensive masking for everything that leaves the console (HAR files, share links): card numbers
 * to first six and last four digits, CVVs and secrets dropped. History masks its entries already;
 * exports mask again because an export must never depend on where its input came from.
 */

const CVV_FIELDS = new Set(
  OPERATIONS.flatMap((o) => o.fields.filter((f) => f.sensitive === 'cvv').map((f) => f.name)),
);
const PAN_FIELDS = new Set(
  OPERATIONS.flatMap((o) => o.fields.filter((f) => f.sensitive === 'pan').map((f) => f.name)),
);
const CVV_NAME = /^(?:card[_-]?)?(?:cvv2?|cvc2?|cvn|csc)(?:[_-]?code)?$/i;
const SECRET_NAME =
  /(?:control|merchant)[_-]?key|private[_-]?key|secret|passphrase|password|^cookie$|^set-cookie$/i;
const PRIVATE_PEM =
  /-----BEGIN (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:RSA |ENCRYPTED |EC )?PRIVATE KEY-----|$)/g;
/** 12–19 digits, optionally grouped by single spaces or dashes, not touching other digits. */
const DIGIT_RUN = /(?<!\d[ -]?)\d(?:[ -]?\d){11,18}(?![ -]?\d)/g;
const CVV_KEY = '(?:card[_-]?)?(?:cvv2?|cvc2?|cvn|csc)(?:[_-]?code)?';
const FORM_CVV = new RegExp(`(^|[&?])${CVV_KEY}=[^&#\\s]*(&?)`, 'gi');
const JSON_CVV = new RegExp(`"${CVV_KEY}"\\s*:\\s*(?:"(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`, 'gi');

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

/**
 * Keeps the first six and last four digits of a card number, stars in between. Stars already there
 * count as digit positions, so a masked number (`444444******4448`) stays as it is.
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

export function containsCardNumber(text: string): boolean {
  for (const m of text.matchAll(DIGIT_RUN)) if (luhnValid(m[0].replace(/[ -]/g, ''))) return true;
  return false;
}

/** Masks Luhn-valid card numbers, removes CVV parameters (form and JSON) and private keys from free text. */
export function scrubText(text: string): string {
  return text
    .replace(FORM_CVV, (_m, lead: string, trail: string) => (trail === '&' ? lead : ''))
    .replace(JSON_CVV, '"cvv-removed":""')
    .replace(PRIVATE_PEM, '[private key removed]')
    .replace(DIGIT_RUN, (run) => (luhnValid(run.replace(/[ -]/g, '')) ? maskDigits(run) : run));
}

/** A body pair as it may leave the console: undefined when it must be dropped. */
export function maskPair(
  pair: { name: string; value: string },
  operationPath?: string,
): { name: string; value: string } | undefined {
  if (isCvvName(pair.name) || isSecretName(pair.name)) return undefined;
  if (isPanName(pair.name, operationPath)) return { name: pair.name, value: maskDigits(pair.value) };
  return { name: pair.name, value: scrubText(pair.value) };
}
