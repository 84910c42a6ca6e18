/** Clock and nonce sources, injected so that a ticket's request can be reproduced exactly. */
export type Clock = () => number;

export type NonceSource = () => string;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A nonce source drawing 32 alphanumeric characters from a cryptographically secure generator
 * (rejection sampling, so every character is equally likely).
 */
export function secureNonceSource(
  getRandomValues: (a: Uint8Array<ArrayBuffer>) => Uint8Array = (a) => globalThis.crypto.getRandomValues(a),
  length = 32,
): NonceSource {
  return () => {
    let out = '';
    while (out.length < length) {
      const buf = getRandomValues(new Uint8Array(length * 2));
      for (const b of buf) {
        if (b < 248 && out.length < length) out += ALPHABET[b % 62];
      }
    }
    return out;
  };
}

/** OAuth `oauth_timestamp`: whole seconds since the epoch. */
export function toOAuthTimestamp(epochMillis: number): string {
  return Math.floor(epochMillis / 1000).toString();
}
