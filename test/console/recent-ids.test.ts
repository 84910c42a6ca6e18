import { describe, expect, it } from 'vitest';
import { findOperation, OPERATIONS } from '../../src/catalog/index.ts';
import {
  candidatesFor,
  describeOrder,
  idValuesFor,
  knownStatus,
  RECENT_LIMIT,
  recordAnswer,
  sourcesOf,
  takesEarlierIds,
  type RecentOrder,
} from '../../src/features/console/follow-ups/recent-ids.ts';

const op = (p: string) => findOperation(p)!;
const ack = (orderId: string, clientId: string) => ({
  type: 'async-response',
  'paynet-order-id': orderId,
  'merchant-order-id': clientId,
});
const status = (orderId: string, s: string, extra: Record<string, string> = {}) => ({
  type: 'status-response',
  status: s,
  'paynet-order-id': orderId,
  ...extra,
});
const saleSent = (clientId: string) => [
  { name: 'client_orderid', value: clientId },
  { name: 'amount', value: '10.42' },
  { name: 'currency', value: 'USD' },
  { name: 'credit_card_number', value: '4444444444444448' },
  { name: 'cvv2', value: '123' },
];

function session(): RecentOrder[] {
  let l: RecentOrder[] = [];
  l = recordAnswer(l, 'v2/sale', saleSent('inv-s'), ack('100', 'inv-s'), '2026-01-01T10:00:00.000Z');
  l = recordAnswer(l, 'v2/preauth', saleSent('inv-p'), ack('200', 'inv-p'), '2026-01-01T10:01:00.000Z');
  l = recordAnswer(
    l,
    'v2/status',
    [
      { name: 'client_orderid', value: 'inv-p' },
      { name: 'orderid', value: '200' },
    ],
    status('200', 'approved'),
    '2026-01-01T10:02:00.000Z',
  );
  return l;
}

