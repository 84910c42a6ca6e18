import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import {
  canPollIn,
  carriedIds,
  followUpDraft,
  followUpPlan,
  followUpsFor,
  heldBackNote,
  orderStateOf,
} from '../../src/features/console/follow-ups/follow-ups.ts';

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
    const ups = followUpsFor(op('v2/preauth'), sent, answer, fresh, 'approved');
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
    expect(capture.draft.values.amount).toBe('');
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
    expect(p.values.login).toEqual({ place: 'login' });
  });

  it('takes payout-check to payout-pay with the same ids', () => {
    const ups = followUpsFor(op('v4/payout-check'), sent, answer, fresh, 'approved');
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

describe("follow-ups by the order's state (one table)", () => {
  const sent = [{ name: 'client_orderid', value: 'inv-1' }];
  const ack = { type: 'async-response', 'paynet-order-id': '5001', 'merchant-order-id': 'inv-1' };
  const status = (s: string) => ({ type: 'status-response', status: s, 'paynet-order-id': '5001' });
  const paths = (o: string, answer: unknown, state = orderStateOf(answer)) =>
    followUpsFor(op(o), sent, answer, fresh, state).map((u) => u.path);

  it('reads the state from an answer', () => {
    expect(orderStateOf(ack)).toBe('pending');
    expect(orderStateOf({ type: 'async-form-response' })).toBe('pending');
    expect(orderStateOf(status('processing'))).toBe('pending');
    expect(orderStateOf(status('unknown'))).toBe('pending');
    expect(orderStateOf(status('approved'))).toBe('approved');
    expect(orderStateOf(status('declined'))).toBe('declined');
    expect(orderStateOf(status('filtered'))).toBe('declined');
    expect(orderStateOf(status('error'))).toBe('error');
    expect(orderStateOf({ type: 'create-card-ref-response', 'card-ref-id': '9' })).toBe('none');
    expect(orderStateOf(undefined)).toBe('none');
  });

  it('offers capture and void only after an approved preauth', () => {
    expect(paths('v2/preauth', ack)).toEqual(['v2/status']);
    expect(paths('v2/preauth', status('approved'))).toEqual([
      'v2/status',
      'v2/capture',
      'v2/void',
      'v2/return',
      'v2/create-card-ref',
    ]);
    expect(paths('v2/preauth', status('declined'))).toEqual(['v2/status']);
  });

  it('offers no return under a declined or failed sale', () => {
    expect(paths('v2/sale', status('declined'))).not.toContain('v2/return');
    expect(paths('v2/sale', status('error'))).not.toContain('v2/return');
    expect(paths('v2/sale', status('approved'))).toContain('v2/return');
  });

  it('offers payout-pay only after an approved payout-check', () => {
    expect(paths('v4/payout-check', ack)).toEqual(['v2/status']);
    expect(paths('v4/payout-check', status('approved'))).toEqual(['v4/payout-pay', 'v2/status']);
  });

  it('polls only while the order is not final', () => {
    expect(canPollIn('pending')).toBe(true);
    for (const s of ['approved', 'declined', 'error', 'none'] as const) expect(canPollIn(s)).toBe(false);
  });

  it('keeps card-reference follow-ups, which do not depend on an order in progress', () => {
    expect(paths('v2/create-card-ref', { type: 'create-card-ref-response', 'card-ref-id': '9' })).toEqual([
      'v2/get-card-info',
      'v2/make-rebill',
    ]);
  });

  it('says why follow-ups are held back', () => {
    const plan = followUpPlan(op('v2/sale'), sent, status('declined'), fresh);
    expect(plan.heldBack).toEqual(['Return', 'Create card reference']);
    expect(heldBackNote(plan.heldBack, 'declined')).toMatch(/^No .*: the order was declined\.$/);
    expect(heldBackNote(['Capture'], 'pending')).toBe(
      'Capture: offered once the status is approved (poll the status).',
    );
    expect(heldBackNote([], 'declined')).toBeNull();
  });
});
