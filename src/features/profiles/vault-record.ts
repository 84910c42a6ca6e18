import { z } from 'zod/mini';
import { fromBase64 } from '../../core/index.ts';

/*
 * The vault's stored record, apart from the crypto that seals and opens it: reading the record is
 * on every first load, the crypto only when someone remembers, unlocks or locks (vault-crypto.ts).
 */

export const VAULT_MIN_ITERATIONS = 600_000;
export const SALT_BYTES = 16;
export const IV_BYTES = 12;

const base64Of = (bytes: number) =>
  z
    .string()
    .check(
      z.refine((s) => fromBase64(s)?.length === bytes, { message: `expected ${bytes} bytes of Base64` }),
    );

export const VaultRecordSchema = z.object({
  version: z.literal(1),
  kdf: z.object({
    name: z.literal('PBKDF2'),
    hash: z.literal('SHA-256'),
    iterations: z.int().check(z.gte(VAULT_MIN_ITERATIONS)),
    salt: base64Of(SALT_BYTES),
  }),
  cipher: z.object({ name: z.literal('AES-GCM'), iv: base64Of(IV_BYTES) }),
  ciphertext: z.string().check(z.refine((s) => fromBase64(s) !== undefined, { message: 'expected Base64' })),
  updatedAt: z.string(),
});
export type VaultRecord = z.infer<typeof VaultRecordSchema>;
