import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paramsHash } from '../../../sandbox/engine/orders.ts';

const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;

/** How orders already in a database were hashed: a retry of one must still be recognised. */
function storedHash(path: string, params: ReadonlyMap<string, string>): string {
  const pairs = [...params.entries()]
    .filter(([n]) => n !== 'control')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([path, pairs]))
    .digest('hex');
}

describe(`the idempotency hash of a request's parameters (FC_SEED=${SEED})`, () => {
  it('is the hash orders were stored with, for any names and values', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constant('control'));
    fc.assert(
      fc.property(fc.string(), fc.array(fc.tuple(text, text), { maxLength: 12 }), (path, pairs) => {
        const params = new Map(pairs);
        expect(paramsHash({ op: { path } as never, params })).toBe(storedHash(path, params));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});
