import { findOperation } from '../src/catalog/index.ts';
import type { CryptoPort } from '../src/core/index.ts';
import { importVerifyingKey } from '../src/core/keys/key-containers.ts';
import { verifySignature } from '../src/core/verify/verify-signature.ts';
import type { SandboxAttempt, SandboxHandle } from '../sandbox/hooks.ts';

/** A trainee's RSA key as the sandbox verifies it now, beside the one they joined with. */
export interface TraineeKeyState {
  login: string;
  current: {
    keyFingerprint: string;
    keyBits: number;
    /** When the trainee (or anyone) registered it (sandbox clock, ms); null: the key they joined with. */
    registeredAt: number | null;
  };
  joined: { keyFingerprint: string; keyBits: number };
  /** The sandbox verifies with the key they joined with already: a restore changes nothing. */
  joinedKeyInUse: boolean;
}

export function traineeKeyState(handle: SandboxHandle, login: string): TraineeKeyState | undefined {
  const now = handle.merchants.byLogin(login);
  const joined = handle.merchants.configuredOf(login);
  if (!now || !joined) return undefined;
  const joinedKeyInUse = now.keyFingerprint === joined.keyFingerprint;
  return {
    login,
    current: {
      keyFingerprint: now.keyFingerprint,
      keyBits: now.keyBits,
      registeredAt: joinedKeyInUse ? null : (handle.store.merchantKeys.of(login)?.updated_at ?? null),
    },
    joined: { keyFingerprint: joined.keyFingerprint, keyBits: joined.keyBits },
    joinedKeyInUse,
  };
}

/**
 * Whether a refused RSA-SHA256 request carries a good signature under one of the public keys a
 * trainer's restore replaced: then the refusal is the restore's doing, not the trainee's mistake.
 */
export async function signedWithReplacedKey(
  attempt: SandboxAttempt,
  replacedPems: readonly string[],
  crypto: CryptoPort,
): Promise<boolean> {
  if (attempt.scheme !== 'oauth-rsa-sha256' || !attempt.endpoint || !attempt.opPath || !attempt.authorization)
    return false;
  const op = findOperation(attempt.opPath);
  if (!op) return false;
  for (const pem of replacedPems) {
    try {
      const key = await importVerifyingKey(pem, crypto);
      const v = await verifySignature({
        request: {
          method: 'POST',
          url: attempt.url,
          headers: { authorization: attempt.authorization },
          body: attempt.bodyText,
        },
        operation: { path: op.path, scheme: 'oauth-rsa-sha256' },
        endpoint: attempt.endpoint,
        ...(attempt.merchant ? { login: attempt.merchant.login } : {}),
        publicKey: key.key,
        crypto,
      });
      if (v.ok) return true;
    } catch {
      // A key or request that cannot be read proves nothing: the ordinary diagnosis runs.
    }
  }
  return false;
}
