import { isValidAmount } from '../core/index.ts';
import type { FieldSpec } from './fields.ts';

/** The Luhn (mod 10) checksum of ISO/IEC 7812 over a string of digits of any length. */
export function luhnChecksumValid(digits: string): boolean {
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

/** A plausible card number: 12 to 19 digits with a valid Luhn checksum. */
export function luhnValid(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnChecksumValid(pan);
}

/**
 * Checks one value against its field spec; returns a sentence that says what to do, or undefined
 * when the value is fine. Shared by the console's form and the local sandbox.
 */
export function checkField(
  spec: FieldSpec,
  value: string | undefined,
  /** Only a year is checked against the date: the clock is read then, not on every field. */
  now?: Date,
): string | undefined {
  if (value === undefined || value === '') return spec.required ? `${spec.name} is required.` : undefined;
  if (spec.maxLength !== undefined && value.length > spec.maxLength) {
    return `${spec.name} is ${value.length} characters long; at most ${spec.maxLength} are allowed.`;
  }
  if (spec.minLength !== undefined && value.length < spec.minLength) {
    return `${spec.name} is too short: at least ${spec.minLength} characters.`;
  }
  switch (spec.type) {
    case 'amount':
      return isValidAmount(value)
        ? undefined
        : `${spec.name} "${value}" is not an amount: use digits with a dot and up to two decimals, e.g. 10.42.`;
    case 'currency':
      return /^[A-Z]{3}$/.test(value)
        ? undefined
        : `${spec.name} must be a three-letter ISO 4217 code in capitals, e.g. USD.`;
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
        ? undefined
        : `${spec.name} "${value}" is not an e-mail address.`;
    case 'pan': {
      const digits = value.replace(/[\s-]/g, '');
      if (!/^\d{12,19}$/.test(digits)) return `${spec.name} must be 12 to 19 digits.`;
      return luhnValid(digits)
        ? undefined
        : `${spec.name} fails the Luhn check: check the digits (test card 4444444444444448).`;
    }
    case 'cvv':
      return /^\d{3,4}$/.test(value) ? undefined : `${spec.name} must be 3 or 4 digits.`;
    case 'month':
      return /^(0?[1-9]|1[0-2])$/.test(value) ? undefined : `${spec.name} must be a month, 01 to 12.`;
    case 'year': {
      const year = (now ?? new Date()).getUTCFullYear();
      const full = fullExpiryYear(value);
      if (!full) return `${spec.name} must be a year, e.g. ${year + 3} or ${(year + 3) % 100} (20YY).`;
      if (full >= year) return undefined;
      return `${spec.name} ${value}${value.length < 4 ? ` (${full})` : ''} is in the past: the card has expired.`;
    }
    case 'digits':
      return /^-?\d+$/.test(value) ? undefined : `${spec.name} must be a whole number.`;
    case 'url':
      return /^https?:\/\/[^\s]+$/i.test(value) ? undefined : `${spec.name} must be an absolute http(s) URL.`;
    case 'country':
      return /^[A-Z]{2}$/.test(value)
        ? undefined
        : `${spec.name} must be an ISO 3166 alpha-2 code in capitals, e.g. US.`;
    case 'ip':
      return /^(\d{1,3}\.){3}\d{1,3}$/.test(value) || /^[0-9a-f:]+$/i.test(value)
        ? undefined
        : `${spec.name} "${value}" is not an IP address.`;
    case 'phone':
      return /^\+?[\d\s()-]{4,}$/.test(value) ? undefined : `${spec.name} must be a phone number (digits).`;
    case 'boolean':
      return /^(true|false)$/.test(value) ? undefined : `${spec.name} must be true or false.`;
    case 'enum':
      return spec.options?.includes(value)
        ? undefined
        : `${spec.name} must be one of ${spec.options?.join(', ')}.`;
    case 'date':
      return /^\d{8}$/.test(value) ? undefined : `${spec.name} must be a date as YYYYMMDD.`;
    case 'base64':
      return /^[A-Za-z0-9+/_=-]+$/.test(value.replace(/\s/g, ''))
        ? undefined
        : `${spec.name} must be Base64.`;
    case 'text':
      return undefined;
  }
}

/**
 * An expiry year as a full year: four digits as they are, one or two read as 20YY, as the gateway
 * does (gateway-notes.md: its v2 SDK sends `expire_year` as 1–2 digits, e.g. `'14'`); anything
 * else undefined.
 */
export function fullExpiryYear(year: string): number | undefined {
  if (/^\d{4}$/.test(year)) return Number(year);
  if (/^\d{1,2}$/.test(year)) return 2000 + Number(year);
  return undefined;
}

/** An expiry as the sentences show it, `MM/YYYY` (a two-digit year read as 20YY). */
export function formatExpiry(month: string, year: string): string {
  return `${month.padStart(2, '0')}/${fullExpiryYear(year) ?? year}`;
}

/** Checks that an expiry (month, year) is not in the past; a two-digit year is 20YY. */
export function expiryInPast(month: string, year: string, now: Date = new Date()): boolean {
  const m = Number(month);
  const y = fullExpiryYear(year) ?? Number(year);
  return y < now.getUTCFullYear() || (y === now.getUTCFullYear() && m < now.getUTCMonth() + 1);
}
