/**
 * Encrypted private keys decrypted with their passphrase (issue 10): keys encrypted by the
 * `openssl` CLI at test time (PKCS#8 PBES2 from `pkcs8 -topk8 -v2 aes-256-cbc` and from
 * `genpkey -aes-256-cbc`; traditional PKCS#1 `Proc-Type: 4,ENCRYPTED` with AES-256-CBC and 3DES).
 * The decrypted key must be the very key openssl holds: its PKCS#8 DER equals openssl's unencrypted
 * export, and its signatures equal `openssl dgst -sha256 -sign` byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptPrivateKey } from '../../src/core/keys/decrypt-key.ts';
import {
  isPayError,
  signRsaSha256,
  webCryptoPort,
  type BaseString,
  type PayErrorCode,
} from '../../src/core/index.ts';
import { importSigningKey, inspectKey } from '../../src/core/keys/key-containers.ts';
import { generateRsa, keyDir, openssl, opensslSignBase64, pemToDer } from '../oracles/openssl.ts';

const crypto = webCryptoPort();
const PASS = 'correct horse battery staple';
const MESSAGE =
  'POST&https%3A%2F%2Fsandbox.example%2Fapi%2Fv4%2Fpayout-check%2F1111&amount%3D1042' as BaseString;
const dir = keyDir('pay-encrypted-keys-');
const encrypted: Record<string, string> = {};
let plainPath = '';
let plainPkcs8Der: Buffer;

async function rejects(p: Promise<unknown>, code: PayErrorCode): Promise<Error> {
  try {
    await p;
  } catch (e) {
    expect(isPayError(e) ? e.code : e).toBe(code);
    return e as Error;
  }
  throw new Error(`expected ${code}, got success`);
}

beforeAll(() => {
  const key = generateRsa(dir.dir, 2048, 'enc');
  plainPath = key.pkcs8Path;
  plainPkcs8Der = pemToDer(key.pkcs8Pem);
  const pass = `pass:${PASS}`;
  openssl([
    'pkcs8',
    '-topk8',
    '-v2',
    'aes-256-cbc',
    '-in',
    plainPath,
    '-out',
    dir.path('p8.pem'),
    '-passout',
    pass,
  ]);
  openssl([
    'rsa',
    '-in',
    plainPath,
    '-traditional',
    '-aes256',
    '-out',
    dir.path('p1-aes.pem'),
    '-passout',
    pass,
  ]);
  openssl([
    'rsa',
    '-in',
    plainPath,
    '-traditional',
    '-des3',
    '-out',
    dir.path('p1-des3.pem'),
    '-passout',
    pass,
  ]);
  openssl([
    'genpkey',
    '-algorithm',
    'RSA',
    '-pkeyopt',
    'rsa_keygen_bits:2048',
    '-aes-256-cbc',
    '-pass',
    pass,
    '-out',
    dir.path('genpkey.pem'),
  ]);
  for (const n of ['p8', 'p1-aes', 'p1-des3', 'genpkey']) encrypted[n] = dir.read(`${n}.pem`);
}, 60_000);

afterAll(() => dir.remove());

describe('encrypted private keys', () => {
  it('the fixtures are what the issue names', () => {
    expect(encrypted.p8).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    expect(encrypted['p1-aes']).toMatch(
      /^-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,/,
    );
    expect(encrypted['p1-des3']).toMatch(/DEK-Info: DES-EDE3-CBC,/);
  });

  it.each(['p8', 'p1-aes', 'p1-des3'])(
    '%s: decrypts to the same PKCS#8 key openssl holds, and signs as openssl does',
    async (name) => {
      const pem = await decryptPrivateKey(encrypted[name]!, PASS, crypto);
      expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(pemToDer(pem).equals(plainPkcs8Der)).toBe(true);
      const k = await importSigningKey(pem, crypto);
      expect(await signRsaSha256(MESSAGE, k.key, crypto)).toBe(opensslSignBase64(plainPath, MESSAGE));
    },
  );

  it('a key encrypted by genpkey decrypts to what `openssl pkey -passin` gives', async () => {
    const pem = await decryptPrivateKey(encrypted.genpkey!, PASS, crypto);
    const plain = openssl(['pkey', '-in', dir.path('genpkey.pem'), '-passin', `pass:${PASS}`]).toString();
    expect(pemToDer(pem).equals(pemToDer(plain))).toBe(true);
  });

  it.each(['p8', 'p1-aes', 'p1-des3'])('%s: a wrong passphrase says so, and nothing else', async (name) => {
    const e = await rejects(
      decryptPrivateKey(encrypted[name]!, 'Correct horse battery staple', crypto),
      'KEY_PASSPHRASE_WRONG',
    );
    expect(e.message).toMatch(/^Wrong passphrase/);
  });

  it('an empty passphrase, a plain key and a pasted text around the key', async () => {
    await rejects(decryptPrivateKey(encrypted.p8!, '', crypto), 'KEY_PASSPHRASE_MISSING');
    await rejects(decryptPrivateKey(dir.read('enc.pkcs8.pem'), PASS, crypto), 'KEY_NOT_ENCRYPTED');
    const pasted = `Here is the key:\r\n${encrypted['p1-aes']!.replace(/\n/g, '\r\n')}\r\nthanks`;
    expect(pemToDer(await decryptPrivateKey(pasted, PASS, crypto)).equals(plainPkcs8Der)).toBe(true);
  });

  it('before decryption the key is named as encrypted, with what to do', async () => {
    const i = await inspectKey(encrypted.p8!, crypto);
    expect(i.kind).toBe('encrypted-private');
    expect(i.problem?.code).toBe('KEY_ENCRYPTED');
    expect(i.problem?.message).toMatch(/Decrypt it first: enter its passphrase beside the key/);
  });

  it('a decrypted 1024-bit key is refused as too short', async () => {
    const short = generateRsa(dir.dir, 1024, 'short');
    openssl([
      'pkcs8',
      '-topk8',
      '-v2',
      'aes-256-cbc',
      '-in',
      short.pkcs8Path,
      '-out',
      dir.path('short-enc.pem'),
      '-passout',
      `pass:${PASS}`,
    ]);
    const pem = await decryptPrivateKey(dir.read('short-enc.pem'), PASS, crypto);
    const i = await inspectKey(pem, crypto);
    expect(i.bits).toBe(1024);
    expect(i.problem?.code).toBe('KEY_TOO_SHORT');
    expect(i.problem?.message).toMatch(/^Refused: too short\. This RSA key has 1024 bits/);
    await rejects(importSigningKey(pem, crypto), 'KEY_TOO_SHORT');
  });
});

describe('messages that name the real state of a key', () => {
  it('a public key can verify, not sign', async () => {
    const e = await rejects(importSigningKey(dir.read('enc.spki.pem'), crypto), 'KEY_NOT_PRIVATE');
    expect(e.message).toMatch(/can verify, not sign/);
  });
});
