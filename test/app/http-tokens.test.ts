import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenizeHttpLine } from '../../src/ui/http-tokens.ts';

describe('tokenizeHttpLine (the plain raw-HTTP view)', () => {
  it('joined, the tokens are the line unchanged, for any line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (line) => {
        expect(
          tokenizeHttpLine(line)
            .map((t) => t.text)
            .join(''),
        ).toBe(line);
      }),
      { numRuns: 2000 },
    );
  });

  it('colours the request line, header names, parameter names, delimiters and escapes', () => {
    const kinds = (line: string) => tokenizeHttpLine(line).map((t) => [t.text, t.kind]);
    expect(kinds('POST /paynet/api/v2/sale/1111 HTTP/1.1')).toEqual([
      ['POST', 'keyword'],
      [' /paynet/api/v2/sale/1111 ', null],
      ['HTTP/1.1', 'keyword'],
    ]);
    expect(kinds('Content-Type: application/x-www-form-urlencoded')).toEqual([
      ['Content-Type', 'header'],
      [': application/x-www-form-urlencoded', null],
    ]);
    expect(kinds('amount=10.42&order_desc=%C3%A9')).toEqual([
      ['amount', 'name'],
      ['=', 'delimiter'],
      ['10.42', null],
      ['&', 'delimiter'],
      ['order_desc', 'name'],
      ['=', 'delimiter'],
      ['%C3', 'escape'],
      ['%A9', 'escape'],
    ]);
  });
});
