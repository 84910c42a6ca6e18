/**
 * The two roads a key takes: PKCS#8 and SPKI straight to Web Crypto, PKCS#1 keys and certificates
 * through node-forge first. Every container of keys of several sizes and exponents is compared with
 * what Node's `crypto` (OpenSSL) writes, byte for byte; a key under the wrong BEGIN line is refused.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPayError, signRsaSha256, webCryptoPort, type BaseString } from '../../src/core/index.ts';
import {
  importSigningKey,
  inspectKey,
  parseKey,
  toPkcs1Pem,
  toPkcs1PublicPem,
  toPkcs8Pem,
  toSpkiPem,
} from '../../src/core/keys/key-containers.ts';
import { nodeRsaSha256Base64 } from '../oracles/node-crypto.ts';

interface NodeKey {
  label: string;
  bits: number;
  pkcs8: Buffer;
  pkcs1: Buffer;
  spki: Buffer;
  pkcs1Public: Buffer;
}

const crypto = webCryptoPort();
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

describe('both roads against Node crypto (OpenSSL)', () => {
  it('every container of every key: size, and each conversion byte-identical to what OpenSSL writes', async () => {
    for (const k of keys) {
      const texts = {
        'pkcs8-private': pem('PRIVATE KEY', k.pkcs8),
        'pkcs1-private': pem('RSA PRIVATE KEY', k.pkcs1),
        'spki-public': pem('PUBLIC KEY', k.spki),
        'pkcs1-public': pem('RSA PUBLIC KEY', k.pkcs1Public),
      } as const;
      for (const [kind, text] of Object.entries(texts)) {
        const what = `${k.label} ${kind}`;
        const parsed = await parseKey(text, crypto);
        expect(parsed, what).toMatchObject({ kind, bits: k.bits });
        expect(Buffer.from(parsed.spki).equals(k.spki), what).toBe(true);
        expect(der(await toSpkiPem(text, crypto)).equals(k.spki), what).toBe(true);
        expect(der(await toPkcs1PublicPem(text, crypto)).equals(k.pkcs1Public), what).toBe(true);
        if (kind.endsWith('private')) {
          expect(der(await toPkcs8Pem(text, crypto)).equals(k.pkcs8), what).toBe(true);
          expect(der(await toPkcs1Pem(text, crypto)).equals(k.pkcs1), what).toBe(true);
        }
      }
    }
  });

  it('a key read either way signs as OpenSSL does', async () => {
    const message = 'POST&https%3A%2F%2Fsandbox.example.com%2Fv4%2Fpayout&amount%3D1.00' as BaseString;
    for (const k of keys) {
      const expected = nodeRsaSha256Base64(pem('PRIVATE KEY', k.pkcs8), message);
      for (const text of [pem('PRIVATE KEY', k.pkcs8), pem('RSA PRIVATE KEY', k.pkcs1)]) {
        const signing = await importSigningKey(text, crypto);
        expect(signing.bits).toBe(k.bits);
        expect(await signRsaSha256(message, signing.key, crypto), k.label).toBe(expected);
      }
    }
  });
});

describe('a key under the wrong BEGIN line is refused, with KEY_MALFORMED', () => {
  async function expectMalformed(text: string): Promise<void> {
    try {
      await parseKey(text, crypto);
    } catch (e) {
      expect(isPayError(e) && e.code, String(e)).toBe('KEY_MALFORMED');
      return;
    }
    throw new Error('accepted');
  }

  it('private under a public label, public under a private label, PKCS#1 under a PKCS#8 label', async () => {
    const k = keys[0]!;
    await expectMalformed(pem('PUBLIC KEY', k.pkcs8));
    await expectMalformed(pem('PRIVATE KEY', k.spki));
    await expectMalformed(pem('CERTIFICATE', k.spki));
    await expectMalformed(pem('PRIVATE KEY', k.pkcs1));
  });

  it('trailing bytes after the key', async () => {
    const k = keys[0]!;
    for (const [label, bytes] of [
      ['PRIVATE KEY', k.pkcs8],
      ['PUBLIC KEY', k.spki],
      ['RSA PRIVATE KEY', k.pkcs1],
      ['RSA PUBLIC KEY', k.pkcs1Public],
    ] as const) {
      await expectMalformed(pem(label, Buffer.concat([bytes, Buffer.from([0])])));
    }
  });

  it('inspectKey describes such a key without throwing', async () => {
    const info = await inspectKey(pem('PUBLIC KEY', keys[0]!.pkcs8), crypto);
    expect(info.problem?.code).toBe('KEY_MALFORMED');
    expect(info.fingerprint).toBeUndefined();
  });
});
