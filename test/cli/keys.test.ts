import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, openssl, paysign, tempDir, writeTemp } from './run-cli.ts';

let dir: string;
let pkcs8: string;

/** The fingerprint as openssl sees it: SHA-256 of the public key's SPKI DER. */
function opensslFingerprint(file: string, isPublic: boolean): string {
  const der = openssl(['pkey', ...(isPublic ? ['-pubin'] : []), '-in', file, '-pubout', '-outform', 'DER']);
  return createHash('sha256').update(der).digest('hex');
}

function modulus(file: string): string {
  return openssl(['rsa', '-in', file, '-noout', '-modulus']).toString().trim();
}

function mode(file: string): number {
  return statSync(file).mode & 0o777;
}

beforeAll(() => {
  dir = tempDir();
  pkcs8 = writeTemp(
    dir,
    'openssl-pkcs8.pem',
    openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048']).toString(),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('paysign keys generate', () => {
  it('writes three PEMs openssl accepts, private ones 0600, and refuses to overwrite them', async () => {
    const out = join(dir, 'generated');
    const r = await paysign(['keys', 'generate', '--bits', '2048', '--out-dir', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const files = ['private-pkcs8.pem', 'private-pkcs1.pem', 'public.pem'].map((f) => join(out, f));
    const [p8, p1, pub] = files as [string, string, string];
    expect(readFileSync(p8, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(p1, 'utf8')).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(readFileSync(pub, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(mode(p8)).toBe(0o600);
    expect(mode(p1)).toBe(0o600);
    expect(openssl(['rsa', '-in', p1, '-check', '-noout']).toString()).toContain('RSA key ok');
    expect(openssl(['rsa', '-in', p8, '-text', '-noout']).toString()).toContain(
      'Private-Key: (2048 bit, 2 primes)',
    );
    expect(modulus(p1)).toBe(modulus(p8));
    expect(openssl(['rsa', '-pubin', '-in', pub, '-noout', '-modulus']).toString().trim()).toBe(modulus(p8));
    expect(r.stdout).toContain(opensslFingerprint(pub, true));

    const before = readFileSync(p8, 'utf8');
    const again = await paysign(['keys', 'generate', '--bits', '2048', '--out-dir', out]);
    expect(expectOneLineError(again)).toContain('already exists: pass --force');
    expect(readFileSync(p8, 'utf8')).toBe(before);
  });

  it('without --out-dir prints the three PEMs and the fingerprint', async () => {
    const r = await paysign(['keys', 'generate', '--bits', '2048']);
    expect(r.code).toBe(0);
    const blocks = r.stdout.match(/-----BEGIN ([A-Z ]+)-----/g);
    expect(blocks).toEqual([
      '-----BEGIN PRIVATE KEY-----',
      '-----BEGIN RSA PRIVATE KEY-----',
      '-----BEGIN PUBLIC KEY-----',
    ]);
    const pub = writeTemp(
      dir,
      'printed-public.pem',
      /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----\n/.exec(r.stdout)![0],
    );
    expect(r.stdout).toContain(
      `fingerprint (SHA-256 of the public key's SPKI DER): ${opensslFingerprint(pub, true)}`,
    );
  });
});

describe('paysign keys inspect', () => {
  it('describes an openssl key: kind, bits, the fingerprint openssl computes', async () => {
    const r = await paysign(['keys', 'inspect', pkcs8, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(j).toMatchObject({
      kind: 'pkcs8-private',
      bits: 2048,
      private: true,
      usable: true,
      problem: null,
    });
    expect(j.fingerprint).toBe(opensslFingerprint(pkcs8, false));
  });

  it('a 1024-bit key is a key but unusable: exit 1 and the problem', async () => {
    const short = writeTemp(
      dir,
      'short.pem',
      openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024']).toString(),
    );
    const r = await paysign(['keys', 'inspect', short]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^bits\s+1024$/m);
    expect(r.stdout).toMatch(
      /^problem\s+Refused: too short\. This RSA key has 1024 bits; the gateway requires at least 2048/m,
    );
    expect(r.stdout).toMatch(/^usable\s+no$/m);
  });

  it('an encrypted key: exit 1; garbage: exit 2 with one line', async () => {
    const enc = writeTemp(
      dir,
      'enc.pem',
      openssl(['pkey', '-in', pkcs8, '-aes256', '-passout', 'pass:secret']).toString(),
    );
    const r = await paysign(['keys', 'inspect', enc]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^kind\s+encrypted private key$/m);
    expect(r.stdout).toContain('encrypted with a passphrase');

    const garbage = await paysign(['keys', 'inspect', '-'], { input: 'not a key at all\n' });
    expect(expectOneLineError(garbage)).toContain('This is not a PEM key');
  });
});

describe('paysign keys convert', () => {
  it('PKCS#8 → PKCS#1 equals `openssl rsa -traditional`, and back again', async () => {
    const r = await paysign(['keys', 'convert', pkcs8, '--to', 'pkcs1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(openssl(['rsa', '-traditional', '-in', pkcs8]).toString());
    const back = await paysign(['keys', 'convert', '-', '--to', 'pkcs8'], { input: r.stdout });
    expect(back.stdout).toBe(readFileSync(pkcs8, 'utf8'));
  });

  it('→ spki (to --out, mode 0644) equals `openssl rsa -pubout`; → pkcs1-public equals -RSAPublicKey_out', async () => {
    const out = join(dir, 'converted-public.pem');
    const r = await paysign(['keys', 'convert', pkcs8, '--to', 'spki', '--out', out]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(openssl(['rsa', '-pubout', '-in', pkcs8]).toString());
    expect(mode(out)).toBe(0o644);

    const p1 = await paysign(['keys', 'convert', out, '--to', 'pkcs1-public']);
    expect(p1.stdout).toBe(openssl(['rsa', '-in', pkcs8, '-RSAPublicKey_out']).toString());
  });

  it('a private key written with --out gets mode 0600', async () => {
    const out = join(dir, 'converted-private.pem');
    const r = await paysign(['keys', 'convert', pkcs8, '--to', 'pkcs1', '--out', out]);
    expect(r.code).toBe(0);
    expect(mode(out)).toBe(0o600);
    expect(modulus(out)).toBe(modulus(pkcs8));
  });
});
