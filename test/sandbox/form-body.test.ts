import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFormBody, percentEncode } from '../../src/core/index.ts';
import { readFormBody } from '../../sandbox/http-input.ts';

/** Form-body text: encoded pairs, with raw `+`, stray `%`, bad UTF-8 escapes and empty parts mixed in. */
const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(percentEncode),
  fc.constantFrom('+', '%', '%2', '%zz', '%C3', '%C3%A9', '%E2%82', '%25', '%2B', '=', 'a+b', ''),
  fc.string({ maxLength: 6 }),
);
const part = fc.tuple(fc.array(piece, { maxLength: 3 }), fc.option(fc.array(piece, { maxLength: 3 })));
const body = fc
  .array(part, { maxLength: 8 })
  .map((parts) => parts.map(([n, v]) => (v === null ? n.join('') : `${n.join('')}=${v.join('')}`)).join('&'));

describe('readFormBody', () => {
  it('decodes each body exactly as the core does, whenever it accepts it', () => {
    fc.assert(
      fc.property(body, (text) => {
        const read = readFormBody(Buffer.from(text, 'utf8'));
        if (!read.ok) return;
        expect(read.body.pairs).toEqual(decodeFormBody(text));
        expect([...read.body.params]).toEqual(read.body.pairs.map((p) => [p.name, p.value]));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what it cannot decode, naming the parameter', () => {
    const bad = readFormBody(Buffer.from('amount=1&card=%C3', 'utf8'));
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(JSON.stringify(bad.reply.body)).toContain(
        'Parameter \\"card\\" is percent-encoded bytes that are not UTF-8',
      );
    const stray = readFormBody(Buffer.from('a=1%&b=2', 'utf8'));
    expect(stray.ok).toBe(false);
    const twice = readFormBody(Buffer.from('a=1&a=2', 'utf8'));
    expect(twice.ok).toBe(false);
    const good = readFormBody(Buffer.from('a+b=x+y%2B%C3%A9&c', 'utf8'));
    expect(good.ok && good.body.pairs).toEqual([
      { name: 'a b', value: 'x y+é' },
      { name: 'c', value: '' },
    ]);
  });
});
