/**
 * The profiles model, headless: fake server, storage and clock; the real key importer and the real
 * vault crypto (Web Crypto from Node), so a remembered record is one the browser could open.
 */
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyImporter } from '../../src/features/profiles/key-import.ts';
import type { DemoMerchant, StoredProfiles } from '../../src/features/profiles/profile-schema.ts';
import { loadStoredProfiles, saveStoredProfiles } from '../../src/features/profiles/profile-storage.ts';
import {
  ProfilesSession,
  type ProfilesPorts,
  type ProfilesSnapshot,
} from '../../src/features/profiles/profiles-session.ts';
import type { ClassroomFeed } from '../../src/features/profiles/profiles-ports.ts';
import {
  deriveVaultKey,
  openVault,
  sealVault,
  type VaultRecord,
} from '../../src/features/profiles/vault-crypto.ts';
import type { StoredVault } from '../../src/features/profiles/vault-store.ts';
import type { ClassroomCredentials } from '../../src/browser/classroom-credentials.ts';
import type { ProxyTarget } from '../../src/contracts/proxy.ts';

const subtle = webcrypto.subtle as SubtleCrypto;
const PASSPHRASE = 'correct horse battery';
const targets: ProxyTarget[] = [
  { name: 'real', kind: 'production', baseUrl: 'https://gate.example/paynet' },
  { name: 'local', kind: 'local', baseUrl: 'http://127.0.0.1:4173/sandbox/paynet' },
];
let pem = '';
let demo: DemoMerchant;
/** A record sealed under PASSPHRASE holding the secrets of profile u1. */
let sealed: VaultRecord;

beforeAll(async () => {
  pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  demo = {
    login: 'demo-merchant',
    controlKey: 'DEMO-CK',
    endpointIds: ['1111'],
    endpointGroupIds: ['2222'],
    privateKeyPkcs8Pem: pem,
  };
  const key = await deriveVaultKey(subtle, PASSPHRASE);
  sealed = await sealVault(
    subtle,
    key,
    { version: 1, profiles: { u1: { controlKey: 'MY-CK', privateKeyPem: pem } } },
    new Date('2026-01-02T03:04:05Z'),
  );
});

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  dump() {
    return [...this.items.values()].join('\n');
  }
}

/** A clock that moves only when told. */
function fakeTimers() {
  let now = Date.parse('2026-03-04T05:06:07Z');
  let due: { at: number; run: () => void }[] = [];
  return {
    now: () => now,
    after(ms: number, run: () => void) {
      const entry = { at: now + ms, run };
      due.push(entry);
      return () => {
        due = due.filter((d) => d !== entry);
      };
    },
    advance(ms: number) {
      now += ms;
      const ready = due.filter((d) => d.at <= now);
      due = due.filter((d) => d.at > now);
      for (const d of ready) d.run();
    },
  };
}

/** Lets every pending promise settle (no timer involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Resolves once `done` holds, checked now and on every change `subscribe` reports (the model's
 * snapshots, the vault's writes): a promise, not a count of event-loop turns, so a slow Web Crypto
 * on a busy machine only makes it later (the test's own timeout still bounds it).
 */
function whenTrue(subscribe: (listener: () => void) => () => void, done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (done()) return resolve();
    const stop = subscribe(() => {
      if (!done()) return;
      stop();
      resolve();
    });
  });
}

const vaultUpdatedAt = (s: ProfilesSnapshot): string | undefined =>
  s.vault.kind === 'unlocked' ? s.vault.updatedAt : undefined;

interface Setup {
  stored?: StoredProfiles;
  vault?: VaultRecord;
  demo?: () => Promise<DemoMerchant>;
  classroom?: { credentials: ClassroomCredentials | null };
}

