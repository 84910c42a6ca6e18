import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.ts';
import { luhnChecksumValid as luhnValid } from '../../src/catalog/index.ts';
import { buildEntry, draftOfEntry, matchesSearch } from '../../src/features/history/build-entry.ts';
import {
  assertNothingSecret,
  dropCvvFromText,
  maskCardNumbers,
  maskDigits,
  maskExchange,
} from '../../src/features/history/mask-exchange.ts';

/** Luhn written independently: double every second digit from the right using a lookup table. */
const DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];
function oracleLuhn(digits: string): boolean {
  const rev = [...digits].reverse().map(Number);
  const total = rev.reduce((acc, d, i) => acc + (i % 2 ? DOUBLED[d]! : d), 0);
  return total % 10 === 0;
}
function withCheckDigit(body: string): string {
  for (let c = 0; c < 10; c++) if (oracleLuhn(body + c)) return body + c;
  throw new Error('unreachable');
}

const PAN = '4444444444444448';
const MASKED = '444444******4448';
const saleExchange = (over: Partial<Exchange> = {}): Exchange => ({
  operationPath: 'v2/sale',
  profileName: 'Local sandbox (demo)',
  targetName: 'local',
  sentAt: '2025-01-02T03:04:05.000Z',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:4183/sandbox/paynet/api/v2/sale/1111',
    headers: [
      { name: 'Accept', value: 'application/vnd.pay+json' },
      { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
    ],
    body: [
      { name: 'client_orderid', value: 'inv-42' },
      { name: 'amount', value: '10.42' },
      { name: 'email', value: 'john.smith@example.com' },
      { name: 'credit_card_number', value: PAN },
      { name: 'expire_month', value: '12' },
      { name: 'cvv2', value: '123' },
      { name: 'control', value: 'c6bdd88a78834ef4b863b088827a459f039e8257' },
    ],
  },
  response: {
    status: 200,
    elapsedMs: 12.5,
    headers: { 'content-type': 'application/vnd.pay+json' },
    body: JSON.stringify({
      type: 'async-response',
      'serial-number': '00000000-0000-0000-0000-000002d9b22a',
      'merchant-order-id': 'inv-42',
      'paynet-order-id': '6768788',
      echo: `credit_card_number=${PAN}&cvv2=123&amount=10.42`,
      cvv2: '123',
    }),
  },
  ...over,
});

describe('Luhn', () => {
  it('agrees with an independent implementation on random digit strings', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,19}$/), (s) => {
        expect(luhnValid(s)).toBe(oracleLuhn(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the sandbox test card and rejects a one-digit change', () => {
    expect(luhnValid(PAN)).toBe(true);
    expect(luhnValid('4444444444444449')).toBe(false);
  });
});

