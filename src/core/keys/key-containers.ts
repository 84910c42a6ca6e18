import type { CryptoPort } from '../crypto-port.ts';
import { PayError } from '../errors.ts';
import {
  derFillsExactly,
  firstPemBlock,
  kindOfLabel,
  PEM_KIND_LABEL,
  sniffKeyAlgorithm,
  toPem,
  type PemKind,
} from './pem.ts';

/** The gateway's minimum RSA key size (api-description.md, Limits). */
export const MIN_RSA_BITS = 2048;
/** The largest key the gateway's in-page request builders take (api-description.md, Limits). */
export const MAX_BUILDER_RSA_BITS = 4096;

export interface KeyInspection {
  kind: PemKind;
  label: string;
  bits?: number;
  isPrivate: boolean;
  /** Lowercase hex SHA-256 of the public key's SPKI DER (`openssl pkey -pubout -outform DER | sha256sum`). */
  fingerprint?: string;
  /** Why the key cannot be used to sign or verify, when it cannot. */
  problem?: PayError;
  warnings: string[];
}

function assertStrongEnough(parsed: ParsedKey): void {
  if (parsed.bits < MIN_RSA_BITS) {
    throw new PayError(
      'KEY_TOO_SHORT',
      `Refused: too short. This RSA key has ${parsed.bits} bits; the gateway requires at least ${MIN_RSA_BITS}. Generate a new pair: \`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:4096 -out private.pem\`.`,
      { field: 'key' },
    );
  }
}

const RSASSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

/** node-forge, for the containers Web Crypto does not read or write; fetched on first need only. */
const forgeKeys = () => import('./forge-keys.ts');

export interface ParsedKey {
  kind: PemKind;
  bits: number;
  /** Number of PEM blocks in the text (only the first is used). */
  blocks: number;
  /** SubjectPublicKeyInfo DER of the public key, as Web Crypto exports it (`openssl pkey -pubout -outform DER`). */
  spki: Uint8Array<ArrayBuffer>;
  /** PrivateKeyInfo DER (PKCS#8), as Web Crypto exports it; present for private kinds. */
  pkcs8?: Uint8Array<ArrayBuffer>;
}

function bigOf(b64url: string | undefined): bigint {
  if (!b64url) return 0n;
  const bin = atob(b64url.replace(/-/g, '+').replace(/_/g, '/'));
  let hex = '0x0';
  for (let i = 0; i < bin.length; i++) hex += bin.charCodeAt(i).toString(16).padStart(2, '0');
  return BigInt(hex);
}

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;

/**
 * A damaged private key (one Base64 character changed inside a number) still parses, and Web
 * Crypto may then sign with it, wrongly. Checks that the numbers Web Crypto read fit together
 * (RFC 8017 §3.2): n = p·q, e·d ≡ 1 mod p−1 and mod q−1, dP = d mod p−1, dQ = d mod q−1,
 * q·qInv ≡ 1 mod p.
 */
function assertConsistent(jwk: JsonWebKey, kind: PemKind): void {
  const [n, e, d, p, q, dP, dQ, qInv] = [jwk.n, jwk.e, jwk.d, jwk.p, jwk.q, jwk.dp, jwk.dq, jwk.qi].map(
    bigOf,
  ) as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint];
  const p1 = p - 1n;
  const q1 = q - 1n;
  const ok =
    p > 1n &&
    q > 1n &&
    e > 1n &&
    n === p * q &&
    mod(e * d, p1) === 1n &&
    mod(e * d, q1) === 1n &&
    dP === mod(d, p1) &&
    dQ === mod(d, q1) &&
    mod(q * qInv, p) === 1n;
  if (!ok) {
    throw new PayError(
      'KEY_MALFORMED',
      `The ${PEM_KIND_LABEL[kind]} is damaged: its numbers do not fit together, so it would sign wrongly. Copy it again, whole, or export it again from the original file.`,
      { field: 'key' },
    );
  }
}

const modulusLength = (key: CryptoKey) => (key.algorithm as RsaHashedKeyAlgorithm).modulusLength;

