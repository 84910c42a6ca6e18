/**
 * History actions (issue 10): copy as curl (checked by parsing the command back with the
 * debugger's own curl parser, an independent path), one entry as HAR, and the field-by-field
 * comparison of two entries.
 */
import { describe, expect, it } from 'vitest';
import { parseCurl } from '../../src/capture/parse-curl.ts';
import { buildEntry } from '../../src/features/history/build-entry.ts';
import { compareEntries, curlOfEntry, harOfEntry } from '../../src/features/history/entry-tools.ts';
import type { Exchange } from '../../src/model/exchange.ts';

const PAN = '4444444444444448';

const sale = (amount: string, orderId: string, status = 'approved'): Exchange => ({
  operationPath: 'v2/sale',
  profileName: 'Demo',
  targetName: 'local',
  sentAt: '2026-01-01T10:00:00.000Z',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:4173/sandbox/paynet/api/v2/sale/1111',
    headers: [
      { name: 'Accept', value: 'application/json' },
      { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
    ],
    body: [
      { name: 'client_orderid', value: orderId },
      { name: 'amount', value: amount },
      { name: 'credit_card_number', value: PAN },
      { name: 'cvv2', value: '123' },
      { name: 'order_desc', value: "it's a test & more" },
      { name: 'control', value: 'abc123' },
    ],
  },
  response: {
    status: 200,
    elapsedMs: 12,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'async-response', status, 'paynet-order-id': `g-${orderId}` }),
  },
});

describe('history entry tools', () => {
  const a = buildEntry(sale('10.42', 'inv-a'), 'a');
  const b = buildEntry(sale('12.00', 'inv-b', 'declined'), 'b');

  it('copy as curl gives the stored request, masked, that a curl parser reads back pair for pair', () => {
    const curl = curlOfEntry(a);
    expect(curl).not.toContain(PAN);
    expect(curl).not.toContain('cvv2');
    const parsed = parseCurl(curl);
    expect(parsed.url).toBe(a.request.url);
    expect(new URLSearchParams(parsed.body).get('order_desc')).toBe("it's a test & more");
    expect(new URLSearchParams(parsed.body).get('credit_card_number')).toBe('444444******4448');
    expect([...new URLSearchParams(parsed.body).keys()]).toEqual(a.request.body.map((p) => p.name));
  });

  it('exports one entry as HAR 1.2', () => {
    const har = harOfEntry(a);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(1);
    expect(JSON.stringify(har)).not.toContain(PAN);
    expect(har.log.entries[0]!.response.status).toBe(200);
  });

  it('compares two entries field by field and names what differs', () => {
    const rows = compareEntries(a, b);
    const changed = Object.fromEntries(rows.filter((r) => !r.same).map((r) => [r.label, [r.a, r.b]]));
    expect(changed).toEqual({
      'body client_orderid': ['inv-a', 'inv-b'],
      'body amount': ['10.42', '12.00'],
      'answer status': ['approved', 'declined'],
      'answer paynet-order-id': ['g-inv-a', 'g-inv-b'],
    });
    expect(rows.find((r) => r.label === 'body control')?.same).toBe(true);
    expect(compareEntries(a, a).every((r) => r.same)).toBe(true);
  });

  it('a field only one side has is shown as absent on the other', () => {
    const c = buildEntry(
      { ...sale('1.00', 'inv-c'), request: { ...sale('1.00', 'inv-c').request, body: [] } },
      'c',
    );
    const row = compareEntries(a, c).find((r) => r.label === 'body amount')!;
    expect(row).toEqual({ label: 'body amount', a: '10.42', b: undefined, same: false });
  });
});