describe('maskCardNumbers', () => {
  it('masks every Luhn-valid 12–19 digit run embedded in text, keeping first six and last four', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 11, max: 18 }).chain((n) => fc.stringMatching(new RegExp(`^[1-9]\\d{${n - 1}}$`))),
        fc.stringMatching(/^[a-z =&":,{}]{0,12}$/),
        fc.stringMatching(/^[a-z =&":,{}]{0,12}$/),
        (body, before, after) => {
          const pan = withCheckDigit(body);
          const out = maskCardNumbers(`${before}${pan}${after}`);
          expect(out).not.toContain(pan);
          expect(out).toBe(
            `${before}${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}${after}`,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('masks grouped numbers and leaves non-card digit runs alone', () => {
    expect(maskCardNumbers('card 4444 4444 4444 4448 ok')).toBe('card 4444 44** **** 4448 ok');
    expect(maskCardNumbers('card 4444-4444-4444-4448')).toBe('card 4444-44**-****-4448');
    expect(maskCardNumbers('00000000-0000-0000-0000-000002d9b22a')).toBe(
      '00000000-0000-0000-0000-000002d9b22a',
    );
    expect(maskCardNumbers('4444444444444449')).toBe('4444444444444449');
    expect(maskCardNumbers('orderid 6768788, ts 1735787045')).toBe('orderid 6768788, ts 1735787045');
    expect(maskCardNumbers('44444444444444444448')).toBe('44444444444444444448');
  });

  it('masks a sensitive field value to first6…last4', () => {
    expect(maskDigits(PAN)).toBe(MASKED);
    expect(maskDigits('12345')).toBe('*2345');
  });
});

describe('dropCvvFromText', () => {
  it('removes CVV parameters from form bodies, JSON and key=value lines', () => {
    expect(dropCvvFromText('a=1&cvv2=123&b=2')).toBe('a=1&b=2');
    expect(dropCvvFromText('cvv2=123&b=2')).toBe('b=2');
    expect(dropCvvFromText('a=1&cvv2=123')).toBe('a=1');
    expect(dropCvvFromText('{"a":1,"cvv2":"123","b":2}')).toBe('{"a":1,"b":2}');
    expect(dropCvvFromText('{"cvv2":"123"}')).toBe('{}');
    expect(dropCvvFromText('{\n  "cvv": 1234\n}')).not.toMatch(/1234/);
    expect(dropCvvFromText('status=approved\ncvv2=321\n')).not.toMatch(/321/);
  });
});

describe('maskExchange', () => {
  it('masks the card number, drops cvv2 and scrubs the answer', () => {
    const { exchange, masked } = maskExchange(saleExchange());
    const card = exchange.request.body.find((p) => p.name === 'credit_card_number');
    expect(card?.value).toBe(MASKED);
    expect(exchange.request.body.some((p) => p.name === 'cvv2')).toBe(false);
    expect(masked.sort()).toEqual(['credit_card_number', 'cvv2']);
    const stored = JSON.stringify(exchange);
    expect(stored).not.toContain(PAN);
    expect(stored).not.toMatch(/cvv2?\\?"?\s*[:=]\s*\\?"?\d/i);
    expect(stored).toContain('00000000-0000-0000-0000-000002d9b22a');
    expect(stored).toContain('c6bdd88a78834ef4b863b088827a459f039e8257');
  });

  it('masks a Luhn-valid number in any body field, not only the catalog card fields', () => {
    const ex = saleExchange();
    ex.request.body.push({ name: 'comment', value: `paid with ${PAN}` });
    const { exchange, masked } = maskExchange(ex);
    expect(exchange.request.body.find((p) => p.name === 'comment')?.value).toBe(`paid with ${MASKED}`);
    expect(masked).toContain('comment');
  });

  it('never keeps a private key or secret-named fields', () => {
    const ex = saleExchange({ error: 'oops -----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n' });
    ex.request.body.push({ name: 'merchant_control_key', value: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20' });
    const { exchange } = maskExchange(ex);
    const stored = JSON.stringify(exchange);
    expect(stored).not.toContain('BEGIN PRIVATE KEY');
    expect(stored).not.toContain('B17F59B4-A7DC-41B4-8FF9-37D986B43D20');
  });

  it('refuses an entry that still holds a card number', () => {
    const ex = saleExchange();
    expect(() => assertNothingSecret(ex)).toThrow(/cvv|card number/i);
    const noCvv = {
      ...ex,
      request: { ...ex.request, body: ex.request.body.filter((p) => p.name !== 'cvv2') },
    };
    expect(() => assertNothingSecret(noCvv)).toThrow(/card number/);
  });
});

describe('history entries', () => {
  it('describes the answer with the catalog response schema', () => {
    const entry = buildEntry(saleExchange(), 'id-1');
    expect(entry).toMatchObject({
      version: 1,
      clientOrderId: 'inv-42',
      orderId: '6768788',
      outcome: 'async-response',
    });
    const forbidden = buildEntry(
      saleExchange({ response: { status: 403, elapsedMs: 1, headers: {}, body: '' } }),
      'id-2',
    );
    expect(forbidden.outcome).toBe('forbidden');
  });

  it('reopens an entry stored before the request model with card fields empty and the endpoint from the URL', () => {
    const entry = buildEntry(saleExchange(), 'id-1');
    const draft = draftOfEntry(entry);
    expect(draft.operation).toBe('v2/sale');
    // Withheld, never with their masked values: a re-send asks for them first.
    expect(draft.values.credit_card_number).toEqual({ withheld: 'card-number' });
    expect(draft.values.cvv2).toEqual({ withheld: 'cvv' });
    expect(draft.values.client_orderid).toBe('inv-42');
    expect(draft.values.amount).toBe('10.42');
    expect(draft.values).not.toHaveProperty('control');
    expect(JSON.stringify(draft)).not.toContain('*');
    expect(draft.endpoint).toEqual({ kind: 'endpoint', id: '1111' });
    const group = draftOfEntry({
      ...entry,
      request: { ...entry.request, url: 'http://x/paynet/api/v2/sale/group/42' },
    });
    expect(group.endpoint).toEqual({ kind: 'group', id: '42' });
  });

  it('keeps the sent draft (scheme, formula, placeholders, pinned values) without card data, and reopens it', () => {
    const sent: Exchange = saleExchange({
      operationPath: 'v2/payout-form',
      draft: {
        v: 2,
        operation: 'v2/payout-form',
        scheme: 'oauth-rsa-sha256',
        values: {
          client_orderid: 'pf-9',
          destination_card_no: PAN,
          server_callback_url: { place: 'callback-url' },
          order_desc: `card ${PAN}`,
        },
        extras: [{ name: 'cvv2', value: '123' }],
        pinned: { nonce: 'n-1', timestamp: '1700000000' },
      },
    });
    const entry = buildEntry(sent, 'id-2');
    expect(JSON.stringify(entry)).not.toContain(PAN);
    expect(draftOfEntry(entry)).toEqual({
      v: 2,
      operation: 'v2/payout-form',
      scheme: 'oauth-rsa-sha256',
      values: {
        client_orderid: 'pf-9',
        destination_card_no: { withheld: 'card-number' },
        server_callback_url: { place: 'callback-url' },
        order_desc: { withheld: 'card-number' },
      },
      // cvv2 was in the draft; credit_card_number only in this (made-up) exchange's body: both were
      // masked or dropped before storage, so both are asked for.
      extras: [
        { name: 'cvv2', value: { withheld: 'cvv' } },
        { name: 'credit_card_number', value: { withheld: 'card-number' } },
      ],
      pinned: { nonce: 'n-1', timestamp: '1700000000' },
    });
  });

  it('searches operation, client_orderid, status and target', () => {
    const entry = buildEntry(saleExchange(), 'id-1');
    expect(matchesSearch(entry, 'v2/sale')).toBe(true);
    expect(matchesSearch(entry, 'INV-42 local')).toBe(true);
    expect(matchesSearch(entry, 'async-response')).toBe(true);
    expect(matchesSearch(entry, 'preauth')).toBe(false);
  });
});
