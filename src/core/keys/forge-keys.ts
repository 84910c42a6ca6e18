/**
 * node-forge's part of the key path: the containers Web Crypto does not read (PKCS#1 private and
 * public keys, certificates) and the PKCS#1 PEMs it does not write. This module is only ever
 * loaded with `import()` (see key-containers.ts), so node-forge is fetched when such a key is met,
 * never for a PKCS#8 or SPKI key.
 */
import forge from 'node-forge';
import { errorText } from '../errors.ts';

function toForgeAsn1(der: Uint8Array): forge.asn1.Asn1 {
  let bin = '';
  for (const b of der) bin += String.fromCharCode(b);
  // forge's defaults: strict lengths, and trailing bytes are an error.
  return forge.asn1.fromDer(forge.util.createBuffer(bin));
}

function fromForgeBytes(bytes: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}

function spkiOf(pub: forge.pki.rsa.PublicKey): Uint8Array<ArrayBuffer> {
  return fromForgeBytes(forge.asn1.toDer(forge.pki.publicKeyToAsn1(pub)).getBytes());
}

/** RSAPrivateKey DER (PKCS#1, RFC 8017 A.1.2) → PrivateKeyInfo DER (PKCS#8), what Web Crypto imports. */
export function pkcs1PrivateToPkcs8(der: Uint8Array): Uint8Array<ArrayBuffer> {
  const key = forge.pki.privateKeyFromAsn1(toForgeAsn1(der)) as forge.pki.rsa.PrivateKey;
  return fromForgeBytes(
    forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key))).getBytes(),
  );
}

/** RSAPublicKey DER (PKCS#1, RFC 8017 A.1.1) → SubjectPublicKeyInfo DER. */
export function pkcs1PublicToSpki(der: Uint8Array): Uint8Array<ArrayBuffer> {
  return spkiOf(forge.pki.publicKeyFromAsn1(toForgeAsn1(der)) as forge.pki.rsa.PublicKey);
}

/** The SubjectPublicKeyInfo DER of an X.509 certificate's RSA key. */
export function certificateToSpki(der: Uint8Array): Uint8Array<ArrayBuffer> {
  const pub = forge.pki.certificateFromAsn1(toForgeAsn1(der)).publicKey as forge.pki.rsa.PublicKey;
  if (!pub?.n) throw new Error('certificate without an RSA key');
  return spkiOf(pub);
}

/** PrivateKeyInfo DER → PKCS#1 PEM (`BEGIN RSA PRIVATE KEY`), LF line ends. */
export function pkcs8ToPkcs1Pem(der: Uint8Array): string {
  const key = forge.pki.privateKeyFromAsn1(toForgeAsn1(der)) as forge.pki.rsa.PrivateKey;
  return forge.pki.privateKeyToPem(key).replace(/\r\n/g, '\n');
}

/** SubjectPublicKeyInfo DER → PKCS#1 public PEM (`BEGIN RSA PUBLIC KEY`), LF line ends. */
export function spkiToPkcs1PublicPem(der: Uint8Array): string {
  const pub = forge.pki.publicKeyFromAsn1(toForgeAsn1(der)) as forge.pki.rsa.PublicKey;
  return forge.pki.publicKeyToRSAPublicKeyPem(pub).replace(/\r\n/g, '\n');
}

/** Why an encrypted key was not decrypted. */
export type DecryptFailure = 'wrong-passphrase' | 'unsupported' | 'not-rsa';

/**
 * Decrypts an encrypted private key PEM with its passphrase: PKCS#8 `ENCRYPTED PRIVATE KEY`
 * (PBES2: PBKDF2 with HMAC-SHA-1/224/256/384/512, AES-128/192/256-CBC or 3DES; what `openssl pkcs8
 * -topk8 -v2 aes-256-cbc` and `openssl genpkey -aes-256-cbc` write) and traditional PKCS#1 with
 * `Proc-Type: 4,ENCRYPTED` (`DEK-Info` AES-CBC or DES-EDE3-CBC). Returns the PrivateKeyInfo DER
 * (PKCS#8, unencrypted), what Web Crypto imports.
 */
export function decryptPrivateKeyPem(
  pem: string,
  passphrase: string,
): { pkcs8: Uint8Array<ArrayBuffer> } | { failure: DecryptFailure } {
  let key: forge.pki.rsa.PrivateKey | null;
  try {
    key = forge.pki.decryptRsaPrivateKey(pem, passphrase) as forge.pki.rsa.PrivateKey | null;
  } catch (e) {
    const text = errorText(e);
    if (/unsupported|unknown|not supported/i.test(text)) return { failure: 'unsupported' };
    if (/not an rsa|oid is not rsa|rsaEncryption/i.test(text)) return { failure: 'not-rsa' };
    // A wrong passphrase can yield bytes that pass the padding check and then fail as ASN.1.
    return { failure: 'wrong-passphrase' };
  }
  if (!key?.n) return { failure: 'wrong-passphrase' };
  return {
    pkcs8: fromForgeBytes(
      forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key))).getBytes(),
    ),
  };
}
