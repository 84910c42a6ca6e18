import { createHash, createHmac, KeyObject, sign, verify, webcrypto } from 'node:crypto';
import { base64Text } from '../core/bytes.ts';
import type { CryptoPort } from '../core/crypto-port.ts';

/**
 * The core's crypto port on `node:crypto` (Node only: the sandbox, the CLI, benches). Same results
 * as {@link webCryptoPort} (test/core/node-crypto-port.test.ts runs both over the known-answer
 * vectors), but synchronous underneath: in Node 20 a Web Crypto SHA-1 costs ~57 µs and an HMAC
 * ~200 µs (a thread-pool hop each), `node:crypto` ~5 µs and ~31 µs.
 */
export function nodeCryptoPort(subtle: SubtleCrypto = webcrypto.subtle as SubtleCrypto): CryptoPort {
  // A CryptoKey's KeyObject is made once: converting costs more than a verification.
  const keyObjects = new WeakMap<CryptoKey, KeyObject>();
  const keyObject = (key: CryptoKey): KeyObject => {
    let k = keyObjects.get(key);
    if (!k) {
      k = KeyObject.from(key as webcrypto.CryptoKey);
      keyObjects.set(key, k);
    }
    return k;
  };
  const rsa = (key: CryptoKey): void => {
    if (
      key.algorithm.name !== 'RSASSA-PKCS1-v1_5' ||
      (key.algorithm as RsaHashedKeyAlgorithm).hash.name !== 'SHA-256'
    )
      throw new TypeError(`The key is ${key.algorithm.name}, not RSASSA-PKCS1-v1_5 with SHA-256.`);
  };
  return {
    subtle,
    async sha1Hex(text) {
      return createHash('sha1').update(text, 'utf8').digest('hex');
    },
    async hmacSha1Base64(key, text) {
      return createHmac('sha1', Buffer.from(key, 'utf8')).update(text, 'utf8').digest('base64');
    },
    async rsaSha256SignBase64(key, text) {
      rsa(key);
      if (key.type !== 'private' || !key.usages.includes('sign'))
        throw new TypeError('The key cannot sign: use the private key imported for signing.');
      return sign('sha256', Buffer.from(text, 'utf8'), keyObject(key)).toString('base64');
    },
    async rsaSha256Verify(key, signatureBase64, text) {
      const sig = base64Bytes(signatureBase64);
      if (!sig) return false;
      rsa(key);
      if (!key.usages.includes('verify'))
        throw new TypeError('The key cannot verify: use the public key imported for verifying.');
      return verify('sha256', Buffer.from(text, 'utf8'), keyObject(key), sig);
    },
    async sha256Hex(bytes) {
      return createHash('sha256').update(bytes).digest('hex');
    },
  };
}

/** The core's `fromBase64` (the same text accepted: `base64Text`), decoded natively rather than through atob. */
function base64Bytes(text: string): Buffer | undefined {
  const clean = base64Text(text);
  return clean === undefined ? undefined : Buffer.from(clean, 'base64');
}
