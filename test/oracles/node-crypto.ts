/** Node's own `crypto` module and hand-written parsers, as oracles independent of src/core. */
import { createHash, createHmac, sign } from 'node:crypto';

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function hmacSha1Base64(key: string, text: string): string {
  return createHmac('sha1', Buffer.from(key, 'utf8')).update(text, 'utf8').digest('base64');
}

/** RSASSA-PKCS1-v1_5 SHA-256 (Node's default padding for RSA keys), Base64. */
export function nodeRsaSha256Base64(privatePem: string, text: string): string {
  return sign('sha256', Buffer.from(text, 'utf8'), privatePem).toString('base64');
}

/**
 * Reads `OAuth a="1", b="2"` back into decoded pairs, in order, with a parser that shares
 * nothing with the core. Throws if the header is not of that exact shape.
 */
export function parseOAuthHeaderIndependently(header: string): Array<[string, string]> {
  if (!header.startsWith('OAuth ')) throw new Error(`not an OAuth header: ${header.slice(0, 20)}`);
  const body = header.slice('OAuth '.length);
  const out: Array<[string, string]> = [];
  for (const part of body.split(', ')) {
    const m = /^([A-Za-z0-9_.~%-]+)="([A-Za-z0-9_.~%-]*)"$/.exec(part);
    if (!m) throw new Error(`bad header pair: ${part}`);
    out.push([decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)]);
  }
  return out;
}
