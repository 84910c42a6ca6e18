import forge from 'node-forge';
import { fromBase64 } from '../bytes.ts';
import { PayError } from '../errors.ts';

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

const RSA_OID = '1.2.840.113549.1.1.1';
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

export function derToForgeAsn1(der: Uint8Array): forge.asn1.Asn1 {
  let bin = '';
  for (const b of der) bin += String.fromCharCode(b);
  return forge.asn1.fromDer(forge.util.createBuffer(bin));
}

export function forgeBytesToUint8(bytes: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}

/** The algorithm OID of a PKCS#8 PrivateKeyInfo or an SPKI SubjectPublicKeyInfo. */
function algorithmOid(asn: forge.asn1.Asn1, kind: 'pkcs8' | 'spki'): string | undefined {
  const seq = asn.value as forge.asn1.Asn1[];
  const alg = seq[kind === 'pkcs8' ? 1 : 0];
  const oid = Array.isArray(alg?.value) ? (alg.value[0] as forge.asn1.Asn1 | undefined) : undefined;
  return oid && typeof oid.value === 'string' ? forge.asn1.derToOid(oid.value) : undefined;
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

/**
 * A damaged private key (one Base64 character changed inside a number) still parses as DER, and
 * Web Crypto then signs with it, wrongly. Checks that the numbers fit together (PKCS#1 §3.2):
 * n = p·q, e·d ≡ 1 mod p−1 and mod q−1, dP = d mod p−1, dQ = d mod q−1, q·qInv ≡ 1 mod p.
 */
function assertConsistent(k: forge.pki.rsa.PrivateKey, kind: PemKind): void {
  const one = forge.jsbn.BigInteger.ONE;
  const p1 = k.p.subtract(one);
  const q1 = k.q.subtract(one);
  const ed = k.e.multiply(k.d);
  const ok =
    k.n.equals(k.p.multiply(k.q)) &&
    ed.mod(p1).equals(one) &&
    ed.mod(q1).equals(one) &&
    k.dP.equals(k.d.mod(p1)) &&
    k.dQ.equals(k.d.mod(q1)) &&
    k.q.multiply(k.qInv).mod(k.p).equals(one);
  if (!ok) {
    throw new PayError(
      'KEY_MALFORMED',
      `The ${PEM_KIND_LABEL[kind]} is damaged: its numbers do not fit together, so it would sign wrongly. Copy it again, whole, or export it again from the original file.`,
      { field: 'key' },
    );
  }
}

export interface ParsedKey {
  kind: PemKind;
  /** Present for private kinds. */
  privateKey?: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
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
  let asn: forge.asn1.Asn1;
  try {
    asn = derToForgeAsn1(block.der);
  } catch (cause) {
    throw new PayError(
      'KEY_MALFORMED',
      `The ${PEM_KIND_LABEL[kind]} is damaged (its DER does not parse): copy it again, whole.`,
      {
        field: 'key',
        cause,
      },
    );
  }
  if (
    (kind === 'pkcs8-private' || kind === 'spki-public') &&
    algorithmOid(asn, kind === 'pkcs8-private' ? 'pkcs8' : 'spki') !== RSA_OID
  ) {
    throw new PayError(
      'KEY_NOT_RSA',
      `This ${PEM_KIND_LABEL[kind]} is not an RSA key (EC or Ed25519?): the gateway needs RSA, at least 2048 bits.`,
      {
        field: 'key',
      },
    );
  }
  try {
    switch (kind) {
      case 'pkcs1-private':
      case 'pkcs8-private': {
        // forge unwraps a PKCS#8 PrivateKeyInfo itself.
        const privateKey = forge.pki.privateKeyFromAsn1(asn) as forge.pki.rsa.PrivateKey;
        assertConsistent(privateKey, kind);
        const publicKey = forge.pki.setRsaPublicKey(privateKey.n, privateKey.e);
        return { kind, privateKey, publicKey, bits: privateKey.n.bitLength(), blocks };
      }
      case 'spki-public':
      case 'pkcs1-public': {
        // forge reads both an SPKI and a bare PKCS#1 RSAPublicKey.
        const publicKey = forge.pki.publicKeyFromAsn1(asn) as forge.pki.rsa.PublicKey;
        return { kind, publicKey, bits: publicKey.n.bitLength(), blocks };
      }
      case 'certificate': {
        const cert = forge.pki.certificateFromAsn1(asn);
        const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
        if (!publicKey?.n) throw new Error('certificate without an RSA key');
        return { kind, publicKey, bits: publicKey.n.bitLength(), blocks };
      }
    }
  } catch (cause) {
    if (cause instanceof PayError) throw cause;
    throw new PayError(
      'KEY_MALFORMED',
      `The ${PEM_KIND_LABEL[kind]} could not be read (${String((cause as Error)?.message ?? cause)}): copy it again, whole.`,
      {
        field: 'key',
        cause,
      },
    );
  }
  throw new PayError('KEY_GARBAGE', 'Unrecognised key.', { field: 'key' });
}
