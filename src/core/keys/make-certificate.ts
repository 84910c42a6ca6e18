/**
 * X.509 certificates for a local test CA and the server it vouches for (the standalone sandbox's
 * HTTPS). Pure: the key pairs, the serial number and the validity come in, so the caller (Node)
 * owns the randomness and the clock; node-forge only assembles and signs (RSASSA-PKCS1-v1_5 with
 * SHA-256, deterministic). Node-only in practice, but kept beside the other node-forge code so the
 * package stays behind one fence.
 * @see RFC 5280 §4.1 (certificate fields), §4.2.1 (extensions).
 */
import forge from 'node-forge';

export interface CertificateRequest {
  /** `ca`: self-signed, may sign one level of server certificates; `server`: TLS server for `names`. */
  kind: 'ca' | 'server';
  commonName: string;
  organization?: string;
  /** PEM of the certificate's own public key (SPKI or PKCS#1). */
  publicKeyPem: string;
  /** PEM of the signer's private key: the CA's own for `ca`, the issuing CA's for `server`. */
  signerKeyPem: string;
  /** The issuing CA's certificate (PEM), for `server`. */
  issuerCertPem?: string;
  /** Positive serial number, hex (RFC 5280 §4.1.2.2: at most 20 octets). */
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
  /** For `server`: the DNS names and IP addresses it covers. */
  names?: { dns: readonly string[]; ip: readonly string[] };
}

/** Builds and signs one certificate; returns it as PEM. */
export function makeCertificate(req: CertificateRequest): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(req.publicKeyPem);
  cert.serialNumber = req.serialHex;
  cert.validity.notBefore = req.notBefore;
  cert.validity.notAfter = req.notAfter;
  const subject: forge.pki.CertificateField[] = [
    { name: 'commonName', value: req.commonName },
    ...(req.organization ? [{ name: 'organizationName', value: req.organization }] : []),
  ];
  cert.setSubject(subject);
  if (req.kind === 'ca') {
    cert.setIssuer(subject);
    cert.setExtensions([
      // A CA for this sandbox's server certificate only: no intermediate below it.
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
  } else {
    if (!req.issuerCertPem) throw new Error('A server certificate needs the issuing CA certificate.');
    const issuer = forge.pki.certificateFromPem(req.issuerCertPem);
    cert.setIssuer(issuer.subject.attributes);
    const names = req.names ?? { dns: [], ip: [] };
    cert.setExtensions([
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...names.dns.map((value) => ({ type: 2, value })),
          ...names.ip.map((ip) => ({ type: 7, ip })),
        ],
      },
      { name: 'subjectKeyIdentifier' },
      { name: 'authorityKeyIdentifier', keyIdentifier: issuer.generateSubjectKeyIdentifier().getBytes() },
    ]);
  }
  const signer = forge.pki.privateKeyFromPem(req.signerKeyPem) as forge.pki.rsa.PrivateKey;
  cert.sign(signer, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
