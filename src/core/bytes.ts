/** Byte helpers that run the same in browsers and Node (no Buffer). */
const utf8 = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  return utf8.encode(text) as Uint8Array<ArrayBuffer>;
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** Base64 text without its whitespace, or undefined when it is not padded standard Base64. */
export function base64Text(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]*={0,2}$/.test(clean) && clean.length % 4 === 0 ? clean : undefined;
}

/** Decodes standard Base64 (whitespace ignored); returns undefined for anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  const clean = base64Text(text);
  if (clean === undefined) return undefined;
  const bin = atob(clean);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Compares two strings in time that depends only on their lengths, not on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = utf8Bytes(a);
  const y = utf8Bytes(b);
  let diff = x.length ^ y.length;
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
