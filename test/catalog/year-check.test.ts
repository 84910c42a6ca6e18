import { describe, expect, it } from 'vitest';
import { checkField, findOperation, requestSchema } from '../../src/catalog/index.ts';

const sale = findOperation('v2/sale')!;
const year = sale.fields.find((f) => f.name === 'expire_year')!;
const at2026 = new Date(Date.UTC(2026, 10, 24));

describe('the expiry year check', () => {
  it('reads the date it is given, and the clock only for a year', () => {
    expect(checkField(year, '2025', at2026)).toBe('expire_year 2025 is in the past: the card has expired.');
    expect(checkField(year, '2026', at2026)).toBeUndefined();
    expect(checkField(year, '26', at2026)).toBe('expire_year must be a four-digit year, e.g. 2029.');
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
});