function setup(options: Setup = {}) {
  const storage = new MemoryStorage();
  if (options.stored) saveStoredProfiles(options.stored, storage);
  const timers = fakeTimers();
  let record: VaultRecord | undefined = options.vault;
  const writes: VaultRecord[] = [];
  const writeListeners = new Set<() => void>();
  let failWrites: Error | null = null;
  const asked = { demo: 0, targets: 0 };
  const cleared: number[] = [];
  const importer = createKeyImporter();
  const classroomListeners = new Set<() => void>();
  const room = options.classroom;
  const feed: ClassroomFeed | null = room
    ? {
        loadClassroomCredentials: () => Promise.resolve(room.credentials),
        subscribeClassroomCredentials(listener) {
          classroomListeners.add(listener);
          return () => classroomListeners.delete(listener);
        },
      }
    : null;
  const ports: ProfilesPorts = {
    storage: { load: () => loadStoredProfiles(storage), save: (v) => saveStoredProfiles(v, storage) },
    fetchTargets: () => {
      asked.targets += 1;
      return Promise.resolve(targets);
    },
    fetchDemoMerchant: () => {
      asked.demo += 1;
      return options.demo ? options.demo() : Promise.resolve(demo);
    },
    classroom: feed && (() => Promise.resolve(feed)),
    vault: {
      read: (): Promise<StoredVault> =>
        Promise.resolve(record ? { state: 'present', record } : { state: 'none' }),
      write: (r) => {
        if (failWrites) return Promise.reject(failWrites);
        writes.push(r);
        record = r;
        writeListeners.forEach((l) => l());
        return Promise.resolve();
      },
      remove: () => {
        record = undefined;
        return Promise.resolve();
      },
      subtle,
      session: () => import('../../src/features/profiles/vault-session.ts'),
    },
    keys: {
      get: (p) => importer.get(p),
      clear: () => {
        cleared.push(timers.now());
        importer.clear();
      },
    },
    timers,
  };
  const model = new ProfilesSession(ports);
  const stop = model.start();
  const snap = (): ProfilesSnapshot => model.getSnapshot();
  const onChange = (listener: () => void) => {
    const off = model.subscribe(listener);
    writeListeners.add(listener);
    return () => {
      off();
      writeListeners.delete(listener);
    };
  };
  return {
    until: (done: () => boolean) => whenTrue(onChange, done),
    model,
    snap,
    stop,
    storage,
    timers,
    writes,
    asked,
    cleared,
    record: () => record,
    failWrites: (e: Error | null) => (failWrites = e),
    notifyClassroom: () => classroomListeners.forEach((l) => l()),
  };
}

const userProfile = {
  id: 'u1',
  name: 'Mine',
  targetName: 'real',
  endpointKind: 'endpoint',
  endpointId: '7',
  endpointGroupId: '',
  login: 'me',
  origin: 'user',
} as const;

