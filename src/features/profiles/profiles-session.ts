import type { ClassroomCredentials } from '../../browser/classroom-credentials.ts';
import type { ProxyTarget } from '../../contracts/proxy.ts';
import { initialProfilesState, preferredTarget, vaultStatusOf, type VaultStatus } from './initial-state.ts';
import type { KeyImport } from './key-import.ts';
import { blankProfile, newProfileId, uniqueName, type DemoMerchant, type Profile } from './profile-schema.ts';
import type { EditableField, ProfilesPorts } from './profiles-ports.ts';
import { snapshotMaker, type ProfilesSnapshot } from './profiles-snapshot.ts';
import { RemoteValue, type Timers } from '../../ui/remote-value.ts';
import {
  activeOf,
  keptSecrets,
  withClassroomMerchant,
  withDemoSecrets,
  withFirstProfile,
  withProfile,
  withSecret,
  type Roster,
} from './roster.ts';
import type { KeyState, SigningState } from './signing-state.ts';
import type { ProfileSecrets } from './vault-crypto.ts';
import type { VaultSession, VaultState } from './vault-session.ts';
import { errorText } from '../../core/errors.ts';
import { Store } from '../../core/store.ts';

export type { EditableField, ProfilesPorts } from './profiles-ports.ts';
export type { KeyState, ProfilesSnapshot, SigningState, Timers, VaultStatus };

/**
 * The merchant profiles, headless: the profiles and the active one, their secrets (in memory unless
 * remembered in the vault), the demo merchant's and the classroom's profiles, the key import and what
 * the active profile signs with. `start` begins the fetches; every change is one immutable snapshot.
 */
export class ProfilesSession extends Store<ProfilesSnapshot> {
  readonly #ports: ProfilesPorts;
  #roster: Roster;
  #demoKeyLost: boolean;
  /** Demo profiles whose secrets were filled from the demo merchant (never twice). */
  readonly #demoFilled: Set<string>;
  readonly #classroomFilled = new Map<string, string>();
  #loadedKey: { pem: string; result: KeyImport } | null;
  #importing = '';
  #prompt: ((done: boolean) => void) | null = null;
  /** The vault's record is still to be read (its state unknown, or only the hint's). */
  #vaultToRead: boolean;
  readonly #vault: VaultState;
  #session: Promise<VaultSession> | undefined;
  /** The session once loaded (always, while unlocked: only the session unlocks). */
  #opened: VaultSession | undefined;
  readonly #targets: RemoteValue<ProxyTarget[]>;
  readonly #demo: RemoteValue<DemoMerchant>;
  readonly #classroom: RemoteValue<ClassroomCredentials | null> | null;
  #saved: Roster | null = null;
  #persistFor: unknown[] = [];
  #cancelPersist: (() => void) | undefined;
  readonly #makeSnapshot = snapshotMaker();
  protected snap: ProfilesSnapshot;

  constructor(ports: ProfilesPorts) {
    super();
    this.#ports = ports;
    const { settled, timers } = ports;
    const initial = initialProfilesState(ports.storage.load(), settled);
    const { profiles, activeId, secretsById } = initial;
    this.#roster = { profiles, activeId, secretsById, setupError: null };
    this.#demoKeyLost = initial.demoKeyLost;
    this.#demoFilled = new Set(initial.demoFilled);
    this.#vaultToRead = initial.vault.kind === 'checking' || !!settled?.vaultFromHint;
    this.#loadedKey = settled?.demoKey ?? null;
    this.#vault = { status: initial.vault, writeError: null, changed: () => this.#update() };
    this.#targets = new RemoteValue(ports.fetchTargets, timers, this.#update, settled?.targets);
    this.#demo = new RemoteValue(ports.fetchDemoMerchant, timers, this.#update, settled?.demo);
    const feed = ports.classroom;
    this.#classroom =
      feed && new RemoteValue(() => feed().then((m) => m.loadClassroomCredentials()), timers, this.#update);
    this.snap = this.#derive();
  }

  /** Starts the fetches, the vault read and the classroom's change feed; returns the stop. */
  start = (): (() => void) => {
    let stop: (() => void) | undefined;
    let live = true;
    void this.#ports.classroom?.().then((m) => {
      if (live) stop = m.subscribeClassroomCredentials(() => this.#classroom?.refetch());
    });
    this.#readVault();
    this.#update();
    return () => {
      live = false;
      stop?.();
      this.#cancelPersist?.();
      this.#persistFor = [];
    };
  };

  selectProfile = (id: string): void => this.#set({ ...this.#roster, activeId: id });

