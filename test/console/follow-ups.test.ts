import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { carriedIds, followUpDraft, followUpsFor } from '../../src/features/console/follow-ups.ts';

const op = (p: string) => findOperation(p)!;
const fresh = () => 'inv-new';

describe('follow-ups', () => {
  const sent = [
    { name: 'client_orderid', value: 'inv-1' },
    { name: 'amount', value: '10.42' },
    { name: 'currency', value: 'USD' },
  ];
  const answer = { type: 'async-response', 'merchant-order-id': 'inv-1', 'paynet-order-id': '5001' };

  it('carries client_orderid and paynet-order-id as orderid to capture, void, return and status', () => {
    const ups = followUpsFor(op('v2/preauth'), sent, answer, fresh);
    expect(ups.map((u) => u.path)).toEqual([
      'v2/status',
      'v2/capture',
      'v2/void',
      'v2/return',
      'v2/create-card-ref',
    ]);
    for (const u of ups) {
      expect(u.draft.values.client_orderid).toBe('inv-1');
      expect(u.draft.values.orderid).toBe('5001');
      expect(u.draft.operation).toBe(u.path);
    }
    const capture = ups.find((u) => u.path === 'v2/capture')!;
    expect(capture.draft.values.amount).toBeUndefined();
  });

  it('opens make-rebill with cardrefid from card-ref-id and a new order id', () => {
    const ids = carriedIds(
      [
        { name: 'client_orderid', value: 'inv-1' },
        { name: 'orderid', value: '5001' },
      ],
      {
        type: 'create-card-ref-response',
        'card-ref-id': '9001',
      },
    );
    const p = followUpDraft(op('v2/make-rebill'), ids, fresh);
    expect(p.values.cardrefid).toBe('9001');
    expect(p.values.client_orderid).toBe('inv-new');
    expect(p.values.orderid).toBeUndefined();
    expect(p.values.amount).toBe('10.42');
    expect(p.values.login).toBeUndefined();
  });

  it('takes payout-check to payout-pay with the same ids', () => {
    const ups = followUpsFor(op('v4/payout-check'), sent, answer, fresh);
    const pay = ups.find((u) => u.path === 'v4/payout-pay')!;
    expect(pay.draft.values).toMatchObject({ client_orderid: 'inv-1', orderid: '5001' });
  });

  it('offers the 3DS uploads, spelled client-order-id, when a status answer shows a 3DS step', () => {
    const ups = followUpsFor(
      op('v2/status'),
      [{ name: 'client_orderid', value: 'inv-3' }],
      {
        type: 'status-response',
        status: 'processing',
        'paynet-order-id': '42',
        'redirect-to': 'http://x/acs',
      },
      fresh,
    );
    const cres = ups.find((u) => u.path === '3ds/v1/upload-cres-result')!;
    expect(cres.draft.values['client-order-id']).toBe('inv-3');
    expect(cres.draft.values.orderid).toBe('42');
    expect(ups.map((u) => u.path)).toContain('3ds/v1/upload-pares-result');
  });
});
