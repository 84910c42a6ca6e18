import { fromBase64, toBase64, toHex, utf8Bytes } from './bytes.ts';

/**
 * The cryptography the core needs, injected so that the core itself holds no global state.
 * {@link webCryptoPort} implements it with Web Crypto, which browsers and Node 20 both have.
 */
export interface CryptoPort {
  /** Lowercase hex SHA-1 of the UTF-8 bytes of `text`. */
  sha1Hex(text: string): Promise<string>;
  /** Base64 HMAC-SHA1 of the UTF-8 bytes of `text` under the UTF-8 bytes of `key`. */
  hmacSha1Base64(key: string, text: string): Promise<string>;
  /** Base64 RSASSA-PKCS1-v1_5 SHA-256 signature of the UTF-8 bytes of `text`. */
  rsaSha256SignBase64(key: CryptoKey, text: string): Promise<string>;
  /** Checks a Base64 RSASSA-PKCS1-v1_5 SHA-256 signature; false for a signature that is not Base64. */
  rsaSha256Verify(key: CryptoKey, signatureBase64: string, text: string): Promise<boolean>;
  /** SHA-256 of raw bytes, as lowercase hex. */
  sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string>;
  /** The SubtleCrypto behind the port, for key import, export and generation. */
  readonly subtle: SubtleCrypto;
}

export function webCryptoPort(subtle: SubtleCrypto = globalThis.crypto.subtle): CryptoPort {
  return {
    subtle,
    async sha1Hex(text) {
      return toHex(new Uint8Array(await subtle.digest('SHA-1', utf8Bytes(text))));
    },
    async hmacSha1Base64(key, text) {
      const k = await subtle.importKey('raw', utf8Bytes(key), { name: 'HMAC', hash: 'SHA-1' }, false, [
        'sign',
      ]);
      return toBase64(new Uint8Array(await subtle.sign('HMAC', k, utf8Bytes(text))));
    },
    async rsaSha256SignBase64(key, text) {
      return toBase64(new Uint8Array(await subtle.sign('RSASSA-PKCS1-v1_5', key, utf8Bytes(text))));
    },
    async rsaSha256Verify(key, signatureBase64, text) {
      const sig = fromBase64(signatureBase64);
      if (!sig) return false;
      return subtle.verify('RSASSA-PKCS1-v1_5', key, sig, utf8Bytes(text));
    },
    async sha256Hex(bytes) {
      return toHex(new Uint8Array(await subtle.digest('SHA-256', bytes)));
    },
  };
}
