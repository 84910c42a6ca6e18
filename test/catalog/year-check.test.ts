import { describe, expect, it } from 'vitest';
import { checkField, expiryInPast, findOperation, fullExpiryYear } from '../../src/catalog/index.ts';
import { requestAccepted, requestSchema } from '../../src/catalog/request-schema.ts';

const sale = findOperation('v2/sale')!;
const year = sale.fields.find((f) => f.name === 'expire_year')!;
const at2026 = new Date(Date.UTC(2026, 10, 24));

describe('the expiry year check', () => {
  it('reads the date it is given, and the clock only for a year', () => {
    expect(checkField(year, '2025', at2026)).toBe('expire_year 2025 is in the past: the card has expired.');
    expect(checkField(year, '2026', at2026)).toBeUndefined();
    expect(checkField(year, '20x6', at2026)).toBe('expire_year must be a year, e.g. 2029 or 29 (20YY).');
    expect(checkField(year, '123', at2026)).toMatch(/must be a year/);
    // Without a date, a year is checked against today's.
    expect(checkField(year, String(new Date().getUTCFullYear() - 1))).toMatch(/is in the past/);
    expect(checkField(year, '9999')).toBeUndefined();
  });

  it('uses the clock the request schema was given', () => {
    const schema = requestSchema(sale, () => at2026);
    const issues = (values: Record<string, string>) => {
      const r = schema.safeParse(values);
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    const base = { expire_month: '12', expire_year: '2025' };
    expect(issues(base)).toContain('expire_year 2025 is in the past: the card has expired.');
    expect(issues({ ...base, expire_year: '2027' }).some((m) => m.includes('expire_year'))).toBe(false);
  });

  // gateway-notes.md: the vendor's v2 SDK allows only 1–2 digits, so the gateway reads 20YY.
  it('reads a two-digit year as 20YY', () => {
    expect(checkField(year, '26', at2026)).toBeUndefined();
    expect(checkField(year, '30', at2026)).toBeUndefined();
    expect(checkField(year, '25', at2026)).toBe(
      'expire_year 25 (2025) is in the past: the card has expired.',
    );
    expect(checkField(year, '5', at2026)).toBe('expire_year 5 (2005) is in the past: the card has expired.');
    expect(fullExpiryYear('30')).toBe(2030);
    expect(fullExpiryYear('07')).toBe(2007);
    expect(fullExpiryYear('2031')).toBe(2031);
    expect(fullExpiryYear('203')).toBeUndefined();
    expect(expiryInPast('12', '30', at2026)).toBe(false);
    expect(expiryInPast('10', '26', at2026)).toBe(true);
    expect(expiryInPast('11', '26', at2026)).toBe(false);
  });

  it('names a past two-digit expiry with its full year, and accepts a future one', () => {
    const yearOnly = { fields: sale.fields.filter((f) => f.name.startsWith('expire_')) };
    const schema = requestSchema(yearOnly, () => at2026);
    const messages = (values: Record<string, string>) => {
      const r = schema.safeParse(values);
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(messages({ expire_month: '12', expire_year: '30' })).toEqual([]);
    // Before: "The card expired in 12/30" for a card that expires in 2030.
    expect(messages({ expire_month: '9', expire_year: '26' })).toEqual([
      'The card expired in 09/2026: use a future expiry.',
    ]);
    const values = new Map([
      ['expire_month', '12'],
      ['expire_year', '30'],
    ]);
    expect(requestAccepted(yearOnly, values, () => at2026)).toBe(true);
    expect(requestAccepted(yearOnly, new Map([...values, ['expire_year', '25']]), () => at2026)).toBe(false);
  });
});
