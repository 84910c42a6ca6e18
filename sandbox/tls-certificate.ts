import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeCertificate } from '../src/core/keys/make-certificate.ts';

/**
 * The standalone sandbox's HTTPS certificate (`SANDBOX_HTTPS=1`): a local CA of its own and a server
 * certificate for localhost, 127.0.0.1 and ::1 signed by it, made on first start (keys by node:crypto,
 * certificates by src/core/keys)
 * (no network, no openssl at run time), kept in the data directory and reused afterwards. A client
 * that hard-codes `https://<host>/paynet/api/...` trusts the CA file and changes only its host.
 */
export interface SandboxTls {
  /** The server's private key and certificate chain (server, then CA), PEM, for `https.createServer`. */
  key: string;
  cert: string;
  /** The CA certificate a client trusts (PEM file). */
  caPath: string;
  /** SHA-256 fingerprint of the CA certificate, as `openssl x509 -fingerprint -sha256` prints it. */
  caFingerprint256: string;
  /** True when this start made the files (the CA is new: clients must trust it again). */
  created: boolean;
}

/** The names the server certificate covers: the loopback names sandbox/README.md documents. */
export const SERVER_NAMES = { dns: ['localhost'], ip: ['127.0.0.1', '::1'] } as const;

const CA_YEARS = 10;
/** 825 days: the longest validity Apple's clients accept for a server certificate. */
const SERVER_DAYS = 825;
const DAY_MS = 86_400_000;

function files(dataDir: string) {
  const dir = path.join(dataDir, 'tls');
  return {
    dir,
    caKey: path.join(dir, 'sandbox-ca-key.pem'),
    caCert: path.join(dir, 'sandbox-ca.pem'),
    serverKey: path.join(dir, 'server-key.pem'),
    serverCert: path.join(dir, 'server.pem'),
  };
}

/** A positive serial number of 16 random bytes (RFC 5280 §4.1.2.2: at most 20 octets, positive). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

/** RSA-2048 from node:crypto; the private key in PKCS#1 PEM, as the files have always held it. */
function keyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

function makeCa(now: Date): { keyPem: string; certPem: string } {
  const keys = keyPair();
  const certPem = makeCertificate({
    kind: 'ca',
    commonName: 'pay-console local sandbox CA',
    organization: 'pay-console (local testing only)',
    publicKeyPem: keys.publicKeyPem,
    signerKeyPem: keys.privateKeyPem,
    serialHex: serialNumber(),
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + CA_YEARS * 365 * DAY_MS),
  });
  return { keyPem: keys.privateKeyPem, certPem };
}

function makeServer(ca: { keyPem: string; certPem: string }, now: Date): { keyPem: string; certPem: string } {
  const keys = keyPair();
  const certPem = makeCertificate({
    kind: 'server',
    commonName: 'localhost',
    publicKeyPem: keys.publicKeyPem,
    signerKeyPem: ca.keyPem,
    issuerCertPem: ca.certPem,
    serialHex: serialNumber(),
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + SERVER_DAYS * DAY_MS),
    names: SERVER_NAMES,
  });
  return { keyPem: keys.privateKeyPem, certPem };
}

function writePrivate(file: string, pem: string): void {
  writeFileSync(file, pem, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** A stored certificate that is still usable at `now` for another 30 days (and, for the server, signed by `ca`). */
function stillGood(certPem: string, now: Date, issuer?: X509Certificate): boolean {
  try {
    const cert = new X509Certificate(certPem);
    if (new Date(cert.validTo).getTime() < now.getTime() + 30 * DAY_MS) return false;
    if (!issuer) return cert.ca;
    return (
      cert.verify(issuer.publicKey) &&
      cert.checkHost('localhost') !== undefined &&
      SERVER_NAMES.ip.every((ip) => cert.checkIP(ip) !== undefined)
    );
  } catch {
    return false;
  }
}

/**
 * The sandbox's CA and server certificate in `<dataDir>/tls/`: made on first use, reused while they
 * hold (a server certificate near its end, or not signed by the stored CA, is made again; the CA is
 * kept, so clients keep trusting it). Private keys are written readable by the owner only.
 */
export function ensureSandboxCertificate(dataDir: string, now: Date = new Date()): SandboxTls {
  const f = files(dataDir);
  mkdirSync(f.dir, { recursive: true, mode: 0o700 });
  chmodSync(f.dir, 0o700);
  let created = false;
  let caPem = existsSync(f.caCert) ? readFileSync(f.caCert, 'utf8') : '';
  let caKeyPem = existsSync(f.caKey) ? readFileSync(f.caKey, 'utf8') : '';
  if (!caPem || !caKeyPem || !stillGood(caPem, now)) {
    const ca = makeCa(now);
    caPem = ca.certPem;
    caKeyPem = ca.keyPem;
    writePrivate(f.caKey, caKeyPem);
    writeFileSync(f.caCert, caPem, { mode: 0o600 });
    created = true;
  }
  const caX509 = new X509Certificate(caPem);
  let serverPem = existsSync(f.serverCert) ? readFileSync(f.serverCert, 'utf8') : '';
  let serverKeyPem = existsSync(f.serverKey) ? readFileSync(f.serverKey, 'utf8') : '';
  if (created || !serverPem || !serverKeyPem || !stillGood(serverPem, now, caX509)) {
    const server = makeServer({ keyPem: caKeyPem, certPem: caPem }, now);
    serverPem = server.certPem;
    serverKeyPem = server.keyPem;
    writePrivate(f.serverKey, serverKeyPem);
    writeFileSync(f.serverCert, serverPem, { mode: 0o600 });
    created = true;
  }
  // Made before this rule, or by hand: the owner's alone.
  for (const file of [f.caKey, f.caCert, f.serverKey, f.serverCert]) chmodSync(file, 0o600);
  return {
    key: serverKeyPem,
    cert: serverPem + caPem,
    caPath: f.caCert,
    caFingerprint256: caX509.fingerprint256,
    created,
  };
}
