/** The formula search's SHA-1 with a copyable state, against node:crypto (an independent SHA-1). */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sha1State } from '../../src/diagnose/sha1-state.ts';

describe('Sha1State', () => {
  it('gives node:crypto’s digest for any text split anywhere, after a copy', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.nat(), (text, cut) => {
        const bytes = new TextEncoder().encode(text);
        const at = bytes.length === 0 ? 0 : cut % bytes.length;
        const prefix = new Sha1State().update(bytes.subarray(0, at));
        const copy = prefix.clone();
        expect(copy.update(bytes.subarray(at)).hex()).toBe(createHash('sha1').update(bytes).digest('hex'));
        // The prefix's own state is untouched by its copy's.
        expect(prefix.update(bytes.subarray(at)).hex()).toBe(createHash('sha1').update(bytes).digest('hex'));
      }),
    );
  });
});