/** Web Crypto reads a PKCS#8 RSA key: its size, its numbers checked, its public half as SPKI. */
async function readPkcs8(
  der: Uint8Array<ArrayBuffer>,
  kind: PemKind,
  crypto: CryptoPort,
): Promise<Pick<ParsedKey, 'bits' | 'spki' | 'pkcs8'>> {
  const key = await crypto.subtle.importKey('pkcs8', der, RSASSA, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', key);
  assertConsistent(jwk, kind);
  const pub = await crypto.subtle.importKey('jwk', { kty: 'RSA', n: jwk.n, e: jwk.e }, RSASSA, true, [
    'verify',
  ]);
  return {
    bits: modulusLength(key),
    spki: new Uint8Array(await crypto.subtle.exportKey('spki', pub)),
    pkcs8: new Uint8Array(await crypto.subtle.exportKey('pkcs8', key)),
  };
}

/** Web Crypto reads an SPKI RSA public key: its size and its DER as Web Crypto writes it. */
async function readSpki(
  der: Uint8Array<ArrayBuffer>,
  crypto: CryptoPort,
): Promise<Pick<ParsedKey, 'bits' | 'spki'>> {
  const pub = await crypto.subtle.importKey('spki', der, RSASSA, true, ['verify']);
  return { bits: modulusLength(pub), spki: new Uint8Array(await crypto.subtle.exportKey('spki', pub)) };
}

/**
 * Reads an RSA key of any supported container. PKCS#8 and SPKI go straight to Web Crypto, which
 * validates them; PKCS#1 keys and certificates are read by node-forge (loaded on first need) and
 * handed to Web Crypto as PKCS#8 or SPKI. Throws a PayError that names what was given and what to
 * do for garbage, encrypted keys, non-RSA keys and damaged keys.
 */
export async function parseKey(text: string, crypto: CryptoPort): Promise<ParsedKey> {
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
      'This private key is encrypted with a passphrase. Decrypt it first: enter its passphrase beside the key in the console (decrypted in the browser), or run `openssl pkey -in key.pem -out key-plain.pem` (it asks for the passphrase).',
      { field: 'key' },
    );
  }
  if (kind === 'unsupported' || kind === 'garbage') {
    throw new PayError(
      'KEY_NOT_RSA',
      `A "${block.label}" block is not an RSA key this gateway accepts: use an RSA key in PEM (PKCS#1 or PKCS#8).`,
      { field: 'key' },
    );
  }
  if (
    (kind === 'pkcs8-private' || kind === 'spki-public') &&
    sniffKeyAlgorithm(block.der, kind === 'pkcs8-private' ? 'pkcs8' : 'spki') === 'other'
  ) {
    throw new PayError(
      'KEY_NOT_RSA',
      `This ${PEM_KIND_LABEL[kind]} is not an RSA key (EC or Ed25519?): the gateway needs RSA, at least 2048 bits.`,
      { field: 'key' },
    );
  }
  try {
    if (!derFillsExactly(block.der)) throw new Error('the DER length does not cover the bytes');
    switch (kind) {
      case 'pkcs8-private':
        return { kind, blocks, ...(await readPkcs8(block.der, kind, crypto)) };
      case 'pkcs1-private':
        return {
          kind,
          blocks,
          ...(await readPkcs8((await forgeKeys()).pkcs1PrivateToPkcs8(block.der), kind, crypto)),
        };
      case 'spki-public':
        return { kind, blocks, ...(await readSpki(block.der, crypto)) };
      case 'pkcs1-public':
        return {
          kind,
          blocks,
          ...(await readSpki((await forgeKeys()).pkcs1PublicToSpki(block.der), crypto)),
        };
      case 'certificate':
        return {
          kind,
          blocks,
          ...(await readSpki((await forgeKeys()).certificateToSpki(block.der), crypto)),
        };
    }
  } catch (cause) {
    if (cause instanceof PayError) throw cause;
    throw new PayError(
      'KEY_MALFORMED',
      `The ${PEM_KIND_LABEL[kind]} could not be read (it is damaged or not what its BEGIN line says): copy it again, whole.`,
      { field: 'key', cause },
    );
  }
}

/** PrivateKeyInfo DER of a parsed key, or KEY_NOT_PRIVATE for a public key or certificate. */
function requirePrivate(parsed: ParsedKey): Uint8Array<ArrayBuffer> {
  if (!parsed.pkcs8) {
    throw new PayError(
      'KEY_NOT_PRIVATE',
      `This ${PEM_KIND_LABEL[parsed.kind]} can verify, not sign: signing needs the merchant's private key (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY).`,
      { field: 'key' },
    );
  }
  return parsed.pkcs8;
}

/** Describes a pasted key without throwing: kind, size, fingerprint and, if unusable, why. */
export async function inspectKey(text: string, crypto: CryptoPort): Promise<KeyInspection> {
  let parsed: ParsedKey;
  try {
    parsed = await parseKey(text, crypto);
  } catch (e) {
    const problem = e instanceof PayError ? e : new PayError('KEY_MALFORMED', String(e));
    const kind: PemKind =
      problem.code === 'KEY_ENCRYPTED'
        ? 'encrypted-private'
        : problem.code === 'KEY_NOT_RSA'
          ? 'unsupported'
          : 'garbage';
    return {
      kind,
      label: PEM_KIND_LABEL[kind],
      isPrivate: kind === 'encrypted-private',
      problem,
      warnings: [],
    };
  }
  const warnings: string[] = [];
  if (parsed.blocks > 1) warnings.push(`The text holds ${parsed.blocks} PEM blocks; only the first is used.`);
  if (parsed.bits > MAX_BUILDER_RSA_BITS) {
    warnings.push(
      `${parsed.bits}-bit keys work here, but the gateway's in-page builders take at most ${MAX_BUILDER_RSA_BITS} bits.`,
    );
  }
  let problem: PayError | undefined;
  try {
    assertStrongEnough(parsed);
  } catch (e) {
    problem = e as PayError;
  }
  return {
    kind: parsed.kind,
    label: PEM_KIND_LABEL[parsed.kind],
    bits: parsed.bits,
    isPrivate: parsed.pkcs8 !== undefined,
    fingerprint: await crypto.sha256Hex(parsed.spki),
    ...(problem ? { problem } : {}),
    warnings,
  };
}

