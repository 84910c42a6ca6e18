import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkNewPassphrase,
  deriveVaultKey,
  openVault,
  sealVault,
  VAULT_MIN_ITERATIONS,
  VaultError,
  VaultRecordSchema,
  type VaultPlaintext,
} from '../../src/features/profiles/vault-crypto.ts';

const subtle = webcrypto.subtle as SubtleCrypto;
const AAD = Buffer.from('pay-console/secrets/v1');
const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const plaintext: VaultPlaintext = {
  version: 1,
  profiles: {
    'p-1': {
      controlKey: CONTROL_KEY,
      privateKeyPem: '-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n',
    },
  },
};
const now = new Date('2025-01-02T03:04:05Z');

/** AES-256-GCM with Node's own crypto module, as an independent implementation. */
function nodeDecrypt(
  record: { kdf: { salt: string; iterations: number }; cipher: { iv: string }; ciphertext: string },
  passphrase: string,
): string {
  const key = pbkdf2Sync(
    passphrase,
    Buffer.from(record.kdf.salt, 'base64'),
    record.kdf.iterations,
    32,
    'sha256',
  );
  const data = Buffer.from(record.ciphertext, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(record.cipher.iv, 'base64'));
  d.setAAD(AAD);
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]).toString('utf8');
}

describe('the secrets vault', () => {
  it('writes a record Node crypto decrypts with PBKDF2-SHA-256 (≥ 600,000 rounds) and AES-256-GCM', async () => {
    const key = await deriveVaultKey(subtle, 'correct horse battery');
    const record = await sealVault(subtle, key, plaintext, now);
    expect(VaultRecordSchema.parse(record)).toEqual(record);
    expect(record.kdf.iterations).toBeGreaterThanOrEqual(600_000);
    expect(Buffer.from(record.kdf.salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(record.cipher.iv, 'base64')).toHaveLength(12);
    expect(JSON.parse(nodeDecrypt(record, 'correct horse battery'))).toEqual(plaintext);
  });

  it('reads a record Node crypto wrote', async () => {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const key = pbkdf2Sync('another passphrase', salt, VAULT_MIN_ITERATIONS, 32, 'sha256');
    const c = createCipheriv('aes-256-gcm', key, iv);
    c.setAAD(AAD);
    const body = Buffer.concat([c.update(JSON.stringify(plaintext), 'utf8'), c.final(), c.getAuthTag()]);
    const record = VaultRecordSchema.parse({
      version: 1,
      kdf: {
        name: 'PBKDF2',
        hash: 'SHA-256',
        iterations: VAULT_MIN_ITERATIONS,
        salt: salt.toString('base64'),
      },
      cipher: { name: 'AES-GCM', iv: iv.toString('base64') },
      ciphertext: body.toString('base64'),
      updatedAt: now.toISOString(),
    });
    const opened = await openVault(subtle, record, 'another passphrase');
    expect(opened.plaintext).toEqual(plaintext);
  });

  it('draws a fresh IV on every write and never holds the secrets in clear', async () => {
    const key = await deriveVaultKey(subtle, 'correct horse battery');
    const a = await sealVault(subtle, key, plaintext, now);
    const b = await sealVault(subtle, key, plaintext, now);
    expect(a.cipher.iv).not.toBe(b.cipher.iv);
    expect(a.kdf.salt).toBe(b.kdf.salt);
    const text = JSON.stringify(a);
    expect(text).not.toContain(CONTROL_KEY);
    expect(text).not.toContain(Buffer.from(CONTROL_KEY).toString('base64'));
    expect(text).not.toContain('PRIVATE KEY');
  });

  it('refuses a wrong passphrase with a clear message', async () => {
    const record = await sealVault(
      subtle,
      await deriveVaultKey(subtle, 'correct horse battery'),
      plaintext,
      now,
    );
    const failure = await openVault(subtle, record, 'wrong horse battery').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VaultError);
    expect((failure as VaultError).code).toBe('WRONG_PASSPHRASE');
    expect((failure as VaultError).message).toMatch(/Wrong passphrase.*nothing was changed/);
  });

  it('rejects records with weak parameters', () => {
    const weak = {
      version: 1,
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 100_000, salt: randomBytes(16).toString('base64') },
      cipher: { name: 'AES-GCM', iv: randomBytes(12).toString('base64') },
      ciphertext: 'AAAA',
      updatedAt: now.toISOString(),
    };
    expect(VaultRecordSchema.safeParse(weak).success).toBe(false);
    expect(
      VaultRecordSchema.safeParse({
        ...weak,
        kdf: { ...weak.kdf, iterations: 600_000, salt: randomBytes(8).toString('base64') },
      }).success,
    ).toBe(false);
    expect(VaultRecordSchema.safeParse({ ...weak, kdf: { ...weak.kdf, iterations: 600_000 } }).success).toBe(
      true,
    );
  });

  it('checks a new passphrase', () => {
    expect(checkNewPassphrase('short', 'short')).toMatch(/at least 8/);
    expect(checkNewPassphrase('long enough', 'long enougH')).toMatch(/differ/);
    expect(checkNewPassphrase('long enough', 'long enough')).toBeNull();
  });
});
