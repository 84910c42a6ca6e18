import { describe, expect, it } from 'vitest';
import { DRAFT_VERSION, type RequestDraft } from '../../src/model/index.ts';
import { unsignableValues } from '../../src/model/unsignable-values.ts';

const sale = (amount: string, over: Partial<RequestDraft> = {}): RequestDraft => ({
  v: DRAFT_VERSION,
  operation: 'v2/sale',
  values: { client_orderid: 'inv-1', amount, currency: 'EUR' },
  extras: [],
  ...over,
});

describe('unsignableValues', () => {
  it('names an amount the control formula cannot sign, with the core’s reason', () => {
    expect(unsignableValues(sale('10,5'))).toEqual([
      {
        name: 'amount',
        message: 'amount "10,5" uses a comma: write the decimal separator as a dot, e.g. 10.5.',
      },
    ]);
    expect(unsignableValues(sale('1.005'))[0]?.name).toBe('amount');
  });

  it('passes a decimal amount, an empty one and a variable left to resolve', () => {
    expect(unsignableValues(sale('10.50'))).toEqual([]);
    expect(unsignableValues(sale(''))).toEqual([]);
    expect(unsignableValues(sale('10'))).toEqual([]);
    expect(unsignableValues(sale('{{amount}}'))).toEqual([]);
  });
});
