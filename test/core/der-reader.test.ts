/**
 * The core's own DER reader (src/core/keys/der.ts), which replaced node-forge on the key path,
 * against two independent implementations: Node's `crypto` (OpenSSL) for every container of keys
 * of several sizes and exponents, and node-forge for the numbers it reads. Also: the BER and
 * non-minimal encodings DER forbids are refused with KEY_MALFORMED.
 */
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  isPayError,
  parseKey,
  toPkcs1Pem,
  toPkcs1PublicPem,
  toPkcs8Pem,
  toSpkiPem,
} from '../../src/core/index.ts';
import { readRsaPrivateKey } from '../../src/core/keys/der.ts';

interface NodeKey {
  label: string;
  bits: number;
  pkcs8: Buffer;
  pkcs1: Buffer;
  spki: Buffer;
  pkcs1Public: Buffer;
}

const der = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
const pem = (label: string, bytes: Buffer) =>
  `-----BEGIN ${label}-----\n${bytes
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

const keys: NodeKey[] = [];
beforeAll(() => {
  for (const [bits, publicExponent] of [
    [2048, 65537],
    [2048, 3],
    [2050, 65537], // a modulus whose top byte is 0x02 or 0x03: not a multiple of 8 bits
    [3072, 65537],
    [4096, 65537],
  ] as const) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits, publicExponent });
    keys.push({
      label: `${bits} bits, e=${publicExponent}`,
      bits: privateKey.asymmetricKeyDetails!.modulusLength!,
      pkcs8: privateKey.export({ type: 'pkcs8', format: 'der' }),
      pkcs1: privateKey.export({ type: 'pkcs1', format: 'der' }),
      spki: publicKey.export({ type: 'spki', format: 'der' }),
      pkcs1Public: publicKey.export({ type: 'pkcs1', format: 'der' }),
    });
  }
}, 60_000);

describe('DER reader against Node crypto (OpenSSL)', () => {
  it('every container of every key: size, and each conversion byte-identical to what OpenSSL writes', () => {
    for (const k of keys) {
      const texts = {
        'pkcs8-private': pem('PRIVATE KEY', k.pkcs8),
        'pkcs1-private': pem('RSA PRIVATE KEY', k.pkcs1),
        'spki-public': pem('PUBLIC KEY', k.spki),
        'pkcs1-public': pem('RSA PUBLIC KEY', k.pkcs1Public),
      } as const;
      for (const [kind, text] of Object.entries(texts)) {
        const parsed = parseKey(text);
        expect(parsed, `${k.label} ${kind}`).toMatchObject({ kind, bits: k.bits });
        expect(Buffer.from(parsed.rsaPublicKey).equals(k.pkcs1Public), `${k.label} ${kind}`).toBe(true);
        expect(der(toSpkiPem(text)).equals(k.spki)).toBe(true);
        expect(der(toPkcs1PublicPem(text)).equals(k.pkcs1Public)).toBe(true);
        if (kind.endsWith('private')) {
          expect(der(toPkcs8Pem(text)).equals(k.pkcs8), `${k.label} ${kind}`).toBe(true);
          expect(der(toPkcs1Pem(text)).equals(k.pkcs1), `${k.label} ${kind}`).toBe(true);
        }
      }
    }
  });

  it('reads the same eight numbers as node-forge', () => {
    for (const k of keys) {
      const mine = readRsaPrivateKey(k.pkcs1).numbers;
      const theirs = forge.pki.privateKeyFromAsn1(
        forge.asn1.fromDer(forge.util.createBuffer(k.pkcs1.toString('binary'))),
      ) as forge.pki.rsa.PrivateKey;
      for (const name of ['n', 'e', 'd', 'p', 'q', 'dP', 'dQ', 'qInv'] as const)
        expect(mine[name].toString(16), `${k.label} ${name}`).toBe(theirs[name].toString(16));
      // …and OpenSSL agrees on the modulus.
      const jwk = createPrivateKey({ key: k.pkcs1, format: 'der', type: 'pkcs1' }).export({ format: 'jwk' });
      expect(mine.n.toString(16).padStart(2, '0')).toBe(
        Buffer.from(jwk.n!, 'base64url').toString('hex').replace(/^0+/, ''),
      );
    }
  });
});

describe('encodings DER forbids are refused, with KEY_MALFORMED', () => {
  function expectMalformed(text: string): void {
    try {
      parseKey(text);
    } catch (e) {
      expect(isPayError(e) && e.code, String(e)).toBe('KEY_MALFORMED');
      return;
    }
    throw new Error('accepted');
  }

  it('indefinite length (BER), a length with a leading zero byte, trailing bytes', () => {
    const spki = keys[0]!.spki;
    // 30 82 01 22 … → 30 80 … 00 00
    expectMalformed(
      pem('PUBLIC KEY', Buffer.concat([Buffer.from([0x30, 0x80]), spki.subarray(4), Buffer.from([0, 0])])),
    );
    // 30 82 01 22 → 30 83 00 01 22
    expectMalformed(pem('PUBLIC KEY', Buffer.concat([Buffer.from([0x30, 0x83, 0x00]), spki.subarray(2)])));
    expectMalformed(pem('PUBLIC KEY', Buffer.concat([spki, Buffer.from([0])])));
  });

  it('an INTEGER with a superfluous leading zero byte', () => {
    // RSAPublicKey { n, e } with e = 00 01 00 01 instead of 01 00 01.
    const pub = keys[0]!.pkcs1Public;
    const body = pub.subarray(4, pub.length - 5); // n's TLV
    const e = Buffer.from([0x02, 0x04, 0x00, 0x01, 0x00, 0x01]);
    const content = Buffer.concat([body, e]);
    const seq = Buffer.concat([
      Buffer.from([0x30, 0x82, content.length >> 8, content.length & 0xff]),
      content,
    ]);
    expectMalformed(pem('RSA PUBLIC KEY', seq));
  });

  it('a private key under a public label and a public key under a private label', () => {
    expectMalformed(pem('PUBLIC KEY', keys[0]!.pkcs8));
    expectMalformed(pem('PRIVATE KEY', keys[0]!.spki));
    expectMalformed(pem('CERTIFICATE', keys[0]!.spki));
  });
});
