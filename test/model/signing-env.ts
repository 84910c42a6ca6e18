/** One signing environment for the model's tests: real Web Crypto, a real RSA key, a fixed clock. */
import { generateKeyPairSync } from 'node:crypto';
import { webCryptoPort, type NonceSource } from '../../src/core/index.ts';
import type { Place, SigningEnv } from '../../src/model/index.ts';

export const PLACE: Place = {
  origin: 'http://127.0.0.1:4451',
  inboxUrl: 'http://127.0.0.1:4451/callbacks/s-abcdefgh',
  login: 'demo-merchant',
};
export const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
export const BASE_URL = 'https://sandbox.example.com/paynet';

/** A counter, so that an unpinned build draws a known, different nonce each time. */
export function counterNonce(): NonceSource {
  let n = 0;
  return () => `n${(n += 1).toString().padStart(8, '0')}`;
}

export const RSA = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

function pemBody(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

export const PRIVATE_KEY = await crypto.subtle.importKey(
  'pkcs8',
  pemBody(RSA.privateKey),
  { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  false,
  ['sign'],
);

export function signingEnv(clockMs = 1_700_000_000_000): SigningEnv {
  return {
    place: PLACE,
    baseUrl: BASE_URL,
    endpoint: { kind: 'endpoint', id: '1111' },
    credentials: { login: PLACE.login, controlKey: CONTROL_KEY, privateKey: PRIVATE_KEY },
    runtime: { crypto: webCryptoPort(), nonce: counterNonce(), clock: () => clockMs },
  };
}
