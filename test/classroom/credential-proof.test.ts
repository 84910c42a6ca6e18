import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addProof,
  base58btc,
  didKeyOf,
  fromBase58btc,
  jcs,
  publicKeyOfDidKey,
  verifyProof,
} from '../../src/node/credential-proof.ts';

/* The certificates' proof (src/node/credential-proof.ts) against RFC 8785's own examples. */

describe('JCS (RFC 8785)', () => {
  it('serialises the RFC’s sample (§3.2.2) byte for byte', () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    expect(jcs(JSON.parse(input))).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('sorts members by UTF-16 code units (§3.2.3)', () => {
    const keys = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    expect(jcs(Object.fromEntries(keys.map((k) => [k, 0])))).toBe(
      `{${order.map((k) => `${JSON.stringify(k)}:0`).join(',')}}`,
    );
  });
});

describe('the proof', () => {
  it('base58btc keeps leading zero bytes', () => {
    const bytes = Uint8Array.from([0, 0, 1, 2, 255]);
    expect(base58btc(bytes).startsWith('11')).toBe(true);
    expect(fromBase58btc(base58btc(bytes))).toEqual(bytes);
  });

  it('signs with the did:key’s key and refuses a proof by another key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const did = didKeyOf(publicKey);
    expect(did).toMatch(/^did:key:z6Mk/);
    expect(publicKeyOfDidKey(did).export({ format: 'jwk' })).toEqual(publicKey.export({ format: 'jwk' }));
    const doc = { '@context': ['https://www.w3.org/ns/credentials/v2'], issuer: { id: did }, name: 'x' };
    const signed = addProof(doc, privateKey, did, '2026-01-01T00:00:00Z');
    expect(verifyProof(signed)).toEqual({ ok: true, issuer: did });
    // Another key claims the same issuer: the signature is not the issuer's.
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(verifyProof(addProof(doc, other, did, '2026-01-01T00:00:00Z'))).toMatchObject({ ok: false });
    // The proof's options are signed too.
    const moved = { ...signed, proof: { ...(signed.proof as object), created: '2027-01-01T00:00:00Z' } };
    expect(verifyProof(moved)).toMatchObject({ ok: false });
  });
});
