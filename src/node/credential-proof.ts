import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { errorText } from '../core/errors.ts';

/*
 * Data Integrity proofs with the `eddsa-jcs-2022` cryptosuite (W3C VC Data Integrity EdDSA): the
 * document and the proof's options are each canonicalised by JCS (RFC 8785) and hashed with
 * SHA-256; Ed25519 signs the two hashes (options first); the proof value is "z" + base58btc. The
 * issuer's key is a did:key, so a credential verifies offline with nothing but itself.
 */

/** RFC 8785: object members sorted by their UTF-16 code units, numbers and strings as ECMAScript prints them. */
export function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('JCS: a number must be finite.');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    // The default sort compares UTF-16 code units, as RFC 8785 §3.2.3 asks.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jcs(v)}`).join(',')}}`;
  }
  throw new Error(`JCS: a ${typeof value} has no JSON form.`);
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58btc(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

export function fromBase58btc(text: string): Uint8Array {
  let n = 0n;
  for (const c of text) {
    const i = ALPHABET.indexOf(c);
    if (i === -1) throw new Error(`"${c}" is not a base58btc character.`);
    n = n * 58n + BigInt(i);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  for (const c of text) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** The multicodec prefix of an Ed25519 public key (0xed, as a varint). */
const ED25519_PUB = [0xed, 0x01];

/** An Ed25519 public key as a did:key (`did:key:z6Mk…`). */
export function didKeyOf(publicKey: KeyObject): string {
  const x = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return `did:key:z${base58btc(Uint8Array.from([...ED25519_PUB, ...x]))}`;
}

/** The Ed25519 public key a did:key (or a verification method `did:key:…#…`) names. */
export function publicKeyOfDidKey(did: string): KeyObject {
  const m = /^did:key:z([1-9A-HJ-NP-Za-km-z]+)(#z[1-9A-HJ-NP-Za-km-z]+)?$/.exec(did);
  if (!m) throw new Error(`"${did.slice(0, 80)}" is not a did:key.`);
  const bytes = fromBase58btc(m[1]!);
  if (bytes.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1])
    throw new Error('The did:key is not an Ed25519 key.');
  if (m[2] && m[2] !== `#z${m[1]}`) throw new Error('The verification method’s fragment is not its key.');
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') },
    format: 'jwk',
  });
}

type Json = Record<string, unknown>;

export interface ProofOptions {
  type: 'DataIntegrityProof';
  cryptosuite: 'eddsa-jcs-2022';
  created: string;
  verificationMethod: string;
  proofPurpose: 'assertionMethod';
}

/** What Ed25519 signs: SHA-256 of the canonical proof options, then of the canonical document. */
export function hashData(document: Json, options: ProofOptions): Buffer {
  const { proof: _ignored, ...unsecured } = document;
  const config = { ...options, '@context': unsecured['@context'] };
  const h = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return Buffer.concat([h(jcs(config)), h(jcs(unsecured))]);
}

/** Adds an `eddsa-jcs-2022` proof, by the private key whose did:key is `issuerDid`. */
export function addProof(document: Json, privateKey: KeyObject, issuerDid: string, created: string): Json {
  const options: ProofOptions = {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    created,
    verificationMethod: `${issuerDid}#${issuerDid.slice('did:key:'.length)}`,
    proofPurpose: 'assertionMethod',
  };
  const signature = sign(null, hashData(document, options), privateKey);
  return { ...document, proof: { ...options, proofValue: `z${base58btc(signature)}` } };
}

export type ProofCheck = { ok: true; issuer: string } | { ok: false; reason: string };

/**
 * Verifies a document's `eddsa-jcs-2022` proof offline: the verification method must be the
 * issuer's own did:key, and the signature must cover the document as it is.
 */
export function verifyProof(document: unknown): ProofCheck {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    return { ok: false, reason: 'the file is not a JSON object.' };
  const doc = document as Json;
  const proof = doc.proof as Json | undefined;
  if (typeof proof !== 'object' || proof === null || Array.isArray(proof))
    return { ok: false, reason: 'it has no proof (one Data Integrity proof is expected).' };
  if (proof.type !== 'DataIntegrityProof' || proof.cryptosuite !== 'eddsa-jcs-2022')
    return {
      ok: false,
      reason: 'its proof is not a DataIntegrityProof with the eddsa-jcs-2022 cryptosuite.',
    };
  if (proof.proofPurpose !== 'assertionMethod')
    return { ok: false, reason: 'its proof’s purpose is not assertionMethod.' };
  const issuer = typeof doc.issuer === 'string' ? doc.issuer : (doc.issuer as Json | undefined)?.id;
  const method = proof.verificationMethod;
  if (typeof issuer !== 'string' || typeof method !== 'string' || !method.startsWith(`${issuer}#`))
    return { ok: false, reason: 'the proof’s verification method is not the issuer’s key.' };
  if (typeof proof.proofValue !== 'string' || !/^z[1-9A-HJ-NP-Za-km-z]+$/.test(proof.proofValue))
    return { ok: false, reason: 'its proofValue is not a base58btc multibase value.' };
  if (typeof proof.created !== 'string') return { ok: false, reason: 'its proof has no created time.' };
  let key: KeyObject;
  try {
    key = publicKeyOfDidKey(method);
  } catch (e) {
    return { ok: false, reason: errorText(e) };
  }
  const { proofValue, ...rest } = proof;
  const signature = fromBase58btc(proofValue.slice(1));
  const ok = verify(null, hashData(doc, rest as unknown as ProofOptions), key, signature);
  return ok
    ? { ok: true, issuer }
    : { ok: false, reason: 'the signature does not match: the credential was changed after it was signed.' };
}
