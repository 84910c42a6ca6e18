import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyImporter, describeKey } from '../../src/features/profiles/key-import.ts';
import { DemoMerchantSchema, uniqueName } from '../../src/features/profiles/profile-schema.ts';
import { loadStoredProfiles, saveStoredProfiles } from '../../src/features/profiles/profile-storage.ts';

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  dump() {
    return [...this.map.values()].join('\n');
  }
}

const profile = {
  id: 'p-1',
  name: 'Local sandbox (demo)',
  targetName: 'local',
  endpointKind: 'endpoint' as const,
  endpointId: '1111',
  endpointGroupId: '',
  login: 'demo-merchant',
  origin: 'sandbox-demo' as const,
};

describe('stored profiles', () => {
  it('round-trips the non-secret fields and drops anything else', () => {
    const storage = new MemoryStorage();
    const withSecret = {
      ...profile,
      controlKey: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20',
      privateKeyPem: '-----BEGIN PRIVATE KEY-----',
    };
    saveStoredProfiles({ version: 1, activeId: 'p-1', profiles: [withSecret] }, storage);
    expect(storage.dump()).not.toContain('B17F59B4');
    expect(storage.dump()).not.toContain('PRIVATE KEY');
    expect(loadStoredProfiles(storage)).toEqual({ version: 1, activeId: 'p-1', profiles: [profile] });
  });

  it('treats unreadable or empty storage as a first start', () => {
    const storage = new MemoryStorage();
    expect(loadStoredProfiles(storage)).toBeNull();
    storage.setItem('pay-console.profiles', '{not json');
    expect(loadStoredProfiles(storage)).toBeNull();
    storage.setItem('pay-console.profiles', JSON.stringify({ version: 2, profiles: [] }));
    expect(loadStoredProfiles(storage)).toBeNull();
  });

  it('parses the demo merchant with numeric or text ids', () => {
    const demo = DemoMerchantSchema.parse({
      login: 'demo',
      controlKey: 'k',
      endpointIds: [1111],
      endpointGroupIds: ['42'],
      privateKeyPkcs8Pem: 'pem',
    });
    expect(demo.endpointIds).toEqual(['1111']);
    expect(demo.endpointGroupIds).toEqual(['42']);
    expect(DemoMerchantSchema.safeParse({ login: 'demo' }).success).toBe(false);
  });

  it('picks unused names', () => {
    expect(uniqueName('New profile', [])).toBe('New profile');
    expect(uniqueName('New profile', ['New profile', 'New profile 2'])).toBe('New profile 3');
  });
});

describe('the profile key reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pf-keys-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('describes a PKCS#1 key with the fingerprint openssl computes, and imports it for signing', async () => {
    const keyPath = join(dir, 'pkcs1.pem');
    execFileSync('openssl', ['genrsa', '-traditional', '-out', keyPath, '2048'], { stdio: 'ignore' });
    const pem = readFileSync(keyPath, 'utf8');
    expect(pem).toContain('BEGIN RSA PRIVATE KEY');
    const spkiDer = execFileSync('openssl', ['pkey', '-in', keyPath, '-pubout', '-outform', 'DER']);
    const fingerprint = createHash('sha256').update(spkiDer).digest('hex');
    const importer = createKeyImporter();
    const first = importer.get(pem);
    expect(importer.get(pem)).toBe(first);
    const result = await first;
    expect(result.error).toBeUndefined();
    expect(describeKey(result.inspection)).toBe(
      `PKCS#1 RSA private key, 2048 bits, fingerprint ${fingerprint}`,
    );
    expect(result.signingKey?.key.extractable).toBe(false);
  });

  it('gives the core message for garbage, public and short keys', async () => {
    const importer = createKeyImporter();
    expect((await importer.get('hello')).error).toMatch(/not a PEM key/);
    const shortPath = join(dir, 'short.pem');
    execFileSync(
      'openssl',
      ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024', '-out', shortPath],
      { stdio: 'ignore' },
    );
    expect((await importer.get(readFileSync(shortPath, 'utf8'))).error).toMatch(/1024 bits.*at least 2048/);
    const longPath = join(dir, 'long.pem');
    execFileSync(
      'openssl',
      ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', longPath],
      { stdio: 'ignore' },
    );
    const pub = execFileSync('openssl', ['pkey', '-in', longPath, '-pubout']).toString();
    const readPub = await importer.get(pub);
    expect(readPub.inspection.kind).toBe('spki-public');
    expect(readPub.error).toMatch(/signing needs the merchant's private key/);
    expect(readPub.signingKey).toBeUndefined();
  });
});
