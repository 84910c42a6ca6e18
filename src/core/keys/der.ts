/**
 * A strict reader and writer for the few DER structures RSA keys travel in (ITU-T X.690 §10):
 * RSAPrivateKey and RSAPublicKey (RFC 8017 A.1), PrivateKeyInfo (RFC 5208 §5),
 * SubjectPublicKeyInfo and the certificate around it (RFC 5280 §4.1). Small and synchronous, so
 * reading a pasted key needs no ASN.1 library on the page.
 */

export const TAG = {
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  SEQUENCE: 0x30,
  /** `[0]` constructed, context-specific (a certificate's version, PKCS#8 attributes). */
  CONTEXT_0: 0xa0,
} as const;

/** The DER of the rsaEncryption OID 1.2.840.113549.1.1.1, without tag and length. */
const RSA_ENCRYPTION_OID = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/** Thrown for bytes that are not the DER expected; callers turn it into a PayError. */
export class DerError extends Error {
  override name = 'DerError';
}

/** One tag-length-value, as offsets into the bytes it was read from. */
export interface Tlv {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the first content byte. */
  contentStart: number;
  /** Offset just past the last content byte. */
  end: number;
}

function readTlv(der: Uint8Array, at: number, limit: number): Tlv {
  if (at + 2 > limit) throw new DerError('truncated');
  const tag = der[at]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not used in keys');
  let len = der[at + 1]!;
  let contentStart = at + 2;
  if (len & 0x80) {
    const count = len & 0x7f;
    // 0x80 is BER's indefinite length; DER never uses it, and keys never need more than 4 length bytes.
    if (count === 0 || count > 4) throw new DerError('bad length');
    if (contentStart + count > limit) throw new DerError('truncated');
    len = 0;
    for (let i = 0; i < count; i++) len = len * 256 + der[contentStart + i]!;
    if (len < 0x80 || der[contentStart] === 0) throw new DerError('length not minimal');
    contentStart += count;
  }
  const end = contentStart + len;
  if (end > limit) throw new DerError('truncated');
  return { tag, start: at, contentStart, end };
}

/** Reads a whole DER buffer as one TLV; trailing bytes are an error. */
export function readDer(der: Uint8Array): Tlv {
  const tlv = readTlv(der, 0, der.length);
  if (tlv.end !== der.length) throw new DerError('trailing bytes');
  return tlv;
}

/** The TLVs inside a constructed value, which must fill it exactly. */
export function childrenOf(der: Uint8Array, parent: Tlv): Tlv[] {
  if (!(parent.tag & 0x20)) throw new DerError('not a constructed value');
  const out: Tlv[] = [];
  for (let at = parent.contentStart; at < parent.end;) {
    const t = readTlv(der, at, parent.end);
    out.push(t);
    at = t.end;
  }
  return out;
}

export function bytesOf(der: Uint8Array, t: Tlv): Uint8Array<ArrayBuffer> {
  return der.slice(t.start, t.end);
}

function contentOf(der: Uint8Array, t: Tlv): Uint8Array<ArrayBuffer> {
  return der.slice(t.contentStart, t.end);
}

function expectTag(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (!t || t.tag !== tag) throw new DerError(`expected ${what}`);
  return t;
}

/** A non-negative INTEGER in minimal encoding (X.690 §8.3.2) as a bigint. */
export function readUnsigned(der: Uint8Array, t: Tlv | undefined): bigint {
  const int = expectTag(t, TAG.INTEGER, 'an INTEGER');
  const n = int.end - int.contentStart;
  if (n === 0) throw new DerError('empty INTEGER');
  const first = der[int.contentStart]!;
  if (first & 0x80) throw new DerError('negative INTEGER');
  if (n > 1 && first === 0 && !(der[int.contentStart + 1]! & 0x80)) throw new DerError('INTEGER not minimal');
  let v = 0n;
  for (let i = int.contentStart; i < int.end; i++) v = (v << 8n) | BigInt(der[i]!);
  return v;
}

export function bitLength(v: bigint): number {
  return v === 0n ? 0 : v.toString(2).length;
}

