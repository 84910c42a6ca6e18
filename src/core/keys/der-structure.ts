import forge from 'node-forge';

function derToForgeAsn1(der: Uint8Array): forge.asn1.Asn1 {
  let bin = '';
  for (const b of der) bin += String.fromCharCode(b);
  return forge.asn1.fromDer(forge.util.createBuffer(bin));
}

/** What a key text is inside, whatever its BEGIN line says. */
export type DerStructure =
  'pkcs1-private' | 'pkcs8-private' | 'spki-public' | 'pkcs1-public' | 'certificate' | 'unknown';

/**
 * Reads the ASN.1 shape of DER bytes: RSAPrivateKey (PKCS#1) is SEQUENCE { INTEGER 0, INTEGER n, … };
 * PrivateKeyInfo (PKCS#8) is SEQUENCE { INTEGER 0, SEQUENCE { OID … }, OCTET STRING };
 * SubjectPublicKeyInfo is SEQUENCE { SEQUENCE { OID … }, BIT STRING }; RSAPublicKey (PKCS#1) is
 * SEQUENCE { INTEGER n, INTEGER e }; a certificate is SEQUENCE { SEQUENCE { … }, SEQUENCE, BIT STRING }.
 */
export function derStructure(der: Uint8Array): DerStructure {
  let asn: forge.asn1.Asn1;
  try {
    asn = derToForgeAsn1(der);
  } catch {
    return 'unknown';
  }
  const T = forge.asn1.Type;
  const seq = Array.isArray(asn.value) ? (asn.value as forge.asn1.Asn1[]) : undefined;
  if (!seq || asn.type !== T.SEQUENCE) return 'unknown';
  const types = seq.map((x) => x.type);
  if (types.length >= 9 && types.slice(0, 9).every((t) => t === T.INTEGER)) return 'pkcs1-private';
  if (types.length >= 3 && types[0] === T.INTEGER && types[1] === T.SEQUENCE && types[2] === T.OCTETSTRING)
    return 'pkcs8-private';
  if (types.length === 2 && types[0] === T.SEQUENCE && types[1] === T.BITSTRING) return 'spki-public';
  if (types.length === 2 && types[0] === T.INTEGER && types[1] === T.INTEGER) return 'pkcs1-public';
  if (types.length === 3 && types[0] === T.SEQUENCE && types[1] === T.SEQUENCE && types[2] === T.BITSTRING)
    return 'certificate';
  return 'unknown';
}
