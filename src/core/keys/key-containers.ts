import type { CryptoPort } from '../crypto-port.ts';
import { PayError } from '../errors.ts';
import { wrapPkcs8, wrapSpki } from './der.ts';
import { parseKey, PEM_KIND_LABEL, toPem, type ParsedKey, type PemKind } from './pem.ts';

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
      `This RSA key has ${parsed.bits} bits; the gateway requires at least ${MIN_RSA_BITS}. Generate a new pair: \`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:4096 -out private.pem\`.`,
      { field: 'key' },
    );
  }
}

/** RSAPrivateKey DER of a parsed key, or KEY_NOT_PRIVATE for a public key or certificate. */
function requirePrivate(parsed: ParsedKey): Uint8Array<ArrayBuffer> {
  if (!parsed.rsaPrivateKey) {
    throw new PayError(
      'KEY_NOT_PRIVATE',
      `This is a ${PEM_KIND_LABEL[parsed.kind]}: signing needs the merchant's private key (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY).`,
      { field: 'key' },
    );
  }
  return parsed.rsaPrivateKey;
}

/** Describes a pasted key without throwing: kind, size, fingerprint and, if unusable, why. */
export async function inspectKey(text: string, crypto: CryptoPort): Promise<KeyInspection> {
  let parsed: ParsedKey;
  try {
    parsed = parseKey(text);
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
    isPrivate: parsed.rsaPrivateKey !== undefined,
    fingerprint: await crypto.sha256Hex(wrapSpki(parsed.rsaPublicKey)),
    ...(problem ? { problem } : {}),
    warnings,
  };
}

/** Any private key text → PKCS#8 PEM (`BEGIN PRIVATE KEY`), the container Web Crypto imports. */
export function toPkcs8Pem(text: string): string {
  return toPem('PRIVATE KEY', wrapPkcs8(requirePrivate(parseKey(text))));
}

/** Any private key text → PKCS#1 PEM (`BEGIN RSA PRIVATE KEY`), the container the gateway's in-page builders take. */
export function toPkcs1Pem(text: string): string {
  return toPem('RSA PRIVATE KEY', requirePrivate(parseKey(text)));
}

/** Any key text (private, public or certificate) → the public key as SPKI PEM (`BEGIN PUBLIC KEY`), what the gateway is sent. */
export function toSpkiPem(text: string): string {
  return toPem('PUBLIC KEY', wrapSpki(parseKey(text).rsaPublicKey));
}

/** Any key text → the public key as PKCS#1 PEM (`BEGIN RSA PUBLIC KEY`). */
export function toPkcs1PublicPem(text: string): string {
  return toPem('RSA PUBLIC KEY', parseKey(text).rsaPublicKey);
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
 * which Web Crypto rejects, is rewrapped as PKCS#8 on the way.
 * @throws PayError KEY_* with advice.
 */
export async function importSigningKey(text: string, crypto: CryptoPort): Promise<SigningKey> {
  const parsed = parseKey(text);
  const priv = requirePrivate(parsed);
  assertStrongEnough(parsed);
  const spki = wrapSpki(parsed.rsaPublicKey);
  const key = await crypto.subtle.importKey(
    'pkcs8',
    wrapPkcs8(priv),
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return {
    key,
    kind: parsed.kind,
    bits: parsed.bits,
    fingerprint: await crypto.sha256Hex(spki),
    publicSpkiPem: toPem('PUBLIC KEY', spki),
  };
}

/** Imports the public half of any key text (SPKI, PKCS#1 public, certificate or a private key) for verifying. */
export async function importVerifyingKey(
  text: string,
  crypto: CryptoPort,
): Promise<{ key: CryptoKey; bits: number; fingerprint: string }> {
  const parsed = parseKey(text);
  assertStrongEnough(parsed);
  const spki = wrapSpki(parsed.rsaPublicKey);
  const key = await crypto.subtle.importKey(
    'spki',
    spki,
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  return { key, bits: parsed.bits, fingerprint: await crypto.sha256Hex(spki) };
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
    pkcs1Pem: toPkcs1Pem(pkcs8Pem),
    spkiPem: toPem('PUBLIC KEY', spki),
    fingerprint: await crypto.sha256Hex(spki),
  };
}