/** Encodes a tag and content as DER. */
export function encodeTlv(tag: number, content: Uint8Array): Uint8Array<ArrayBuffer> {
  const len = content.length;
  const head: number[] = [tag];
  if (len < 0x80) head.push(len);
  else {
    const bytes: number[] = [];
    for (let l = len; l > 0; l = Math.floor(l / 256)) bytes.unshift(l % 256);
    head.push(0x80 | bytes.length, ...bytes);
  }
  const out = new Uint8Array(head.length + len);
  out.set(head, 0);
  out.set(content, head.length);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const RSA_ALGORITHM_ID = encodeTlv(
  TAG.SEQUENCE,
  concat([encodeTlv(TAG.OID, new Uint8Array(RSA_ENCRYPTION_OID)), encodeTlv(TAG.NULL, new Uint8Array(0))]),
);

/** Whether an AlgorithmIdentifier names rsaEncryption (its parameters must be NULL or absent). */
export function isRsaAlgorithm(der: Uint8Array, algorithm: Tlv | undefined): boolean {
  const alg = expectTag(algorithm, TAG.SEQUENCE, 'an AlgorithmIdentifier');
  const [oid, params, ...rest] = childrenOf(der, alg);
  const id = expectTag(oid, TAG.OID, 'an OID');
  if (rest.length > 0 || (params && (params.tag !== TAG.NULL || params.end !== params.contentStart)))
    return false;
  const content = der.subarray(id.contentStart, id.end);
  return content.length === RSA_ENCRYPTION_OID.length && RSA_ENCRYPTION_OID.every((b, i) => content[i] === b);
}

/** The numbers of an RSAPrivateKey (RFC 8017 A.1.2). */
export interface RsaPrivateNumbers {
  n: bigint;
  e: bigint;
  d: bigint;
  p: bigint;
  q: bigint;
  dP: bigint;
  dQ: bigint;
  qInv: bigint;
}

export interface RsaPrivateDer {
  numbers: RsaPrivateNumbers;
  /** The RSAPrivateKey DER itself (what PKCS#1 PEM holds). */
  rsaPrivateKey: Uint8Array<ArrayBuffer>;
  /** RSAPublicKey DER built from the same modulus and exponent TLVs. */
  rsaPublicKey: Uint8Array<ArrayBuffer>;
}

/** Reads RSAPrivateKey; two-prime keys only (version 0), as Web Crypto and the gateway take. */
export function readRsaPrivateKey(der: Uint8Array): RsaPrivateDer {
  const top = expectTag(readDer(der), TAG.SEQUENCE, 'a SEQUENCE');
  const items = childrenOf(der, top);
  if (items.length !== 9) throw new DerError('an RSAPrivateKey has nine INTEGERs');
  if (readUnsigned(der, items[0]) !== 0n) throw new DerError('multi-prime RSA keys are not supported');
  const [n, e, d, p, q, dP, dQ, qInv] = items.slice(1).map((t) => readUnsigned(der, t)) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return {
    numbers: { n, e, d, p, q, dP, dQ, qInv },
    rsaPrivateKey: bytesOf(der, top),
    rsaPublicKey: encodeTlv(TAG.SEQUENCE, concat([bytesOf(der, items[1]!), bytesOf(der, items[2]!)])),
  };
}

/** Reads RSAPublicKey (RFC 8017 A.1.1): modulus and public exponent. */
export function readRsaPublicKey(der: Uint8Array): { n: bigint; e: bigint } {
  const top = expectTag(readDer(der), TAG.SEQUENCE, 'a SEQUENCE');
  const items = childrenOf(der, top);
  if (items.length !== 2) throw new DerError('an RSAPublicKey has two INTEGERs');
  return { n: readUnsigned(der, items[0]), e: readUnsigned(der, items[1]) };
}

/** The shape of a DER key container, told apart by its first elements, whatever the PEM label says. */
export type DerShape =
  | { shape: 'rsa-private'; rsaPrivateKey: Uint8Array<ArrayBuffer> }
  | { shape: 'pkcs8'; rsa: boolean; rsaPrivateKey: Uint8Array<ArrayBuffer> }
  | { shape: 'rsa-public'; rsaPublicKey: Uint8Array<ArrayBuffer> }
  | { shape: 'spki'; rsa: boolean; rsaPublicKey: Uint8Array<ArrayBuffer> }
  | { shape: 'certificate'; rsa: boolean; rsaPublicKey: Uint8Array<ArrayBuffer> };

function readSpki(der: Uint8Array, spki: Tlv): { rsa: boolean; rsaPublicKey: Uint8Array<ArrayBuffer> } {
  const [alg, key, ...rest] = childrenOf(der, expectTag(spki, TAG.SEQUENCE, 'a SubjectPublicKeyInfo'));
  const bits = expectTag(key, TAG.BIT_STRING, 'a BIT STRING');
  if (rest.length > 0) throw new DerError('extra fields in SubjectPublicKeyInfo');
  if (bits.end === bits.contentStart || der[bits.contentStart] !== 0)
    throw new DerError('a key BIT STRING has no unused bits');
  return { rsa: isRsaAlgorithm(der, alg), rsaPublicKey: der.slice(bits.contentStart + 1, bits.end) };
}

/**
 * Tells the container apart by structure: RSAPrivateKey is SEQUENCE { INTEGER × 9 }; PrivateKeyInfo
 * is SEQUENCE { INTEGER, AlgorithmIdentifier, OCTET STRING, … }; SubjectPublicKeyInfo is
 * SEQUENCE { AlgorithmIdentifier, BIT STRING }; RSAPublicKey is SEQUENCE { INTEGER, INTEGER }; a
 * certificate is SEQUENCE { TBSCertificate, AlgorithmIdentifier, BIT STRING }.
 */
export function readKeyShape(der: Uint8Array): DerShape {
  const top = expectTag(readDer(der), TAG.SEQUENCE, 'a SEQUENCE');
  const items = childrenOf(der, top);
  const tags = items.map((t) => t.tag);
  if (tags.length === 9 && tags.every((t) => t === TAG.INTEGER))
    return { shape: 'rsa-private', rsaPrivateKey: bytesOf(der, top) };
  if (tags.length === 2 && tags[0] === TAG.INTEGER && tags[1] === TAG.INTEGER)
    return { shape: 'rsa-public', rsaPublicKey: bytesOf(der, top) };
  if (
    tags.length >= 3 &&
    tags[0] === TAG.INTEGER &&
    tags[1] === TAG.SEQUENCE &&
    tags[2] === TAG.OCTET_STRING
  ) {
    const version = readUnsigned(der, items[0]);
    if (version > 1n) throw new DerError('unknown PrivateKeyInfo version');
    return { shape: 'pkcs8', rsa: isRsaAlgorithm(der, items[1]), rsaPrivateKey: contentOf(der, items[2]!) };
  }
  if (tags.length === 2 && tags[0] === TAG.SEQUENCE && tags[1] === TAG.BIT_STRING)
    return { shape: 'spki', ...readSpki(der, top) };
  if (
    tags.length === 3 &&
    tags[0] === TAG.SEQUENCE &&
    tags[1] === TAG.SEQUENCE &&
    tags[2] === TAG.BIT_STRING
  ) {
    // TBSCertificate: [0] version (optional), serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, …
    const tbs = childrenOf(der, items[0]!);
    const fields = tbs[0]?.tag === TAG.CONTEXT_0 ? tbs.slice(1) : tbs;
    expectTag(fields[0], TAG.INTEGER, 'a serial number');
    return { shape: 'certificate', ...readSpki(der, expectTag(fields[5], TAG.SEQUENCE, 'a public key')) };
  }
  throw new DerError('not a key container');
}

/** RSAPrivateKey DER → PrivateKeyInfo (PKCS#8) DER, as `openssl pkey` writes it. */
export function wrapPkcs8(rsaPrivateKey: Uint8Array): Uint8Array<ArrayBuffer> {
  return encodeTlv(
    TAG.SEQUENCE,
    concat([
      encodeTlv(TAG.INTEGER, new Uint8Array([0])),
      RSA_ALGORITHM_ID,
      encodeTlv(TAG.OCTET_STRING, rsaPrivateKey),
    ]),
  );
}

/** RSAPublicKey DER → SubjectPublicKeyInfo DER, as `openssl pkey -pubout` writes it. */
export function wrapSpki(rsaPublicKey: Uint8Array): Uint8Array<ArrayBuffer> {
  return encodeTlv(
    TAG.SEQUENCE,
    concat([RSA_ALGORITHM_ID, encodeTlv(TAG.BIT_STRING, concat([new Uint8Array([0]), rsaPublicKey]))]),
  );
}
