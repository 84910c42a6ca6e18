import { describe, expect, it } from 'vitest';
import { exampleValues, OPERATIONS, placeholderOf } from '../../src/catalog/index.ts';

describe('placeholders cannot be mistaken for values', () => {
  it.each(OPERATIONS.map((op) => [op.path, op] as const))(
    'every text input of %s has a placeholder starting "e.g. "',
    (_path, op) => {
      const bad: string[] = [];
      for (const f of op.fields) {
        const p = placeholderOf(f, 'demo-merchant');
        if (f.type === 'enum' || f.type === 'boolean') {
          if (p !== null) bad.push(`${op.path} ${f.name}: a select has no placeholder`);
        } else if (p === null || !p.startsWith('e.g. ') || p.length <= 'e.g. '.length)
          bad.push(`${op.path} ${f.name}: ${String(p)}`);
      }
      expect(bad).toEqual([]);
    },
  );

  it('uses the catalog example, and names the profile for the login', () => {
    const sale = OPERATIONS.find((o) => o.path === 'v2/sale')!;
    const field = (n: string) => sale.fields.find((f) => f.name === n)!;
    expect(placeholderOf(field('client_orderid'))).toBe('e.g. inv-10001');
    expect(placeholderOf(field('amount'))).toBe('e.g. 10.42');
    expect(placeholderOf(field('site_url'))).toBe('e.g. https://shop.example.com');
    const status = OPERATIONS.find((o) => o.path === 'v2/status')!;
    const login = status.fields.find((f) => f.name === 'login')!;
    expect(placeholderOf(login, 'acme')).toBe('e.g. acme (from the profile)');
    expect(placeholderOf(login)).toBe('e.g. demo-merchant (from the profile)');
  });

  it('keeps placeholder-only samples out of "Fill with test data"', () => {
    const sale = OPERATIONS.find((o) => o.path === 'v2/sale')!;
    const values = exampleValues(sale);
    for (const name of ['site_url', 'destination', 'ssn', 'cell_phone']) expect(values[name]).toBeUndefined();
  });
});