describe('ids from earlier answers', () => {
  it('keeps ids, amounts and status of each order, never card data', () => {
    const l = session();
    expect(l.map((o) => o.orderId)).toEqual(['200', '100']);
    expect(l[0]).toMatchObject({
      operations: ['v2/preauth'],
      clientOrderId: 'inv-p',
      amount: '10.42',
      currency: 'USD',
      status: 'approved',
    });
    expect(l[1]!.status).toBe('processing');
    const text = JSON.stringify(l);
    expect(text).not.toContain('4444444444444448');
    expect(text).not.toContain('cvv');
  });

  it('ignores refusals and answers without ids, and keeps at most the limit', () => {
    expect(recordAnswer([], 'v2/sale', saleSent('x'), { type: 'validation-error' }, 't')).toEqual([]);
    expect(recordAnswer([], 'v2/sale', saleSent('x'), { type: 'async-response' }, 't')).toEqual([]);
    let l: RecentOrder[] = [];
    for (let i = 0; i < RECENT_LIMIT + 5; i++)
      l = recordAnswer(l, 'v2/sale', saleSent(`inv-${i}`), ack(String(i), `inv-${i}`), 't');
    expect(l).toHaveLength(RECENT_LIMIT);
    expect(l[0]!.orderId).toBe(String(RECENT_LIMIT + 4));
  });

  it('derives what leads where from the catalog', () => {
    // make-rebill-preauth (issue 28) is a preauth on a stored card: capture follows it too.
    expect([...sourcesOf('v2/capture')].sort()).toEqual([
      'v2/make-rebill-preauth',
      'v2/preauth',
      'v2/preauth-form',
    ]);
    expect(sourcesOf('v4/payout-pay')).toEqual(new Set(['v4/payout-check']));
    const targets = OPERATIONS.filter(takesEarlierIds).map((o) => o.path);
    for (const p of [
      'v2/status',
      'v2/capture',
      'v2/void',
      'v2/return',
      'v4/payout-pay',
      'v2/make-rebill',
      'v2/get-card-info',
      '3ds/v1/upload-cres-result',
      '3ds/v1/upload-method-url-result',
      '3ds/v1/upload-pares-result',
    ])
      expect(targets).toContain(p);
  });

  it('fills capture with the approved preauth, status and return with the latest fitting order', () => {
    const l = session();
    expect(candidatesFor(op('v2/capture'), l).map((o) => o.orderId)).toEqual(['200']);
    expect(idValuesFor(op('v2/capture'), candidatesFor(op('v2/capture'), l)[0]!)).toEqual({
      client_orderid: 'inv-p',
      orderid: '200',
      amount: '10.42',
      currency: 'USD',
    });
    expect(candidatesFor(op('v2/status'), l)[0]!.orderId).toBe('200');
    // Return: the approved preauth comes before the sale still processing.
    expect(candidatesFor(op('v2/return'), l).map((o) => o.orderId)).toEqual(['200', '100']);
    expect(candidatesFor(op('v4/payout-pay'), l)).toEqual([]);
  });

  it('carries a card reference to get-card-info and rebill, which keeps its own new order id', () => {
    let l = session();
    l = recordAnswer(
      l,
      'v2/create-card-ref',
      [
        { name: 'client_orderid', value: 'inv-s' },
        { name: 'orderid', value: '100' },
      ],
      { type: 'create-card-ref-response', 'card-ref-id': '9001' },
      't',
    );
    expect(l[0]).toMatchObject({
      orderId: '100',
      cardRefId: '9001',
      operations: ['v2/sale', 'v2/create-card-ref'],
    });
    const rebill = op('v2/make-rebill');
    const best = candidatesFor(rebill, l)[0]!;
    const values = idValuesFor(rebill, best);
    expect(values.cardrefid).toBe('9001');
    expect(values.client_orderid).toBeUndefined();
    expect(idValuesFor(op('v2/get-card-info'), candidatesFor(op('v2/get-card-info'), l)[0]!)).toEqual({
      cardrefid: '9001',
    });
  });

  it('gives the 3-D Secure uploads the order a status answer says is waiting, spelled client-order-id', () => {
    let l = session();
    l = recordAnswer(l, 'v2/sale', saleSent('inv-3'), ack('300', 'inv-3'), 't');
    l = recordAnswer(
      l,
      'v2/status',
      [{ name: 'client_orderid', value: 'inv-3' }],
      status('300', 'processing', {
        'threeds-version': '2',
        'threeds-stage': 'method',
        'threeds-server-trans-id': 'tr-1',
      }),
      't',
    );
    l = recordAnswer(l, 'v2/sale', saleSent('inv-4'), ack('400', 'inv-4'), 't');
    const method = op('3ds/v1/upload-method-url-result');
    const best = candidatesFor(method, l)[0]!;
    expect(best.orderId).toBe('300');
    expect(idValuesFor(method, best)).toMatchObject({
      'client-order-id': 'inv-3',
      orderid: '300',
      threeDSServerTransID: 'tr-1',
    });
  });

  it('offers a 3-D Secure upload only the orders waiting for it, newest first', () => {
    const method = op('3ds/v1/upload-method-url-result');
    const waiting = (orderId: string) =>
      status(orderId, 'processing', { 'threeds-version': '2', 'threeds-stage': 'method' });
    let l: RecentOrder[] = [];
    const poll = (clientId: string, answer: unknown, at: string) =>
      (l = recordAnswer(l, 'v2/status', [{ name: 'client_orderid', value: clientId }], answer, at));
    l = recordAnswer(l, 'v2/sale', saleSent('inv-a'), ack('1', 'inv-a'), '2026-01-01T10:00:00.000Z');
    poll('inv-a', waiting('1'), '2026-01-01T10:00:05.000Z');
    // A final sale, a subscription's acknowledgement ("processing", no status yet), a sale never polled.
    l = recordAnswer(l, 'v2/sale', saleSent('inv-f'), ack('2', 'inv-f'), '2026-01-01T10:01:00.000Z');
    poll('inv-f', status('2', 'approved'), '2026-01-01T10:01:05.000Z');
    l = recordAnswer(
      l,
      'v4/create-recurring-payment',
      saleSent('inv-r'),
      ack('3', 'inv-r'),
      '2026-01-01T10:02:00.000Z',
    );
    l = recordAnswer(l, 'v2/sale', saleSent('inv-n'), ack('4', 'inv-n'), '2026-01-01T10:03:00.000Z');
    l = recordAnswer(l, 'v2/sale', saleSent('inv-b'), ack('5', 'inv-b'), '2026-01-01T10:04:00.000Z');
    poll('inv-b', waiting('5'), '2026-01-01T10:04:05.000Z');
    // Another tab's answer merged out of order: the picker still goes by time.
    l = [...l.filter((o) => o.orderId !== '1'), l.find((o) => o.orderId === '1')!].reverse();
    expect(candidatesFor(method, l).map((o) => o.orderId)).toEqual(['5', '1']);
    expect(candidatesFor(op('3ds/v1/upload-pares-result'), l)).toEqual([]);
  });

  it('keeps the status read when an identical resend repeats the acknowledgement', () => {
    const sent = saleSent('inv-u');
    // The sale's answer was lost (unknown outcome); a status check found it approved.
    let l = recordAnswer(
      [],
      'v2/status',
      [{ name: 'client_orderid', value: 'inv-u' }],
      status('7', 'approved'),
      't1',
    );
    expect(knownStatus(l, 'v2/sale', sent, ack('7', 'inv-u'))).toBe('approved');
    l = recordAnswer(l, 'v2/sale', sent, ack('7', 'inv-u'), 't2');
    expect(l[0]).toMatchObject({ orderId: '7', status: 'approved', operations: ['v2/status', 'v2/sale'] });
    expect(knownStatus(l, 'v2/sale', sent, ack('7', 'inv-u'))).toBe('approved');
    // A new operation on the order is news: its acknowledgement's "processing" counts.
    expect(knownStatus(l, 'v2/return', sent, ack('7', 'inv-u'))).toBeUndefined();
    l = recordAnswer(l, 'v2/return', sent, ack('7', 'inv-u'), 't3');
    expect(l[0]!.status).toBe('processing');
    expect(knownStatus(session(), 'v2/sale', saleSent('inv-new'), ack('900', 'inv-new'))).toBeUndefined();
  });

  it('names an order by operation, ids, amount, status and time', () => {
    const line = describeOrder(session()[0]!, () => '10:02');
    expect(line).toBe('Preauth · order 200 · inv-p · 10.42 USD · approved · 10:02');
  });
});
