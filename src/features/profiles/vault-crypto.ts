import { z } from 'zod/mini';
import { fromBase64, toBase64, utf8Bytes } from '../../core/index.ts';
import { IV_BYTES, SALT_BYTES, VAULT_MIN_ITERATIONS, type VaultRecord } from './vault-record.ts';

export { VAULT_MIN_ITERATIONS, VaultRecordSchema, type VaultRecord } from './vault-record.ts';

const AAD = utf8Bytes('pay-console/secrets/v1');

export const ProfileSecretsSchema = z.object({
  controlKey: z._default(z.string(), ''),
  privateKeyPem: z._default(z.string(), ''),
});
export type ProfileSecrets = z.infer<typeof ProfileSecretsSchema>;

export const VaultPlaintextSchema = z.object({
  version: z.literal(1),
  profiles: z.record(z.string(), ProfileSecretsSchema),
});
export type VaultPlaintext = z.infer<typeof VaultPlaintextSchema>;

export interface VaultKey {
  key: CryptoKey;
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
}

export class VaultError extends Error {
  override readonly name = 'VaultError';
  constructor(
    readonly code: 'WRONG_PASSPHRASE' | 'RECORD_DAMAGED' | 'PASSPHRASE_TOO_SHORT',
    message: string,
  ) {
    super(message);
  }
}

export const MIN_PASSPHRASE_LENGTH = 8;

function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

/** Derives the AES-256-GCM key from a passphrase with PBKDF2-SHA-256; a fresh 16-byte salt unless one is given. */
export async function deriveVaultKey(
  subtle: SubtleCrypto,
  passphrase: string,
  salt: Uint8Array<ArrayBuffer> = randomBytes(SALT_BYTES),
  iterations = VAULT_MIN_ITERATIONS,
): Promise<VaultKey> {
  if (iterations < VAULT_MIN_ITERATIONS)
    throw new RangeError(`PBKDF2 needs at least ${VAULT_MIN_ITERATIONS} iterations`);
  const material = await subtle.importKey('raw', utf8Bytes(passphrase.normalize('NFC')), 'PBKDF2', false, [
    'deriveKey',
  ]);
  const key = await subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
  return { key, salt, iterations };
}

/** Encrypts the secrets with a fresh random 12-byte IV on every call. */
export async function sealVault(
  subtle: SubtleCrypto,
  vaultKey: VaultKey,
  plaintext: VaultPlaintext,
  now: Date,
): Promise<VaultRecord> {
  const iv = randomBytes(IV_BYTES);
  const data = utf8Bytes(JSON.stringify(VaultPlaintextSchema.parse(plaintext)));
  const ciphertext = new Uint8Array(
    await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: AAD }, vaultKey.key, data),
  );
  return {
    version: 1,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: vaultKey.iterations, salt: toBase64(vaultKey.salt) },
    cipher: { name: 'AES-GCM', iv: toBase64(iv) },
    ciphertext: toBase64(ciphertext),
    updatedAt: now.toISOString(),
  };
}

/** Derives the key from the passphrase and decrypts; a wrong passphrase is a VaultError, never a crash. */
export async function openVault(
  subtle: SubtleCrypto,
  record: VaultRecord,
  passphrase: string,
): Promise<{ vaultKey: VaultKey; plaintext: VaultPlaintext }> {
  const salt = fromBase64(record.kdf.salt)!;
  const iv = fromBase64(record.cipher.iv)!;
  const ciphertext = fromBase64(record.ciphertext)!;
  const vaultKey = await deriveVaultKey(subtle, passphrase, salt, record.kdf.iterations);
  let clear: ArrayBuffer;
  try {
    clear = await subtle.decrypt({ name: 'AES-GCM', iv, additionalData: AAD }, vaultKey.key, ciphertext);
  } catch {
    throw new VaultError(
      'WRONG_PASSPHRASE',
      'Wrong passphrase: the secrets stay locked and nothing was changed. Try again, or use "Forget on this device" to start over.',
    );
  }
  const parsed = VaultPlaintextSchema.safeParse(safeJson(new TextDecoder().decode(clear)));
  if (!parsed.success) {
    throw new VaultError(
      'RECORD_DAMAGED',
      'The stored secrets decrypted but are not in the expected shape: use "Forget on this device" and enter them again.',
    );
  }
  return { vaultKey, plaintext: parsed.data };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function checkNewPassphrase(passphrase: string, repeat: string): string | null {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH)
    return `Use a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters.`;
  if (passphrase !== repeat) return 'The two passphrases differ: type the same passphrase twice.';
  return null;
}
