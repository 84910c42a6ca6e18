/**
 * The `openssl` CLI as an independent oracle: key fixtures generated at test time in a temporary
 * directory, and RSASSA-PKCS1-v1_5 SHA-256 signatures from `openssl dgst -sha256 -sign`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs openssl; returns stdout as bytes, throws with stderr when it fails. */
export function openssl(args: readonly string[], input?: string | Uint8Array): Buffer {
  const res = spawnSync('openssl', args, { input, maxBuffer: 64 * 1024 * 1024 });
  if (res.error)
    throw new Error(`openssl could not be started (${res.error.message}): install the openssl CLI.`);
  if (res.status !== 0)
    throw new Error(`openssl ${args.join(' ')} failed (exit ${res.status}): ${res.stderr.toString()}`);
  return res.stdout;
}

/** A temporary directory for key fixtures; call `remove()` in afterAll. */
export function keyDir(prefix = 'pay-core-keys-'): {
  dir: string;
  path: (name: string) => string;
  read: (name: string) => string;
  remove: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    path: (name) => join(dir, name),
    read: (name) => readFileSync(join(dir, name), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface RsaFixture {
  bits: number;
  pkcs8Path: string;
  pkcs1Path: string;
  spkiPath: string;
  pkcs8Pem: string;
  pkcs1Pem: string;
  spkiPem: string;
}

/** An RSA key as openssl writes it: PKCS#8 (genpkey), the PKCS#1 copy (-traditional) and the SPKI public key. */
export function generateRsa(dir: string, bits: number, name = `rsa${bits}`): RsaFixture {
  const pkcs8Path = join(dir, `${name}.pkcs8.pem`);
  const pkcs1Path = join(dir, `${name}.pkcs1.pem`);
  const spkiPath = join(dir, `${name}.spki.pem`);
  openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', `rsa_keygen_bits:${bits}`, '-out', pkcs8Path]);
  openssl(['rsa', '-in', pkcs8Path, '-traditional', '-out', pkcs1Path]);
  openssl(['pkey', '-in', pkcs8Path, '-pubout', '-out', spkiPath]);
  return {
    bits,
    pkcs8Path,
    pkcs1Path,
    spkiPath,
    pkcs8Pem: readFileSync(pkcs8Path, 'utf8'),
    pkcs1Pem: readFileSync(pkcs1Path, 'utf8'),
    spkiPem: readFileSync(spkiPath, 'utf8'),
  };
}

/** Base64 `openssl dgst -sha256 -sign key.pem` of the UTF-8 bytes of `text`. */
export function opensslSignBase64(keyPath: string, text: string): string {
  return openssl(['dgst', '-sha256', '-sign', keyPath], Buffer.from(text, 'utf8')).toString('base64');
}

/** `openssl dgst -sha256 -verify pub.pem -signature sig` on the UTF-8 bytes of `text`. */
export function opensslVerify(publicKeyPath: string, signaturePath: string, text: string): boolean {
  const res = spawnSync(
    'openssl',
    ['dgst', '-sha256', '-verify', publicKeyPath, '-signature', signaturePath],
    {
      input: Buffer.from(text, 'utf8'),
    },
  );
  return res.status === 0 && res.stdout.toString().includes('Verified OK');
}

/** DER of a PEM block, decoded here without the core. */
export function pemToDer(pem: string): Buffer {
  const m = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/.exec(pem);
  if (!m) throw new Error('not a PEM text');
  return Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
}
