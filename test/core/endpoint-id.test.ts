import { describe, expect, it } from 'vitest';
import { checkEndpointId, INT64_MAX } from '../../src/core/index.ts';

const check = (id: string, kind: 'endpoint' | 'group' = 'endpoint') => checkEndpointId({ kind, id });

describe('endpoint id (int64 path parameter, api-description.md Resources)', () => {
  it('accepts whole numbers up to the largest int64', () => {
    for (const id of ['1', '1111', '0042', INT64_MAX, `000${INT64_MAX}`]) expect(check(id)).toBeNull();
    expect(INT64_MAX).toBe((2n ** 63n - 1n).toString());
  });

  it('names an empty id, non-digits and an id above int64, each saying what to do', () => {
    expect(check('')).toMatchObject({
      code: 'ENDPOINT_MISSING',
      message: 'No endpoint id: enter it in the profile, e.g. 1111.',
    });
    expect(check('12a')).toMatchObject({
      code: 'ENDPOINT_INVALID',
      message: 'The endpoint id "12a" must be a whole number (digits only), e.g. 1111.',
    });
    expect(check('-1', 'group')!.message).toMatch(/^The endpoint group id "-1" must be a whole number/);
    for (const id of ['9223372036854775808', '10000000000000000000', '99999999999999999999999']) {
      const p = check(id);
      expect(p?.code).toBe('ENDPOINT_OUT_OF_RANGE');
      expect(p?.message).toContain('larger than the largest int64 (9223372036854775807)');
    }
  });

  it('agrees with BigInt on the boundary', () => {
    const max = 2n ** 63n - 1n;
    for (const d of [-2n, -1n, 0n, 1n, 2n, 1000n]) {
      const n = max + d;
      expect(check(n.toString()) === null).toBe(n <= max);
    }
  });
});