describe('the profiles model', () => {
  it('first load with nothing stored: the demo profile on the local target, signing with the demo secrets', async () => {
    const t = setup();
    await t.until(() => t.snap().key.status === 'done');
    const s = t.snap();
    expect(s.profiles).toHaveLength(1);
    expect(s.active).toMatchObject({
      name: 'Local sandbox (demo)',
      origin: 'sandbox-demo',
      targetName: 'local',
      endpointId: '1111',
      login: 'demo-merchant',
    });
    expect(s.secrets).toEqual({ controlKey: 'DEMO-CK', privateKeyPem: pem });
    expect(s.vault).toEqual({ kind: 'off' });
    expect(s.key.status).toBe('done');
    expect(s.signing.problems).toEqual([]);
    expect(s.signing.context?.credentials).toMatchObject({ login: 'demo-merchant', controlKey: 'DEMO-CK' });
    expect(s.signing.context?.credentials.privateKey).toBeDefined();
    expect(s.activeLogin).toBe('demo-merchant');
    // The profile is stored, its secrets are not.
    expect(loadStoredProfiles(t.storage)?.profiles).toEqual(s.profiles);
    expect(t.storage.dump()).not.toContain('DEMO-CK');
    expect(t.storage.dump()).not.toContain('PRIVATE KEY');
  });

  it('first load with stored profiles: they stay, the active one too, and ask for no demo merchant', async () => {
    const t = setup({ stored: { version: 1, activeId: 'u1', profiles: [userProfile] } });
    expect(t.snap().active?.id).toBe('u1');
    await settle();
    const s = t.snap();
    expect(s.profiles).toEqual([userProfile]);
    expect(s.secrets).toEqual({ controlKey: '', privateKeyPem: '' });
    expect(t.asked.demo).toBe(0);
    expect(s.signing.context?.target.name).toBe('real');
    expect(s.signing.problems).toContain(
      'No control key: control and HMAC-SHA1 operations cannot be signed until you enter it in the profile.',
    );
  });

  it('adds, renames, duplicates (with the secrets), switches and deletes profiles', async () => {
    const t = setup();
    await settle();
    const demoId = t.snap().active!.id;
    t.model.addProfile();
    expect(t.snap().active).toMatchObject({ name: 'New profile', origin: 'user', targetName: 'local' });
    t.model.updateProfile('name', 'Acme');
    t.model.updateProfile('login', 'acme');
    t.model.setSecret('controlKey', 'ACME-CK');
    const acmeId = t.snap().active!.id;
    expect(t.snap().profiles.map((p) => p.name)).toEqual(['Local sandbox (demo)', 'Acme']);

    t.model.duplicateProfile();
    const copy = t.snap().active!;
    expect(copy).toMatchObject({ name: 'Acme (copy)', login: 'acme', origin: 'user' });
    expect(copy.id).not.toBe(acmeId);
    expect(t.snap().secrets.controlKey).toBe('ACME-CK');

    t.model.selectProfile(demoId);
    expect(t.snap().active?.id).toBe(demoId);
    expect(t.snap().secrets.controlKey).toBe('DEMO-CK');

    t.model.selectProfile(acmeId);
    t.model.deleteProfile();
    expect(t.snap().profiles.map((p) => p.name)).toEqual(['Local sandbox (demo)', 'Acme (copy)']);
    expect(t.snap().active?.id).toBe(demoId);
    expect(loadStoredProfiles(t.storage)?.profiles.map((p) => p.name)).toEqual([
      'Local sandbox (demo)',
      'Acme (copy)',
    ]);
    t.model.deleteProfile();
    t.model.deleteProfile(); // the last one stays
    expect(t.snap().profiles.map((p) => p.name)).toEqual(['Acme (copy)']);
  });

  it('keeps secrets in memory only by default: nothing is stored, nothing written to the vault', async () => {
    const t = setup();
    await settle();
    t.model.setSecret('controlKey', 'TYPED-SECRET');
    t.timers.advance(10_000);
    await settle();
    expect(t.snap().secrets.controlKey).toBe('TYPED-SECRET');
    expect(t.snap().vault).toEqual({ kind: 'off' });
    expect(t.writes).toEqual([]);
    expect(t.storage.dump()).not.toContain('TYPED-SECRET');
  });

  it('remembers on opt-in: the vault holds the secrets sealed under the passphrase, and later changes 300 ms after', async () => {
    const t = setup();
    await settle();
    t.model.setSecret('controlKey', 'KEPT-CK');
    await t.model.remember(PASSPHRASE);
    expect(t.snap().vault.kind).toBe('unlocked');
    expect(t.writes).toHaveLength(1);

    t.model.setSecret('controlKey', 'CHANGED-CK');
    t.timers.advance(299);
    await settle();
    expect(t.writes).toHaveLength(1);
    t.timers.advance(1);
    // The model marks the vault with the write's time once the write has landed.
    await t.until(() => t.writes.length === 2 && vaultUpdatedAt(t.snap()) === '2026-03-04T05:06:07.300Z');
    expect(t.snap().vault).toEqual({ kind: 'unlocked', updatedAt: '2026-03-04T05:06:07.300Z' });
    const record = t.writes[1]!;
    expect(JSON.stringify(record)).not.toContain('CHANGED-CK');
    expect(record.kdf.iterations).toBeGreaterThanOrEqual(600_000);
    const { plaintext } = await openVault(subtle, record, PASSPHRASE);
    expect(Object.values(plaintext.profiles)).toEqual([{ controlKey: 'CHANGED-CK', privateKeyPem: pem }]);
  });

  it('starts locked with a remembered record, unlocks with the passphrase, and lock drops the secrets again', async () => {
    const t = setup({ stored: { version: 1, activeId: 'u1', profiles: [userProfile] }, vault: sealed });
    await settle();
    expect(t.snap().vault).toEqual({ kind: 'locked' });
    expect(t.snap().secrets).toEqual({ controlKey: '', privateKeyPem: '' });
    expect(t.snap().signing.problems).toContain(
      'The remembered secrets are locked: unlock to sign (press Unlock and enter your passphrase).',
    );
    await expect(t.model.setPrivateKeyPem(pem)).rejects.toThrow(/locked/);

    await t.model.unlock(PASSPHRASE);
    await t.until(() => t.snap().key.status === 'done');
    expect(t.snap().vault).toEqual({ kind: 'unlocked', updatedAt: '2026-01-02T03:04:05.000Z' });
    expect(t.snap().secrets).toEqual({ controlKey: 'MY-CK', privateKeyPem: pem });
    expect(t.snap().key.status).toBe('done');

    await t.model.lock();
    expect(t.snap().vault).toEqual({ kind: 'locked' });
    expect(t.snap().secrets).toEqual({ controlKey: '', privateKeyPem: '' });
    expect(t.snap().key.status).toBe('none');
    expect(t.cleared).toHaveLength(1);
    // Lock wrote a last time (the record is another than the one read).
    expect(t.record()).not.toBe(sealed);
    expect(t.record()?.kdf.salt).toBe(sealed.kdf.salt);
  });

  it('refuses a wrong passphrase and stays locked', async () => {
    const t = setup({ stored: { version: 1, activeId: 'u1', profiles: [userProfile] }, vault: sealed });
    await settle();
    await expect(t.model.unlock('wrong passphrase')).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' });
    expect(t.snap().vault).toEqual({ kind: 'locked' });
    expect(t.snap().secrets).toEqual({ controlKey: '', privateKeyPem: '' });
  });

  it('surfaces a failing vault write, and clears it once a write succeeds', async () => {
    const t = setup();
    await settle();
    t.failWrites(new Error('QuotaExceededError'));
    await t.model.remember(PASSPHRASE);
    expect(t.snap().vaultWriteError).toBe(
      'The secrets could not be saved on this device: QuotaExceededError',
    );
    t.failWrites(null);
    t.model.setSecret('controlKey', 'AGAIN');
    t.timers.advance(300);
    await t.until(() => t.writes.length === 1 && t.snap().vaultWriteError === null);
    expect(t.snap().vaultWriteError).toBeNull();
    expect(t.writes).toHaveLength(1);
  });

  it('asks for a passphrase when a key is remembered with the vault off, and resolves false on cancel', async () => {
    const t = setup();
    await settle();
    const answer = t.model.rememberPrivateKey(pem);
    await t.until(() => t.snap().asksPassphrase);
    t.model.closePrompt();
    await expect(answer).resolves.toBe(false);
    expect(t.snap().asksPassphrase).toBe(false);
    expect(t.writes).toEqual([]);
  });

  it('without a demo merchant, a blank profile to fill in by hand (the fetch retried once after 1 s)', async () => {
    const t = setup({ demo: () => Promise.reject(new Error('The server answered 404.')) });
    await settle();
    expect(t.asked.demo).toBe(1);
    expect(t.snap().profiles).toEqual([]);
    t.timers.advance(1000);
    await settle();
    expect(t.asked.demo).toBe(2);
    expect(t.snap().active).toMatchObject({ name: 'Profile 1', origin: 'user', targetName: 'local' });
    expect(t.snap().setupError).toBe(
      'No demo profile: The server answered 404. Fill this profile in by hand.',
    );
  });

  it('classroom mode: the trainee’s merchant is a profile with its secrets, no demo merchant asked; leaving removes it', async () => {
    const room: { credentials: ClassroomCredentials | null } = {
      credentials: {
        version: 1,
        traineeId: 't1',
        name: 'Ada',
        login: 'trainee-ada',
        controlKey: 'ADA-CK',
        endpointId: '3001',
        endpointGroupId: '',
        privateKeyPkcs8Pem: pem,
      },
    };
    const t = setup({ classroom: room });
    await settle();
    expect(t.asked.demo).toBe(0);
    expect(t.snap().active).toMatchObject({
      name: 'Classroom: Ada',
      origin: 'classroom',
      login: 'trainee-ada',
      endpointId: '3001',
    });
    expect(t.snap().secrets).toEqual({ controlKey: 'ADA-CK', privateKeyPem: pem });
    expect(t.snap().setupError).toBeNull();

    room.credentials = null;
    t.notifyClassroom();
    await settle();
    expect(t.snap().profiles.some((p) => p.origin === 'classroom')).toBe(false);
    expect(t.snap().active).toMatchObject({ name: 'Profile 1' });
    expect(t.snap().setupError).toBe(
      'No demo merchant in the classroom: join it (/join) for a merchant of your own.',
    );
    t.stop();
  });
});
