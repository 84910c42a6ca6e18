import { describe, expect, it } from 'vitest';
import { confirmedCauseOfCapture } from '../../classroom/diagnose-attempt.ts';
import { parseExercise, type Exercise } from '../../classroom/exercise-schema.ts';
import {
  brokenCapture,
  CAPTURE_MISTAKES,
  drawVariant,
  TEACHING_CONTROL_KEY,
} from '../../classroom/variants.ts';
import { nodeCryptoPort } from '../../src/node/node-crypto-port.ts';
import { sha1Hex } from '../proxy/signers.ts';

/*
 * Per-trainee variants (issue 32 §1): drawn from a seed per trainee and exercise, the same on every
 * draw, different between trainees; generated broken captures carry exactly the mistake drawn (the
 * diagnosis engine confirms it, and an independent SHA-1 reproduces it).
 */

const base = {
  id: 'v',
  title: 'T',
  goal: 'Leave exactly {amount} {currency}.',
  check: { kind: 'remaining', amount: '4.00', currency: 'USD' },
};
const parse = (over: Record<string, unknown>) =>
  parseExercise('v.json', JSON.stringify({ ...base, ...over }));

describe('the exercise file declares what varies (checked by its schema)', () => {
  it('accepts an amount range on a remaining check', () => {
    const ex = parse({ variants: { amount: { min: '1.00', max: '9.00', step: '0.50' } } });
    expect(ex.variants?.amount?.step).toBe('0.50');
  });
  it.each([
    [{ amount: { min: '9.00', max: '1.00' } }, 'v.json: variants.amount.max: min must be below max'],
    [{ amount: { min: '1', max: '9.00' } }, 'v.json: variants.amount.min: write an amount with two decimals'],
    [
      { capture: { operation: 'v2/capture', mistakes: ['uppercase-hex'] } },
      'a capture varies only for a check of kind diagnose-then-fix',
    ],
    [{ colour: 'red' }, 'v.json: variants'],
  ])('refuses %j', (variants, message) => {
    expect(() => parse({ variants })).toThrow(message);
  });
  it('refuses a capture mistake the question does not offer, and a non-control operation', () => {
    const quiz = {
      check: {
        kind: 'diagnose-then-fix',
        capture: 'POST /paynet/api/v2/capture/1 HTTP/1.1\r\n\r\na=b',
        captureControlKey: TEACHING_CONTROL_KEY,
        choices: ['uppercase-hex', 'wrong-key'],
        then: { operation: 'v2/capture' },
      },
    };
    expect(() =>
      parse({
        ...quiz,
        variants: { capture: { operation: 'v2/capture', mistakes: ['amount-major-units'] } },
      }),
    ).toThrow('amount-major-units is not among check.choices');
    expect(() =>
      parse({
        ...quiz,
        variants: { capture: { operation: 'v4/payout-check', mistakes: ['uppercase-hex'] } },
      }),
    ).toThrow('signed with control');
  });
});

describe('drawing', () => {
  const ex = parse({
    variants: { amount: { min: '1.00', max: '99.00', currencies: ['USD', 'EUR'] } },
  }) as Exercise;
  it('is the same for the same seed, trainee and exercise, and differs between trainees', () => {
    expect(drawVariant('seed', 'ann', ex)).toEqual(drawVariant('seed', 'ann', ex));
    const amounts = new Set(Array.from({ length: 20 }, (_, i) => drawVariant('seed', `t${i}`, ex)!.amount));
    expect(amounts.size).toBeGreaterThan(10);
    for (const a of amounts) expect(Number(a)).toBeGreaterThanOrEqual(1);
    expect(drawVariant('other seed', 'ann', ex)).not.toEqual(drawVariant('seed', 'ann', ex));
  });
});

describe('generated broken captures', () => {
  const values = {
    endpointId: '4321',
    clientOrderId: 'inv-7',
    orderId: '5000007',
    amount: '12.34',
    currency: 'EUR',
  };
  it('the right control reproduces with an independent SHA-1 when the mistake is undone', () => {
    const text = brokenCapture('v2/capture', 'amount-major-units', values);
    const control = /control=([0-9a-f]{40})/.exec(text)![1];
    expect(control).toBe(sha1Hex(`teacher-shopinv-7500000712.34EUR${TEACHING_CONTROL_KEY}`));
    const upper = /control=([0-9A-F]{40})/.exec(brokenCapture('v2/capture', 'uppercase-hex', values))![1];
    expect(upper).toBe(sha1Hex(`teacher-shopinv-750000071234EUR${TEACHING_CONTROL_KEY}`).toUpperCase());
  });

  it.each(CAPTURE_MISTAKES)('%s: the diagnosis engine confirms it, over several draws', async (mistake) => {
    for (const seed of ['a', 'b', 'c']) {
      const ex = parse({
        check: {
          kind: 'diagnose-then-fix',
          capture: 'POST /paynet/api/v2/capture/1 HTTP/1.1\r\n\r\na=b',
          captureControlKey: TEACHING_CONTROL_KEY,
          choices: [...CAPTURE_MISTAKES],
          then: { operation: 'v2/capture' },
        },
        variants: { capture: { operation: 'v2/capture', mistakes: [mistake] } },
      });
      const v = drawVariant(seed, 'ann', ex)!;
      expect(v.capture!.mistake).toBe(mistake);
      expect(await confirmedCauseOfCapture(v.capture!.text, TEACHING_CONTROL_KEY, nodeCryptoPort())).toBe(
        mistake,
      );
    }
  });
});
