/**
 * The catalogue of mistakes as data, and the signing recipe it transforms: the correct recipe signs
 * exactly as the core's buildRequest (property-based), so a mistaken one differs only by its mistake.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { buildRequest, webCryptoPort } from '../../src/core/index.ts';
import { generateKeyPair, importSigningKey } from '../../src/core/keys/key-containers.ts';
import {
  controlRecipeOf,
  diffText,
  MISTAKES,
  oauthBaseString,
  oauthRecipeOf,
  recipeSigningInput,
  signRecipe,
  type MistakeId,
} from '../../src/diagnose/index.ts';

const crypto = webCryptoPort();
const SPEC = resolve(import.meta.dirname, '../../docs/spec');

describe('the catalogue', () => {
  it('has unique ids and, for each mistake, a title, advice, a rule and a way to be found', () => {
    const ids = MISTAKES.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of MISTAKES) {
      expect(m.title.length, m.id).toBeGreaterThan(5);
      expect(m.advice.length, m.id).toBeGreaterThan(30);
      expect(m.rules.length, m.id).toBeGreaterThan(0);
      expect(m.schemes.length, m.id).toBeGreaterThan(0);
      if (m.detection.includes('variant') || m.teachingSwitch)
        expect(typeof m.transform, m.id).toBe('function');
    }
    const required: MistakeId[] = [
      'amount-major-units',
      'plus-for-space',
      'double-encoding',
      'unsorted-parameters',
      'default-port',
      'http-vs-https',
      'wrong-key',
      'key-swapped-with-login',
      'hmac-key-without-ampersand',
      'pkcs1-pkcs8-confusion',
      'endpoint-vs-group-id',
      'hyphen-vs-underscore',
      'field-missing-from-formula',
      'uppercase-hex',
      'stale-timestamp',
      'include-oauth-signature',
    ];
    for (const id of required) expect(ids).toContain(id);
  });

  it('every rule it quotes from api-description.md and gateway-notes.md is there, word for word', () => {
    const text: Record<string, string> = {
      'api-description.md': readFileSync(join(SPEC, 'api-description.md'), 'utf8'),
      'gateway-notes.md': readFileSync(join(SPEC, 'gateway-notes.md'), 'utf8'),
    };
    for (const m of MISTAKES) {
      for (const r of m.rules) {
        const doc = text[r.document];
        if (!doc) continue; // RFCs are quoted from outside the repository
        const flat = doc.replace(/\s+/g, ' ');
        for (const part of r.quote.split(' … '))
          expect(flat, `${m.id}: ${part}`).toContain(part.replace(/\s+/g, ' '));
        const heading = r.section.split(' › ')[0]!.replace(/`/g, '');
        expect(flat.replace(/`/g, ''), `${m.id}: section ${r.section}`).toContain(heading);
      }
    }
  });
});

const NAMES = ['amount', 'client_orderid', 'client-order-id', 'order_desc', 'email', 'a', 'B', 'z_z', 'x-y'];
const valueArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('two words', 'a+b', '50%', 'é ü', 'x&y=z', '!*()', '~._-'),
);
const paramsArb = fc.array(fc.record({ name: fc.constantFrom(...NAMES), value: valueArb }), {
  minLength: 1,
  maxLength: 6,
});

describe('the correct recipe signs exactly as buildRequest', () => {
  it('control: same concatenation, same SHA-1 (300 cases)', async () => {
    const op = findOperation('v2/sale')!;
    await fc.assert(
      fc.asyncProperty(paramsArb, fc.constantFrom('10.42', '0.29', '7', '100.5'), async (params, amount) => {
        const built = await buildRequest({
          operation: op,
          baseUrl: 'https://gw.example/paynet',
          endpoint: { kind: 'endpoint', id: '1111' },
          params: [...params.filter((p) => p.name !== 'amount'), { name: 'amount', value: amount }].map(
            (p) => ({ ...p, source: 'form' as const }),
          ),
          credentials: { login: 'shop', controlKey: 'k-1' },
          crypto,
          clock: () => 0,
          nonce: () => 'n',
        });
        if (built.signing.scheme !== 'control') throw new Error('control expected');
        const recipe = controlRecipeOf(built.signing);
        expect(recipeSigningInput(recipe)).toBe(built.signing.maskedInput);
        expect(await signRecipe(recipe, { login: 'shop', controlKey: 'k-1' }, crypto)).toBe(
          built.signing.signature,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('OAuth HMAC-SHA1: same base string, same signature (300 cases)', async () => {
    const op = findOperation('v2/payout')!;
    await fc.assert(
      fc.asyncProperty(
        paramsArb,
        fc.constantFrom(
          'https://gw.example/paynet',
          'http://127.0.0.1:4173/sandbox/paynet',
          'https://GW.example:8443/p',
        ),
        async (params, baseUrl) => {
          const built = await buildRequest({
            operation: op,
            baseUrl,
            endpoint: { kind: 'endpoint', id: '55' },
            params: params.map((p) => ({ ...p, source: 'form' as const })),
            credentials: { login: 'shop', controlKey: 'k+1/&' },
            crypto,
            clock: () => 1_700_000_000_000,
            nonce: () => 'nonce',
          });
          if (built.signing.scheme === 'control') throw new Error('OAuth expected');
          const recipe = oauthRecipeOf(built.signing, 'oauth-hmac-sha1');
          expect(oauthBaseString(recipe).baseString).toBe(built.signing.base.baseString);
          expect(await signRecipe(recipe, { login: 'shop', controlKey: 'k+1/&' }, crypto)).toBe(
            built.signing.signature,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('OAuth RSA-SHA256: same signature (25 cases)', async () => {
    const op = findOperation('v4/payout-check')!;
    const pair = await generateKeyPair(2048, crypto);
    const key = (await importSigningKey(pair.pkcs8Pem, crypto)).key;
    await fc.assert(
      fc.asyncProperty(paramsArb, async (params) => {
        const built = await buildRequest({
          operation: op,
          baseUrl: 'https://gw.example/paynet',
          endpoint: { kind: 'group', id: '7' },
          params: params.map((p) => ({ ...p, source: 'form' as const })),
          credentials: { login: 'shop', privateKey: key },
          crypto,
          clock: () => 1_700_000_000_000,
          nonce: () => 'nonce',
        });
        if (built.signing.scheme === 'control') throw new Error('OAuth expected');
        const recipe = oauthRecipeOf(built.signing, 'oauth-rsa-sha256');
        expect(await signRecipe(recipe, { login: 'shop', privateKey: key }, crypto)).toBe(
          built.signing.signature,
        );
      }),
      { numRuns: 25 },
    );
  });
});

describe('diffText', () => {
  const join = (segs: ReturnType<typeof diffText>, ops: string[]) =>
    segs
      .filter((s) => ops.includes(s.op))
      .map((s) => s.text)
      .join('');

  it('equal texts: one equal segment', () => {
    expect(diffText('abc', 'abc')).toEqual([{ op: 'equal', text: 'abc' }]);
  });

  it('one letter changed inside a pair shows as that letter', () => {
    const d = diffText('POST&u&a%3D1%26b%3Dxyz%26c%3D3', 'POST&u&a%3D1%26b%3Dxqz%26c%3D3');
    expect(d.filter((s) => s.op !== 'equal')).toEqual([
      { op: 'removed', text: 'y' },
      { op: 'added', text: 'q' },
    ]);
  });

  it('a pair added in the middle shows as that pair', () => {
    const d = diffText('a=1&c=3&d=4', 'a=1&b=2&c=3&d=4');
    expect(join(d, ['added'])).toBe('b=2&');
    expect(join(d, ['removed'])).toBe('');
  });

  it('both texts can be rebuilt from the segments (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        const d = diffText(a, b);
        expect(join(d, ['equal', 'removed'])).toBe(a);
        expect(join(d, ['equal', 'added'])).toBe(b);
      }),
      { numRuns: 500 },
    );
  });
});