  addProfile = (): void => {
    const name = uniqueName('New profile', this.#names());
    const target = activeOf(this.#roster)?.targetName ?? preferredTarget(this.#targets.data ?? []);
    this.#set(withProfile(this.#roster, blankProfile(name, target)));
  };

  duplicateProfile = (): void => {
    const active = activeOf(this.#roster);
    if (!active) return;
    const copy: Profile = {
      ...active,
      id: newProfileId(),
      name: uniqueName(`${active.name} (copy)`, this.#names()),
      origin: 'user',
    };
    const r = withProfile(this.#roster, copy);
    const s = r.secretsById[active.id];
    this.#set(s ? { ...r, secretsById: { ...r.secretsById, [copy.id]: { ...s } } } : r);
  };

  deleteProfile = (): void => {
    const { profiles, secretsById } = this.#roster;
    const active = activeOf(this.#roster);
    if (!active || profiles.length <= 1) return;
    const rest = profiles.filter((p) => p.id !== active.id);
    const secrets = { ...secretsById };
    delete secrets[active.id];
    this.#set({ ...this.#roster, profiles: rest, secretsById: secrets, activeId: rest[0]?.id ?? null });
  };

  updateProfile = <K extends EditableField>(field: K, value: Profile[K]): void => {
    const id = activeOf(this.#roster)?.id;
    const profiles = this.#roster.profiles.map((p) => (p.id === id ? { ...p, [field]: value } : p));
    this.#set({ ...this.#roster, profiles });
  };

  setSecret = (field: keyof ProfileSecrets, value: string): void => {
    const active = activeOf(this.#roster);
    if (active) this.#set(withSecret(this.#roster, active.id, field, value));
  };

  setPrivateKeyPem = async (text: string): Promise<void> => {
    const target = this.#activeOrThrow();
    if (this.#vault.status.kind === 'locked')
      throw new Error(
        'The remembered secrets are locked: unlock them (or forget them on this device) before setting a key.',
      );
    this.#set(withSecret(this.#roster, target.id, 'privateKeyPem', text));
    const result = await this.#ports.keys.get(text);
    if (result.error) throw new Error(result.error);
    this.#demoKeyLost = false;
    this.#update();
  };

  /**
   * Puts the key into the active profile and keeps it in the encrypted vault: at once when the vault
   * is unlocked, else after asking for a new passphrase. Resolves false when the user cancels.
   */
  rememberPrivateKey = async (text: string): Promise<boolean> => {
    const target = this.#activeOrThrow();
    const v = this.#vault.status;
    if (v.kind === 'locked')
      throw new Error(
        'The remembered secrets are locked: unlock them in the profile bar first, then remember this key.',
      );
    if (v.kind !== 'off' && v.kind !== 'unlocked')
      throw new Error('Secrets cannot be remembered on this device (its storage is unavailable or damaged).');
    const result = await this.#ports.keys.get(text);
    if (result.error) throw new Error(result.error);
    this.#demoKeyLost = false;
    this.#set(withSecret(this.#roster, target.id, 'privateKeyPem', text));
    if (v.kind === 'unlocked') {
      await this.#opened?.persist(keptSecrets(this.#roster));
      return true;
    }
    return new Promise<boolean>((resolve) => {
      this.#prompt = resolve;
      this.#update();
    });
  };

  /** The passphrase `rememberPrivateKey` asked for: remembers with it, then answers the wait. */
  answerPrompt = async (passphrase: string): Promise<void> => {
    await this.remember(passphrase);
    this.#prompt?.(true);
  };

  closePrompt = (): void => {
    this.#prompt?.(false);
    this.#prompt = null;
    this.#update();
  };

  remember = async (passphrase: string): Promise<void> =>
    (await this.#vaultSession()).remember(passphrase, () => keptSecrets(this.#roster));

  unlock = async (passphrase: string): Promise<void> => {
    const opened = await (await this.#vaultSession()).unlock(passphrase);
    this.#set({ ...this.#roster, secretsById: { ...this.#roster.secretsById, ...opened } });
  };

  /** Writes the secrets a last time, then drops them, the vault's key and every imported key. */
  lock = async (): Promise<void> => {
    await (await this.#vaultSession()).lock(keptSecrets(this.#roster));
    this.#ports.keys.clear();
    this.#demo.reset();
    this.#loadedKey = null;
    this.#set({ ...this.#roster, secretsById: {} });
  };

  forget = async (): Promise<void> => {
    await this.#opened?.drop();
    await this.#ports.vault.remove();
    this.#vault.writeError = null;
    this.#setVault({ kind: 'off' });
  };

  retryTargets = (): void => this.#targets.refetch();

  #names(): string[] {
    return this.#roster.profiles.map((x) => x.name);
  }

  #activeOrThrow(): Profile {
    const target = activeOf(this.#roster);
    if (!target) throw new Error('There is no active profile yet: wait for the profile bar to load.');
    return target;
  }

  #vaultSession(): Promise<VaultSession> {
    const { vault, timers } = this.#ports;
    this.#session ??= vault
      .session()
      .then((m) => (this.#opened = new m.VaultSession(vault, this.#vault, timers.now)));
    return this.#session;
  }

  #setVault(status: VaultStatus): void {
    this.#vault.status = status;
    this.#update();
  }

  #set(roster: Roster): void {
    this.#roster = roster;
    this.#update();
  }

  #writable(): boolean {
    const { kind } = this.#vault.status;
    return kind !== 'checking' && kind !== 'locked';
  }

  #readVault(): void {
    const fromHint = this.#ports.settled?.vaultFromHint;
    if (!this.#vaultToRead) return;
    this.#vaultToRead = false;
    (this.#ports.prefetchedVault ?? this.#ports.vault.read()).then(
      (v) => {
        if (!fromHint) return this.#setVault(vaultStatusOf(v));
        // The hint said "nothing remembered" but a record is there: as if it had been read first,
        // the vault is locked (or damaged) and the demo secrets filled meanwhile are dropped. Not
        // once the user has acted on the vault (it is then theirs, just written).
        if (v.state === 'none' || this.#vault.status.kind !== 'off') return;
        const secretsById = { ...this.#roster.secretsById };
        for (const id of this.#demoFilled) delete secretsById[id];
        this.#demoFilled.clear();
        this.#roster = { ...this.#roster, secretsById };
        this.#setVault(vaultStatusOf(v));
      },
      (e: unknown) => this.#setVault({ kind: 'unavailable', message: errorText(e) }),
    );
  }

  /** Brings what follows up to date, then tells the listeners. */
  #update = (): void => {
    this.#reconcile();
    this.snap = this.#derive();
    this.notify();
  };

  /** What follows from the state (the provider's effects, once): each step does nothing when done. */
  #reconcile(): void {
    this.#targets.want();
    const targets = this.#targets.data;
    const writable = this.#writable();
    let r = this.#roster;
    const c = this.#classroom?.data;
    if (this.#classroom) {
      this.#classroom.want();
      // Leaving the classroom removes its profile.
      if (c === null && r.profiles.some((p) => p.origin === 'classroom'))
        r = { ...r, profiles: r.profiles.filter((p) => p.origin !== 'classroom') };
      if (c && targets && writable) r = withClassroomMerchant(r, c, targets, this.#classroomFilled);
    }
    if (r.profiles.length === 0 && targets)
      r = withFirstProfile(r, targets, this.#demo.data, this.#noDemo(c));
    const unfilled = r.profiles.some((p) => p.origin === 'sandbox-demo' && !this.#demoFilled.has(p.id));
    // Classroom mode has no demo merchant (the server refuses it): the trainee's own merchant signs.
    if (!this.#classroom && (r.profiles.length === 0 || (writable && unfilled))) this.#demo.want();
    const demo = this.#demo.data;
    if (demo && writable && unfilled) {
      if (demo.privateKeyPkcs8Pem === null) this.#demoKeyLost = true;
      r = withDemoSecrets(r, demo, this.#demoFilled);
    }
    this.#roster = r;
    const { profiles, activeId } = r;
    if (profiles.length > 0 && (this.#saved?.profiles !== profiles || this.#saved.activeId !== activeId)) {
      this.#saved = r;
      this.#ports.storage.save({ version: 1, activeId, profiles });
    }
    this.#schedulePersist();
    this.#importKey();
  }

  /** Why the first profile is blank, once known; null while the demo merchant may still come. */
  #noDemo(c: ClassroomCredentials | null | undefined): string | null {
    if (this.#classroom)
      return c === null
        ? 'No demo merchant in the classroom: join it (/join) for a merchant of your own.'
        : null;
    const e = this.#demo.error;
    return e ? `No demo profile: ${e.message} Fill this profile in by hand.` : null;
  }

  /** While unlocked, the secrets are sealed 300 ms after they (or the profiles) last changed. */
  #schedulePersist(): void {
    const kind = this.#vault.status.kind;
    const deps = [this.#roster.secretsById, this.#roster.profiles, kind];
    if (deps.every((d, i) => d === this.#persistFor[i])) return;
    this.#persistFor = deps;
    this.#cancelPersist?.();
    this.#cancelPersist =
      kind === 'unlocked'
        ? this.#ports.timers.after(300, () => void this.#opened?.persist(keptSecrets(this.#roster)))
        : undefined;
  }

  #pem(): string {
    const active = activeOf(this.#roster);
    const pem = (active && this.#roster.secretsById[active.id]?.privateKeyPem) || '';
    return pem.trim() === '' ? '' : pem;
  }

  #importKey(): void {
    const pem = this.#pem();
    if (pem === this.#importing) return;
    this.#importing = pem;
    if (pem === '') return;
    void this.#ports.keys.get(pem).then((result) => {
      if (this.#importing !== pem) return;
      if (this.#loadedKey?.pem === pem && this.#loadedKey.result === result) return;
      this.#loadedKey = { pem, result };
      this.#update();
    });
  }

  #derive(): ProfilesSnapshot {
    return this.#makeSnapshot(
      this.#roster,
      this.#pem(),
      this.#loadedKey,
      this.#targets,
      this.#vault,
      this.#demoKeyLost,
      this.#prompt !== null,
    );
  }
}