/** Any private key text → PKCS#8 PEM (`BEGIN PRIVATE KEY`), the container Web Crypto imports. */
export async function toPkcs8Pem(text: string, crypto: CryptoPort): Promise<string> {
  return toPem('PRIVATE KEY', requirePrivate(await parseKey(text, crypto)));
}

/** Any private key text → PKCS#1 PEM (`BEGIN RSA PRIVATE KEY`), the container the gateway's in-page builders take. */
export async function toPkcs1Pem(text: string, crypto: CryptoPort): Promise<string> {
  const pkcs8 = requirePrivate(await parseKey(text, crypto));
  return (await forgeKeys()).pkcs8ToPkcs1Pem(pkcs8);
}

/** Any key text (private, public or certificate) → the public key as SPKI PEM (`BEGIN PUBLIC KEY`), what the gateway is sent. */
export async function toSpkiPem(text: string, crypto: CryptoPort): Promise<string> {
  return toPem('PUBLIC KEY', (await parseKey(text, crypto)).spki);
}

/** Any key text → the public key as PKCS#1 PEM (`BEGIN RSA PUBLIC KEY`). */
export async function toPkcs1PublicPem(text: string, crypto: CryptoPort): Promise<string> {
  const { spki } = await parseKey(text, crypto);
  return (await forgeKeys()).spkiToPkcs1PublicPem(spki);
}

export interface SigningKey {
  key: CryptoKey;
  kind: PemKind;
  bits: number;
  fingerprint: string;
  /** The public half as SPKI PEM, to register with the gateway or the local sandbox. */
  publicSpkiPem: string;
}

/**
 * Imports a PKCS#1 or PKCS#8 RSA private key for RSA-SHA256 signing with Web Crypto. PKCS#1,
 * which Web Crypto rejects, is rewrapped as PKCS#8 by node-forge on the way.
 * @throws PayError KEY_* with advice.
 */
export async function importSigningKey(text: string, crypto: CryptoPort): Promise<SigningKey> {
  const parsed = await parseKey(text, crypto);
  const pkcs8 = requirePrivate(parsed);
  assertStrongEnough(parsed);
  // Imported again, not extractable: the key that signs can never be exported from the page.
  const key = await crypto.subtle.importKey('pkcs8', pkcs8, RSASSA, false, ['sign']);
  return {
    key,
    kind: parsed.kind,
    bits: parsed.bits,
    fingerprint: await crypto.sha256Hex(parsed.spki),
    publicSpkiPem: toPem('PUBLIC KEY', parsed.spki),
  };
}

/** Imports the public half of any key text (SPKI, PKCS#1 public, certificate or a private key) for verifying. */
export async function importVerifyingKey(
  text: string,
  crypto: CryptoPort,
): Promise<{ key: CryptoKey; bits: number; fingerprint: string }> {
  const parsed = await parseKey(text, crypto);
  assertStrongEnough(parsed);
  // Extractable: a public key is no secret, and the debugger reads it again to check RSA with SHA-1.
  const key = await crypto.subtle.importKey('spki', parsed.spki, RSASSA, true, ['verify']);
  return { key, bits: parsed.bits, fingerprint: await crypto.sha256Hex(parsed.spki) };
}

export const GENERATABLE_BITS = [2048, 3072, 4096] as const;
export type GeneratableBits = (typeof GENERATABLE_BITS)[number];

export interface GeneratedKeyPair {
  bits: GeneratableBits;
  pkcs8Pem: string;
  pkcs1Pem: string;
  spkiPem: string;
  fingerprint: string;
}

/** Generates an RSA key pair with Web Crypto (fast, off the main thread in browsers) and exports all three PEMs. */
export async function generateKeyPair(bits: number, crypto: CryptoPort): Promise<GeneratedKeyPair> {
  if (!(GENERATABLE_BITS as readonly number[]).includes(bits)) {
    throw new PayError('KEY_SIZE_UNSUPPORTED', `Choose 2048, 3072 or 4096 bits (got ${bits}).`, {
      field: 'bits',
    });
  }
  const pair = (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: bits,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  const pkcs8Pem = toPem('PRIVATE KEY', pkcs8);
  return {
    bits: bits as GeneratableBits,
    pkcs8Pem,
    pkcs1Pem: (await forgeKeys()).pkcs8ToPkcs1Pem(pkcs8),
    spkiPem: toPem('PUBLIC KEY', spki),
    fingerprint: await crypto.sha256Hex(spki),
  };
}
