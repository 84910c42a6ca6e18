import { fromBase64 } from '../bytes.ts';

/** What a pasted key text turned out to be. */
export type PemKind =
  | 'pkcs1-private'
  | 'pkcs8-private'
  | 'encrypted-private'
  | 'spki-public'
  | 'pkcs1-public'
  | 'certificate'
  | 'unsupported'
  | 'garbage';

export const PEM_KIND_LABEL: Record<PemKind, string> = {
  'pkcs1-private': 'PKCS#1 RSA private key (BEGIN RSA PRIVATE KEY)',
  'pkcs8-private': 'PKCS#8 private key (BEGIN PRIVATE KEY)',
  'encrypted-private': 'encrypted private key',
  'spki-public': 'public key, SPKI (BEGIN PUBLIC KEY)',
  'pkcs1-public': 'PKCS#1 RSA public key (BEGIN RSA PUBLIC KEY)',
  certificate: 'X.509 certificate (BEGIN CERTIFICATE)',
  unsupported: 'a PEM block of a kind this tool does not use',
  garbage: 'not a PEM key',
};

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/;

export interface PemBlock {
  label: string;
  headers: string;
  der: Uint8Array<ArrayBuffer>;
}

/** Finds the first PEM block in a text; undefined when there is none or its Base64 is broken. */
export function firstPemBlock(text: string): PemBlock | undefined {
  const m = BLOCK.exec(text.replace(/\r\n?/g, '\n'));
  if (!m) return undefined;
  const inner = m[2]!;
  // RFC 1421 headers (Proc-Type, DEK-Info) end at the first blank line.
  const split = /^([\s\S]*?:[\s\S]*?)\n\s*\n([\s\S]*)$/.exec(inner);
  const headers = split ? split[1]! : '';
  const der = fromBase64(split ? split[2]! : inner);
  if (!der || der.length === 0) return undefined;
  return { label: m[1]!, headers, der };
}

/** Wraps DER bytes as PEM with 64-character lines. */
export function toPem(label: string, der: Uint8Array): string {
  let bin = '';
  for (const b of der) bin += String.fromCharCode(b);
  const lines = btoa(bin).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The label-based kind of a block, before any parsing. */
export function kindOfLabel(label: string, headers: string): PemKind {
  switch (label) {
    case 'RSA PRIVATE KEY':
      return /Proc-Type:\s*4,\s*ENCRYPTED/i.test(headers) ? 'encrypted-private' : 'pkcs1-private';
    case 'PRIVATE KEY':
      return 'pkcs8-private';
    case 'ENCRYPTED PRIVATE KEY':
      return 'encrypted-private';
    case 'PUBLIC KEY':
      return 'spki-public';
    case 'RSA PUBLIC KEY':
      return 'pkcs1-public';
    case 'CERTIFICATE':
      return 'certificate';
    default:
      return 'unsupported';
  }
}

/** The DER of the rsaEncryption OID 1.2.840.113549.1.1.1, tag and length included. */
const RSA_ENCRYPTION_OID = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/** Offset of the content of the TLV at `at`, or -1 when the header does not fit. */
function contentAt(der: Uint8Array, at: number): number {
  const len = der[at + 1];
  if (len === undefined) return -1;
  const start = at + 2 + (len & 0x80 ? len & 0x7f : 0);
  return start <= der.length ? start : -1;
}

/** Offset just past the TLV at `at`, or -1 when its header does not fit. */
function endOf(der: Uint8Array, at: number): number {
  const start = contentAt(der, at);
  if (start < 0) return -1;
  const len = der[at + 1]!;
  let n = len;
  if (len & 0x80) {
    n = 0;
    for (let i = at + 2; i < start; i++) n = n * 256 + der[i]!;
  }
  return start + n;
}

/**
 * A sniff, not a parser: the algorithm a PKCS#8 PrivateKeyInfo (SEQUENCE { INTEGER,
 * SEQUENCE { OID … } … }) or an SPKI (SEQUENCE { SEQUENCE { OID … } … }) names: `rsa` for
 * rsaEncryption, `other` for any other OID, `unknown` when the bytes do not have that shape. It
 * only picks the error to give for an EC or Ed25519 key; Web Crypto's importKey reads and
 * validates the key itself.
 */
export function sniffKeyAlgorithm(der: Uint8Array, container: 'pkcs8' | 'spki'): 'rsa' | 'other' | 'unknown' {
  if (der[0] !== 0x30) return 'unknown';
  let at = contentAt(der, 0);
  if (container === 'pkcs8') {
    if (at < 0 || der[at] !== 0x02) return 'unknown';
    at = endOf(der, at);
  }
  if (at < 0 || der[at] !== 0x30) return 'unknown';
  const oid = contentAt(der, at);
  if (oid < 0 || der[oid] !== 0x06) return 'unknown';
  return RSA_ENCRYPTION_OID.every((b, i) => der[oid + i] === b) ? 'rsa' : 'other';
}

/**
 * Whether the outer DER value's length covers the bytes exactly. OpenSSL (Node's Web Crypto)
 * ignores bytes after a key and BoringSSL (Chromium's) refuses them; checked here so that the
 * command line, the sandbox and the browser say the same about a key.
 */
export function derFillsExactly(der: Uint8Array): boolean {
  return endOf(der, 0) === der.length;
}
