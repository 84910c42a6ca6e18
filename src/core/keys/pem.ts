import { fromBase64 } from '../bytes.ts';
import { PayError } from '../errors.ts';
import {
  bitLength,
  DerError,
  readKeyShape,
  readRsaPrivateKey,
  readRsaPublicKey,
  type RsaPrivateNumbers,
} from './der.ts';

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

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;

/**
 * A damaged private key (one Base64 character changed inside a number) still parses as DER, and
 * Web Crypto then signs with it, wrongly. Checks that the numbers fit together (PKCS#1 §3.2):
 * n = p·q, e·d ≡ 1 mod p−1 and mod q−1, dP = d mod p−1, dQ = d mod q−1, q·qInv ≡ 1 mod p.
 */
function assertConsistent(k: RsaPrivateNumbers, kind: PemKind): void {
  const p1 = k.p - 1n;
  const q1 = k.q - 1n;
  const ed = k.e * k.d;
  const ok =
    k.p > 1n &&
    k.q > 1n &&
    k.e > 1n &&
    k.n === k.p * k.q &&
    mod(ed, p1) === 1n &&
    mod(ed, q1) === 1n &&
    k.dP === mod(k.d, p1) &&
    k.dQ === mod(k.d, q1) &&
    mod(k.q * k.qInv, k.p) === 1n;
  if (!ok) {
    throw new PayError(
      'KEY_MALFORMED',
      `The ${PEM_KIND_LABEL[kind]} is damaged: its numbers do not fit together, so it would sign wrongly. Copy it again, whole, or export it again from the original file.`,
      { field: 'key' },
    );
  }
}

const SHAPE_LABEL = {
  'rsa-public': 'an RSA public key',
  spki: 'a public key',
  certificate: 'a certificate',
} as const;

export interface ParsedKey {
  kind: PemKind;
  /** RSAPrivateKey DER (RFC 8017 A.1.2); present for private kinds. */
  rsaPrivateKey?: Uint8Array<ArrayBuffer>;
  /** RSAPublicKey DER (RFC 8017 A.1.1). */
  rsaPublicKey: Uint8Array<ArrayBuffer>;
  bits: number;
  /** Number of PEM blocks in the text (only the first is used). */
  blocks: number;
}

/**
 * Reads an RSA key of any supported container. Throws a PayError that names what was given and
 * what to do for garbage, encrypted keys, non-RSA keys and malformed DER.
 */
export function parseKey(text: string): ParsedKey {
  if (text.trim() === '')
    throw new PayError('KEY_EMPTY', 'No key given: paste a PEM key or choose a key file.', { field: 'key' });
  const block = firstPemBlock(text);
  if (!block) {
    throw new PayError(
      'KEY_GARBAGE',
      'This is not a PEM key: expected a block such as "-----BEGIN PRIVATE KEY-----" … "-----END PRIVATE KEY-----" with Base64 inside.',
      { field: 'key' },
    );
  }
  const kind = kindOfLabel(block.label, block.headers);
  const blocks = (text.match(/-----BEGIN /g) ?? []).length;
  if (kind === 'encrypted-private') {
    throw new PayError(
      'KEY_ENCRYPTED',
      'This private key is encrypted with a passphrase. Decrypt it first: `openssl pkey -in key.pem -out key-plain.pem` (it asks for the passphrase).',
      { field: 'key' },
    );
  }
  if (kind === 'unsupported') {
    throw new PayError(
      'KEY_NOT_RSA',
      `A "${block.label}" block is not an RSA key this gateway accepts: use an RSA key in PEM (PKCS#1 or PKCS#8).`,
      { field: 'key' },
    );
  }
  try {
    const shape = readKeyShape(block.der);
    if ('rsa' in shape && !shape.rsa) {
      throw new PayError(
        'KEY_NOT_RSA',
        `This ${PEM_KIND_LABEL[kind]} is not an RSA key (EC or Ed25519?): the gateway needs RSA, at least 2048 bits.`,
        { field: 'key' },
      );
    }
    const isPrivateLabel = kind === 'pkcs1-private' || kind === 'pkcs8-private';
    if ('rsaPrivateKey' in shape) {
      // The BEGIN line says private or public, and the DER must agree (a relabelled key is refused).
      if (!isPrivateLabel) throw new DerError(`the label says ${block.label} but it holds a private key`);
      const priv = readRsaPrivateKey(shape.rsaPrivateKey);
      assertConsistent(priv.numbers, kind);
      return {
        kind,
        rsaPrivateKey: priv.rsaPrivateKey,
        rsaPublicKey: priv.rsaPublicKey,
        bits: bitLength(priv.numbers.n),
        blocks,
      };
    }
    if (isPrivateLabel || (shape.shape === 'certificate') !== (kind === 'certificate'))
      throw new DerError(`the label says ${block.label} but it holds ${SHAPE_LABEL[shape.shape]}`);
    const pub = readRsaPublicKey(shape.rsaPublicKey);
    if (pub.e < 3n) throw new DerError('bad public exponent');
    return { kind, rsaPublicKey: shape.rsaPublicKey, bits: bitLength(pub.n), blocks };
  } catch (cause) {
    if (cause instanceof PayError) throw cause;
    throw new PayError(
      'KEY_MALFORMED',
      `The ${PEM_KIND_LABEL[kind]} could not be read (${cause instanceof DerError ? cause.message : 'its DER does not parse'}): copy it again, whole.`,
      { field: 'key', cause },
    );
  }
}
