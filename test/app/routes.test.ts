import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/catalog/index.ts';
import { groupOperations, matchesQuery } from '../../src/app/catalog-search.ts';
import { opHref, parseRoute } from '../../src/app/routes.ts';

describe('routes', () => {
  it('gives every operation its own address and reads it back', () => {
    for (const op of OPERATIONS) expect(parseRoute(opHref(op.path))).toEqual({ kind: 'op', path: op.path });
    expect(parseRoute('/ops/3ds/v1/upload-cres-result')).toEqual({
      kind: 'op',
      path: '3ds/v1/upload-cres-result',
    });
    expect(parseRoute('/')).toEqual({ kind: 'home' });
    expect(parseRoute('/history/')).toEqual({ kind: 'history' });
    expect(parseRoute('/keys')).toEqual({ kind: 'keys' });
    expect(parseRoute('/saved')).toEqual({ kind: 'saved' });
    expect(parseRoute('/elsewhere')).toEqual({ kind: 'not-found', pathname: '/elsewhere' });
  });
});

describe('operation search', () => {
  it('groups all 35 operations under the eight group titles', () => {
    const groups = groupOperations(OPERATIONS);
    expect(groups.reduce((n, g) => n + g.ops.length, 0)).toBe(35);
    expect(groups.map((g) => g.title)).toEqual([
      'Payments',
      'Preauth and settlement',
      'Card references',
      'Recurring',
      'Payouts and transfers',
      'Hosted forms',
      '3-D Secure',
      'Status',
    ]);
  });
  it('filters by title, path and operation id, case-insensitively', () => {
    const find = (q: string) => OPERATIONS.filter((o) => matchesQuery(o, q)).map((o) => o.path);
    expect(find('PAYOUT_V4_CHECK')).toEqual(['v4/payout-check']);
    expect(find('v1/upload-cres')).toEqual(['3ds/v1/upload-cres-result']);
    expect(find('rebill')).toEqual(['v2/make-rebill', 'v2/make-rebill-sale', 'v2/make-rebill-preauth']);
    expect(find('card ref')).toEqual(['v2/create-card-ref', 'v2/transfer-by-ref', 'v4/create-card-ref']);
    expect(find('CARDINFO')).toEqual(['v2/get-card-info']);
    expect(find('')).toHaveLength(35);
  });
});
