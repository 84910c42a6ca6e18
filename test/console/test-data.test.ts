import { describe, expect, it } from 'vitest';
import { OPERATIONS, findOperation, luhnValid } from '../../src/catalog/index.ts';
import { requestSchema } from '../../src/catalog/request-schema.ts';
import { emptyDraft, formFromDraft } from '../../src/model/index.ts';
import { freshOrderId, OUTCOMES, TEST_CARD, testDataFor } from '../../src/features/console/form/test-data.ts';

const now = new Date('2026-03-01T12:00:00Z');
const opts = (cvv = '123') => ({
  cvv,
  callbackUrl: 'http://127.0.0.1:4183/callbacks/s-abc',
  returnUrl: 'http://127.0.0.1:4183/return',
  now,
  orderId: 'inv-test-1',
});

describe('fill with test data', () => {
  it('uses the sandbox test card, the chosen CVV, a future expiry, the inbox and a fresh order id', () => {
    const v = testDataFor(findOperation('v2/sale')!, opts('321'));
    expect(v.credit_card_number).toBe(TEST_CARD);
    expect(luhnValid(TEST_CARD)).toBe(true);
    expect(v.cvv2).toBe('321');
    expect(v.expire_year).toBe('2029');
    expect(v.server_callback_url).toBe('http://127.0.0.1:4183/callbacks/s-abc');
    expect(v.client_orderid).toBe('inv-test-1');
    expect(v.login).toBeUndefined();
  });

  it('gives every operation a form that passes its own schema', () => {
    for (const op of OPERATIONS) {
      const place = { origin: 'http://127.0.0.1:4183', inboxUrl: opts().callbackUrl, login: 'demo-merchant' };
      const values = { ...formFromDraft(op, emptyDraft(op.path), place).values, ...testDataFor(op, opts()) };
      const r = requestSchema(op, () => now).safeParse(values);
      expect(
        r.success ? [] : r.error.issues.map((i) => `${op.path} ${String(i.path[0])}: ${i.message}`),
      ).toEqual([]);
    }
  });

  it('lists the sandbox outcomes by CVV', () => {
    expect(OUTCOMES.map((o) => o.cvv)).toEqual(['123', '321', '111', '217', '101', '116', '119', '209']);
  });

  it('draws order ids that differ and fit client_orderid', () => {
    const a = freshOrderId(1_700_000_000_000);
    const b = freshOrderId(1_700_000_000_000);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^inv-[a-z0-9]+-[a-z0-9]{6}$/);
    expect(a.length).toBeLessThanOrEqual(128);
  });
});
