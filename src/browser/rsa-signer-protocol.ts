import { z } from 'zod/mini';
import type { CryptoPort } from '../core/index.ts';
import { errorText } from '../core/errors.ts';

/**
 * The messages between the page and its RSA signing worker. Requests go by `postMessage`; answers
 * come back on a BroadcastChannel of a per-page random name, because Chromium holds a worker's
 * `postMessage` back until the next frame after a keystroke (about 15 ms), and not a channel's.
 */
export const signerRequestSchema = z.discriminatedUnion('type', [
  /** First message: the channel the answers go to. */
  z.object({ type: z.literal('init'), channel: z.string().check(z.minLength(1)) }),
  /** A private key the page will sign with, sent once and named by `keyId` afterwards. */
  z.object({ type: z.literal('key'), keyId: z.int(), key: z.custom<CryptoKey>(isCryptoKey) }),
  z.object({ type: z.literal('sign'), id: z.int(), keyId: z.int(), text: z.string() }),
  /** The page dropped its keys (the vault was locked): so does the worker. */
  z.object({ type: z.literal('forget') }),
]);
export type SignerRequest = z.infer<typeof signerRequestSchema>;

export const signerAnswerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('signed'), id: z.int(), signature: z.string() }),
  z.object({ type: z.literal('failed'), id: z.int(), message: z.string() }),
]);
export type SignerAnswer = z.infer<typeof signerAnswerSchema>;

function isCryptoKey(v: unknown): v is CryptoKey {
  return typeof CryptoKey !== 'undefined' && v instanceof CryptoKey;
}

/** How many private keys the worker holds at most (the most recently sent). */
export const KEPT_KEYS = 4;

/**
 * The worker's side, without the worker: keeps the keys it is sent and answers each `sign` with the
 * same port call the page would make itself, so both give the same bytes.
 */
export function signerEndpoint(crypto: CryptoPort): {
  handle(message: unknown): Promise<SignerAnswer | { type: 'init'; channel: string } | null>;
} {
  const keys = new Map<number, CryptoKey>();
  return {
    async handle(message) {
      const parsed = signerRequestSchema.safeParse(message);
      if (!parsed.success) return null;
      const m = parsed.data;
      if (m.type === 'init') return m;
      if (m.type === 'forget') {
        keys.clear();
        return null;
      }
      if (m.type === 'key') {
        keys.set(m.keyId, m.key);
        // A private key stays here only while it is among the last few sent (and until the page
        // drops its keys: 'forget'). The page sends a key again when it is missing.
        for (const old of keys.keys()) if (keys.size > KEPT_KEYS) keys.delete(old);
        return null;
      }
      const key = keys.get(m.keyId);
      if (!key) return { type: 'failed', id: m.id, message: `no key ${m.keyId} in the signing worker` };
      try {
        return { type: 'signed', id: m.id, signature: await crypto.rsaSha256SignBase64(key, m.text) };
      } catch (e) {
        return { type: 'failed', id: m.id, message: errorText(e) };
      }
    },
  };
}
