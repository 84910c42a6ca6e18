import type { BaseString } from '../brands.ts';
import type { CryptoPort } from '../crypto-port.ts';
import { percentEncode } from '../percent-encode.ts';

/**
 * Step 5 of scheme O1: the HMAC key is the encoded consumer secret (merchant control key), `&`,
 * and the encoded token secret, which is empty.
 * @see api-description.md, Authentication, Scheme O1 step 3; RFC 5849 §3.4.2.
 */
export function hmacSigningKey(controlKey: string, tokenSecret = ''): string {
  return `${percentEncode(controlKey)}&${percentEncode(tokenSecret)}`;
}

/** Step 6 of scheme O1: Base64 HMAC-SHA1 of the base string. */
export function signHmacSha1(
  baseString: BaseString,
  signingKey: string,
  crypto: CryptoPort,
): Promise<string> {
  return crypto.hmacSha1Base64(signingKey, baseString);
}

/**
 * Step 6 of scheme O2: Base64 RSASSA-PKCS1-v1_5 with SHA-256 over the UTF-8 bytes of the base
 * string, with the merchant private key. Deterministic: the same key and input give the same bytes.
 * @see api-description.md, Authentication, Scheme O2 step 2.
 */
export function signRsaSha256(
  baseString: BaseString,
  privateKey: CryptoKey,
  crypto: CryptoPort,
): Promise<string> {
  return crypto.rsaSha256SignBase64(privateKey, baseString);
}

/** Checks an O2 signature with the merchant public key (what the gateway, or support, can do). */
export function verifyRsaSha256(
  baseString: BaseString,
  signatureBase64: string,
  publicKey: CryptoKey,
  crypto: CryptoPort,
): Promise<boolean> {
  return crypto.rsaSha256Verify(publicKey, signatureBase64, baseString);
}
