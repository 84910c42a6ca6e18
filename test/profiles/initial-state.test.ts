import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { keyImporter } from '../../src/features/profiles/key-import.ts';
import { initialProfilesState } from '../../src/features/profiles/initial-state.ts';
import { settleProfilesPrefetch } from '../../src/features/profiles/prefetch.ts';
import type { DemoMerchant, StoredProfiles } from '../../src/features/profiles/profile-schema.ts';
import type { ProxyTarget } from '../../src/contracts/proxy.ts';

const targets = [
  { name: 'real', kind: 'remote', baseUrl: 'https://gate.example/paynet' },
  { name: 'local', kind: 'local', baseUrl: 'http://127.0.0.1:4173/sandbox/paynet' },
] as unknown as ProxyTarget[];
const demo: DemoMerchant = {
  login: 'demo-merchant',
  controlKey: 'CK',
  endpointIds: ['1111'],
  endpointGroupIds: ['2222'],
  privateKeyPkcs8Pem: '-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----',
};
const stored: StoredProfiles = {
  version: 1,
  activeId: 'u1',
  profiles: [
    {
      id: 'u1',
      name: 'Mine',
      targetName: 'real',
      endpointKind: 'endpoint',
      endpointId: '7',
      endpointGroupId: '',
      login: 'me',
      origin: 'user',
    },
    {
      id: 'd1',
      name: 'Local sandbox (demo)',
      targetName: 'local',
      endpointKind: 'endpoint',
      endpointId: '1111',
      endpointGroupId: '',
      login: 'demo-merchant',
      origin: 'sandbox-demo',
    },
  ],
};

describe('the profiles’ first state', () => {
  it('a first start with everything in hand: the demo profile on the local target, its secrets filled', () => {
    const s = initialProfilesState(null, { targets, demo, vault: { state: 'none' } });
    expect(s.profiles).toHaveLength(1);
    expect(s.profiles[0]).toMatchObject({ origin: 'sandbox-demo', targetName: 'local', endpointId: '1111' });
    expect(s.activeId).toBe(s.profiles[0]!.id);
    expect(s.vault).toEqual({ kind: 'off' });
    expect(s.secretsById[s.activeId!]).toEqual({ controlKey: 'CK', privateKeyPem: demo.privateKeyPkcs8Pem });
    expect(s.demoFilled).toEqual([s.activeId]);
    expect(s.demoKeyLost).toBe(false);
  });

  it('nothing in hand: the stored state as it is, the vault still being checked, no secret', () => {
    expect(initialProfilesState(stored)).toEqual({
      profiles: stored.profiles,
      activeId: 'u1',
      vault: { kind: 'checking' },
      secretsById: {},
      demoFilled: [],
      demoKeyLost: false,
    });
    expect(initialProfilesState(null).profiles).toEqual([]);
  });

  it('a locked vault fills no secret, not even the demo’s', () => {
    const s = initialProfilesState(stored, {
      targets,
      demo,
      vault: { state: 'present', record: {} as never },
    });
    expect(s.vault).toEqual({ kind: 'locked' });
    expect(s.secretsById).toEqual({});
    expect(s.demoFilled).toEqual([]);
  });

  it('stored profiles are kept; only the demo ones get the demo secrets', () => {
    const s = initialProfilesState(stored, { targets, demo, vault: { state: 'none' } });
    expect(s.profiles).toBe(stored.profiles);
    expect(Object.keys(s.secretsById)).toEqual(['d1']);
  });

  it('a demo merchant whose key was replaced says so', () => {
    const s = initialProfilesState(null, {
      targets,
      demo: { ...demo, privateKeyPkcs8Pem: null },
      vault: { state: 'none' },
    });
    expect(s.demoKeyLost).toBe(true);
    expect(s.secretsById[s.activeId!]?.privateKeyPem).toBe('');
  });
});

describe('settleProfilesPrefetch', () => {
  it('keeps what arrived within the cap and leaves the rest to the promises', async () => {
    let lateDone!: (d: DemoMerchant) => void;
    const late = new Promise<DemoMerchant>((r) => (lateDone = r));
    const p = await settleProfilesPrefetch(
      {
        targets: Promise.resolve(targets),
        demo: late,
        vault: Promise.resolve({ state: 'none' }),
      },
      20,
    );
    expect(p.settled?.targets).toBe(targets);
    expect(p.settled?.demo).toBeUndefined();
    expect(p.demo).toBe(late);
    lateDone(demo);
    await late;
    // What arrives after the cap does not change what the first render was given.
    expect(p.settled?.demo).toBeUndefined();
  });

  it("imports the demo merchant's key before the first render, once, where the provider will use it", async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const withKey: DemoMerchant = { ...demo, privateKeyPkcs8Pem: pem };
    const p = await settleProfilesPrefetch(
      {
        targets: Promise.resolve(targets),
        demo: Promise.resolve(withKey),
        vault: Promise.resolve({ state: 'none' }),
      },
      5000,
    );
    expect(p.settled?.demoKey?.pem).toBe(pem);
    const result = p.settled!.demoKey!.result;
    expect(result.error).toBeUndefined();
    expect(result.signingKey?.key.type).toBe('private');
    // The provider asks the same importer: it gets this very result, so its state stays as it is.
    expect(await keyImporter.get(pem)).toBe(result);

    // A locked vault: the provider fills no demo secrets, so nothing is imported.
    const locked = await settleProfilesPrefetch(
      {
        targets: Promise.resolve(targets),
        demo: Promise.resolve(withKey),
        vault: Promise.resolve({ state: 'present', record: {} as never }),
      },
      5000,
    );
    expect(locked.settled?.demo).toBe(withKey);
    expect(locked.settled?.demoKey).toBeUndefined();

    // The user's own profile active: the first render does not sign with the demo key.
    const saved = new Map([['pay-console.profiles', JSON.stringify(stored)]]);
    vi.stubGlobal('localStorage', { getItem: (k: string) => saved.get(k) ?? null });
    try {
      const own = await settleProfilesPrefetch(
        {
          targets: Promise.resolve(targets),
          demo: Promise.resolve(withKey),
          vault: Promise.resolve({ state: 'none' }),
        },
        5000,
      );
      expect(own.settled?.demo).toBe(withKey);
      expect(own.settled?.demoKey).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a failed answer is not settled (the provider reports it)', async () => {
    const failed = Promise.reject(new Error('down'));
    failed.catch(() => undefined);
    const p = await settleProfilesPrefetch({ targets: failed }, 1000);
    expect(p.settled?.targets).toBeUndefined();
  });
});
