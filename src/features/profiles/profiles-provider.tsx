import {
  createContext,
  lazy,
  Suspense,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { checkEndpointId } from '../../core/index.ts';
import type { ProxyTarget, SigningContext } from '../../shared/contracts/contracts.ts';
import { consoleMode } from '../../shared/browser/console-mode.ts';
import { useResource } from '../../shared/ui/use-async.ts';
import { keyImporter, type KeyImport } from './key-import.ts';
import { fetchDemoMerchant, fetchTargets, takeOnce, type ProfilesPrefetch } from './prefetch.ts';
import {
  blankProfile,
  classroomProfile,
  demoProfile,
  uniqueName,
  type DemoMerchant,
  type Profile,
} from './profile-schema.ts';
import { credentialGapsOf } from './credential-gaps.ts';
import { initialProfilesState, preferredTarget, vaultStatusOf, type VaultStatus } from './initial-state.ts';
import { loadStoredProfiles, saveStoredProfiles } from './profile-storage.ts';
import type { ProfileSecrets, VaultKey } from './vault-crypto.ts';
// The vault's crypto loads when someone remembers, unlocks or locks, not with the first form.
const vaultCrypto = () => import('./vault-crypto.ts');
const classroomCredentials = () => import('../../shared/browser/classroom-credentials.ts');
// The dialog loads when someone is asked for a passphrase, not with the first form.
const PassphraseDialog = lazy(() =>
  import('./passphrase-dialog.tsx').then((m) => ({ default: m.PassphraseDialog })),
);
import { deleteVault, readVault, writeVault } from './vault-store.ts';

export type { VaultStatus };

export type KeyState = { status: 'none' } | { status: 'importing' } | ({ status: 'done' } & KeyImport);

type EditableField = 'name' | 'targetName' | 'endpointKind' | 'endpointId' | 'endpointGroupId' | 'login';

export interface ProfilesValue {
  profiles: Profile[];
  active: Profile | null;
  secrets: ProfileSecrets;
  key: KeyState;
  targets: { data: ProxyTarget[] | undefined; error: string | null; loading: boolean; retry: () => void };
  setupError: string | null;
  vault: VaultStatus;
  vaultWriteError: string | null;
  selectProfile(id: string): void;
  addProfile(): void;
  duplicateProfile(): void;
  deleteProfile(): void;
  updateProfile<K extends EditableField>(field: K, value: Profile[K]): void;
  setSecret(field: keyof ProfileSecrets, value: string): void;
  setPrivateKeyPem(pem: string): Promise<void>;
  remember(passphrase: string): Promise<void>;
  unlock(passphrase: string): Promise<void>;
  lock(): Promise<void>;
  forget(): Promise<void>;
  signing: { context: SigningContext | null; problems: string[] };
}

const ProfilesContext = createContext<ProfilesValue | null>(null);
const SigningStateContext = createContext<ProfilesValue['signing'] | null>(null);
export interface ProfileActions {
  setPrivateKeyPem(pem: string): Promise<void>;
  /**
   * Puts the key into the active profile and keeps it in the encrypted vault: at once when the vault
   * is unlocked, else after asking for a new passphrase. Resolves false when the user cancels.
   */
  rememberPrivateKey(pem: string): Promise<boolean>;
  activeLogin: string | null;
}
const ActionsContext = createContext<ProfileActions | null>(null);

const EMPTY_SECRETS: ProfileSecrets = { controlKey: '', privateKeyPem: '' };

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** `prefetch`: the requests src/main.tsx started before React mounted (see startProfilesPrefetch). */
export function ProfilesProvider({
  children,
  prefetch,
}: {
  children: ReactNode;
  prefetch?: ProfilesPrefetch;
}) {
  return <ProfilesState prefetch={prefetch}>{children}</ProfilesState>;
}

function ProfilesState({
  children,
  prefetch,
}: {
  children: ReactNode;
  prefetch: ProfilesPrefetch | undefined;
}) {
  const [take] = useState(() => takeOnce(prefetch));
  const settled = prefetch?.settled;
  const [initial] = useState(() => initialProfilesState(loadStoredProfiles(), settled));
  const [profiles, setProfiles] = useState<Profile[]>(initial.profiles);
  const [activeId, setActiveId] = useState<string | null>(initial.activeId);
  const [secretsById, setSecretsById] = useState<Record<string, ProfileSecrets>>(initial.secretsById);
  const [vault, setVault] = useState<VaultStatus>(initial.vault);
  const [vaultWriteError, setVaultWriteError] = useState<string | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  const [demoKeyLost, setDemoKeyLost] = useState(initial.demoKeyLost);
  const [rememberPrompt, setRememberPrompt] = useState<((done: boolean) => void) | null>(null);
  const vaultKey = useRef<VaultKey | null>(null);
  const writeChain = useRef<Promise<void>>(Promise.resolve());
  const demoFilled = useRef(new Set<string>(initial.demoFilled));
  const secretsRef = useRef(secretsById);
  secretsRef.current = secretsById;

  const targetsQuery = useResource(() => take('targets') ?? fetchTargets(), true, settled?.targets);
  const targets = targetsQuery.data;

  const secretsWritable = vault.kind !== 'checking' && vault.kind !== 'locked';
  // Classroom mode has no demo merchant (the server refuses it): the trainee's own merchant signs.
  const [classroomMode] = useState(() => consoleMode() === 'classroom');
  const needsDemo =
    !classroomMode &&
    (profiles.length === 0 ||
      (secretsWritable &&
        profiles.some((p) => p.origin === 'sandbox-demo' && !demoFilled.current.has(p.id))));
  const demoQuery = useResource(() => take('demo') ?? fetchDemoMerchant(), needsDemo, settled?.demo);
  const resetDemo = demoQuery.reset;

  // Classroom mode: the merchant this browser joined with becomes (and stays) a profile, with its
  // secrets, and follows them: a new key replaces the profile's, leaving the classroom removes it.
  // Loaded (and read) only in classroom mode: the first page of the ordinary console needs none of it.
  const classroomQuery = useResource(
    () => classroomCredentials().then((m) => m.loadClassroomCredentials()),
    classroomMode,
  );
  const refetchClassroom = classroomQuery.refetch;
  useEffect(() => {
    if (!classroomMode) return;
    let stop: (() => void) | undefined;
    let live = true;
    void classroomCredentials().then((m) => {
      if (live) stop = m.subscribeClassroomCredentials(refetchClassroom);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [classroomMode, refetchClassroom]);
  // Per classroom profile, the private key its secrets were last filled with.
  const classroomFilled = useRef(new Map<string, string>());
  useEffect(() => {
    const c = classroomQuery.data;
    if (c === null && profiles.some((p) => p.origin === 'classroom'))
      setProfiles((ps) => ps.filter((p) => p.origin !== 'classroom'));
    if (!c || !targets || !secretsWritable) return;
    let profile = profiles.find((p) => p.origin === 'classroom' && p.login === c.login);
    if (!profile) {
      profile = classroomProfile(c, preferredTarget(targets));
      const added = profile;
      setProfiles((ps) => [...ps, added]);
      setActiveId(added.id);
      setSetupError(null);
    }
    const id = profile.id;
    const filled = classroomFilled.current.get(id);
    if (filled === c.privateKeyPkcs8Pem) return;
    classroomFilled.current.set(id, c.privateKeyPkcs8Pem);
    setSecretsById((prev) =>
      // The first time, secrets the vault gave back stay; a new key kept since replaces them.
      filled === undefined && prev[id]?.controlKey
        ? prev
        : { ...prev, [id]: { controlKey: c.controlKey, privateKeyPem: c.privateKeyPkcs8Pem } },
    );
  }, [classroomQuery.data, targets, profiles, secretsWritable]);

  useEffect(() => {
    if (initial.vault.kind !== 'checking' && !settled?.vaultFromHint) return;
    let cancelled = false;
    (take('vault') ?? readVault()).then(
      (v) => {
        if (cancelled) return;
        if (!settled?.vaultFromHint) return setVault(vaultStatusOf(v));
        // The hint said "nothing remembered" but a record is there: as if it had been read first,
        // the vault is locked (or damaged) and the demo secrets filled meanwhile are dropped. Not
        // once the user has acted on the vault (it is then theirs, just written).
        if (v.state === 'none' || vaultRef.current.kind !== 'off') return;
        const filled = [...demoFilled.current];
        demoFilled.current.clear();
        setSecretsById((prev) => {
          const next = { ...prev };
          for (const id of filled) delete next[id];
          return next;
        });
        setVault(vaultStatusOf(v));
      },
      (e: unknown) => !cancelled && setVault({ kind: 'unavailable', message: errorText(e) }),
    );
    return () => {
      cancelled = true;
    };
  }, [take, initial, settled]);

  const classroomRead = classroomQuery.data;
  useEffect(() => {
    if (profiles.length > 0 || !targets) return;
    if (demoQuery.data) {
      const p = demoProfile(demoQuery.data, preferredTarget(targets));
      setProfiles([p]);
      setActiveId(p.id);
    } else if (demoQuery.isError || (classroomMode && classroomRead === null)) {
      // (In classroom mode, once this browser is known to hold no classroom merchant.)
      const p = blankProfile('Profile 1', preferredTarget(targets));
      setProfiles([p]);
      setActiveId(p.id);
      setSetupError(
        classroomMode
          ? 'No demo merchant in the classroom: join it (/join) for a merchant of your own.'
          : `No demo profile: ${demoQuery.error?.message ?? 'no answer.'} Fill this profile in by hand.`,
      );
    }
  }, [
    profiles.length,
    targets,
    classroomMode,
    classroomRead,
    demoQuery.data,
    demoQuery.isError,
    demoQuery.error,
  ]);

  useEffect(() => {
    const demo: DemoMerchant | undefined = demoQuery.data;
    if (!demo || !secretsWritable) return;
    const toFill = profiles.filter((p) => p.origin === 'sandbox-demo' && !demoFilled.current.has(p.id));
    if (toFill.length === 0) return;
    for (const p of toFill) demoFilled.current.add(p.id);
    if (demo.privateKeyPkcs8Pem === null) setDemoKeyLost(true);
    setSecretsById((prev) => {
      const next = { ...prev };
      for (const p of toFill) {
        const cur = prev[p.id];
        if (!cur?.controlKey && !cur?.privateKeyPem)
          next[p.id] = { controlKey: demo.controlKey, privateKeyPem: demo.privateKeyPkcs8Pem ?? '' };
      }
      return next;
    });
  }, [demoQuery.data, profiles, secretsWritable]);

  useEffect(() => {
    if (profiles.length > 0) saveStoredProfiles({ version: 1, activeId, profiles });
  }, [profiles, activeId]);

  const persistSecrets = useCallback(
    (secrets: Record<string, ProfileSecrets>, profileIds: readonly string[]) => {
      const key = vaultKey.current;
      if (!key) return writeChain.current;
      const kept = Object.fromEntries(Object.entries(secrets).filter(([id]) => profileIds.includes(id)));
      writeChain.current = writeChain.current
        .then(async () => {
          const { sealVault } = await vaultCrypto();
          const record = await sealVault(
            globalThis.crypto.subtle,
            key,
            { version: 1, profiles: kept },
            new Date(),
          );
          await writeVault(record);
          setVaultWriteError(null);
          setVault((v) => (v.kind === 'unlocked' ? { kind: 'unlocked', updatedAt: record.updatedAt } : v));
        })
        .catch((e: unknown) =>
          setVaultWriteError(`The secrets could not be saved on this device: ${errorText(e)}`),
        );
      return writeChain.current;
    },
    [],
  );

  const profileIds = useMemo(() => profiles.map((p) => p.id), [profiles]);
  useEffect(() => {
    if (vault.kind !== 'unlocked') return;
    const t = setTimeout(() => void persistSecrets(secretsById, profileIds), 300);
    return () => clearTimeout(t);
  }, [secretsById, profileIds, vault.kind, persistSecrets]);

  const active = profiles.find((p) => p.id === activeId) ?? profiles[0] ?? null;
  const secrets = (active && secretsById[active.id]) || EMPTY_SECRETS;
  const pem = secrets.privateKeyPem.trim() === '' ? '' : secrets.privateKeyPem;

  const [loadedKey, setLoadedKey] = useState<{ pem: string; result: KeyImport } | null>(
    () => settled?.demoKey ?? null,
  );
  useEffect(() => {
    if (pem === '') return;
    let current = true;
    // The same import as the prefetch's (one cache): keeping the state as it is spares a render.
    void keyImporter
      .get(pem)
      .then(
        (result) =>
          current &&
          setLoadedKey((prev) => (prev?.pem === pem && prev.result === result ? prev : { pem, result })),
      );
    return () => {
      current = false;
    };
  }, [pem]);
  const key = useMemo<KeyState>(
    () =>
      pem === ''
        ? { status: 'none' }
        : loadedKey && loadedKey.pem === pem
          ? { status: 'done', ...loadedKey.result }
          : { status: 'importing' },
    [pem, loadedKey],
  );

  const locked = vault.kind === 'locked';

  const updateProfile = useCallback(
    <K extends EditableField>(field: K, value: Profile[K]) => {
      setProfiles((ps) => ps.map((p) => (p.id === active?.id ? { ...p, [field]: value } : p)));
    },
    [active?.id],
  );

  const setSecret = useCallback(
    (field: keyof ProfileSecrets, value: string) => {
      if (!active) return;
      setSecretsById((prev) => ({
        ...prev,
        [active.id]: { ...(prev[active.id] ?? EMPTY_SECRETS), [field]: value },
      }));
    },
    [active],
  );

  const lockedRef = useRef(locked);
  lockedRef.current = locked;
  const activeRef = useRef(active);
  activeRef.current = active;

  const setPrivateKeyPem = useCallback(async (text: string) => {
    const target = activeRef.current;
    if (!target) throw new Error('There is no active profile yet: wait for the profile bar to load.');
    if (lockedRef.current)
      throw new Error(
        'The remembered secrets are locked: unlock them (or forget them on this device) before setting a key.',
      );
    setSecretsById((prev) => ({
      ...prev,
      [target.id]: { ...(prev[target.id] ?? EMPTY_SECRETS), privateKeyPem: text },
    }));
    const result = await keyImporter.get(text);
    if (result.error) throw new Error(result.error);
    setDemoKeyLost(false);
  }, []);

  const selectProfile = useCallback((id: string) => setActiveId(id), []);

  const addProfile = useCallback(() => {
    const p = blankProfile(
      uniqueName(
        'New profile',
        profiles.map((x) => x.name),
      ),
      active?.targetName ?? preferredTarget(targets ?? []),
    );
    setProfiles((ps) => [...ps, p]);
    setActiveId(p.id);
  }, [profiles, active, targets]);

  const duplicateProfile = useCallback(() => {
    if (!active) return;
    const copy: Profile = {
      ...active,
      id: globalThis.crypto.randomUUID(),
      name: uniqueName(
        `${active.name} (copy)`,
        profiles.map((x) => x.name),
      ),
      origin: 'user',
    };
    const s = secretsRef.current[active.id];
    if (s) setSecretsById((prev) => ({ ...prev, [copy.id]: { ...s } }));
    setProfiles((ps) => [...ps, copy]);
    setActiveId(copy.id);
  }, [active, profiles]);

  const deleteProfile = useCallback(() => {
    if (!active || profiles.length <= 1) return;
    const rest = profiles.filter((p) => p.id !== active.id);
    setProfiles(rest);
    setSecretsById((prev) => {
      const next = { ...prev };
      delete next[active.id];
      return next;
    });
    setActiveId(rest[0]?.id ?? null);
  }, [active, profiles]);

  const remember = useCallback(
    async (passphrase: string) => {
      const { deriveVaultKey } = await vaultCrypto();
      const key = await deriveVaultKey(globalThis.crypto.subtle, passphrase);
      vaultKey.current = key;
      setVault({ kind: 'unlocked', updatedAt: new Date().toISOString() });
      await persistSecrets(secretsRef.current, profileIds);
    },
    [persistSecrets, profileIds],
  );

  const unlock = useCallback(async (passphrase: string) => {
    const [stored, { openVault, VaultError }] = await Promise.all([readVault(), vaultCrypto()]);
    if (stored.state === 'none') {
      setVault({ kind: 'off' });
      throw new VaultError(
        'RECORD_DAMAGED',
        'Nothing is remembered on this device any more (it was forgotten in another tab?).',
      );
    }
    if (stored.state === 'damaged') throw new VaultError('RECORD_DAMAGED', stored.message);
    const { vaultKey: key, plaintext } = await openVault(globalThis.crypto.subtle, stored.record, passphrase);
    vaultKey.current = key;
    setSecretsById((prev) => ({ ...prev, ...plaintext.profiles }));
    setVault({ kind: 'unlocked', updatedAt: stored.record.updatedAt });
  }, []);

  const lock = useCallback(async () => {
    await persistSecrets(secretsRef.current, profileIds);
    vaultKey.current = null;
    keyImporter.clear();
    resetDemo();
    setLoadedKey(null);
    setSecretsById({});
    setVault({ kind: 'locked' });
  }, [persistSecrets, profileIds, resetDemo]);

  const forget = useCallback(async () => {
    await writeChain.current;
    await deleteVault();
    vaultKey.current = null;
    setVaultWriteError(null);
    setVault({ kind: 'off' });
  }, []);

  const vaultRef = useRef(vault);
  vaultRef.current = vault;
  const rememberPrivateKey = useCallback(
    async (text: string): Promise<boolean> => {
      const target = activeRef.current;
      if (!target) throw new Error('There is no active profile yet: wait for the profile bar to load.');
      const v = vaultRef.current;
      if (v.kind === 'locked')
        throw new Error(
          'The remembered secrets are locked: unlock them in the profile bar first, then remember this key.',
        );
      if (v.kind !== 'off' && v.kind !== 'unlocked')
        throw new Error(
          'Secrets cannot be remembered on this device (its storage is unavailable or damaged).',
        );
      const result = await keyImporter.get(text);
      if (result.error) throw new Error(result.error);
      // The ref is updated at once: remember() and persistSecrets() read it before React re-renders.
      const next = {
        ...secretsRef.current,
        [target.id]: { ...(secretsRef.current[target.id] ?? EMPTY_SECRETS), privateKeyPem: text },
      };
      secretsRef.current = next;
      setSecretsById(next);
      setDemoKeyLost(false);
      if (v.kind === 'unlocked') {
        await persistSecrets(next, profileIds);
        return true;
      }
      return new Promise<boolean>((resolve) => setRememberPrompt(() => resolve));
    },
    [persistSecrets, profileIds],
  );

  const signing = useSigningState(active, secrets, key, targets, targetsQuery.isError, locked);

  const retryTargets = targetsQuery.refetch;
  const value = useMemo<ProfilesValue>(
    () => ({
      profiles,
      active,
      secrets,
      key,
      targets: {
        data: targets,
        error: targetsQuery.error ? targetsQuery.error.message : null,
        loading: targetsQuery.isPending,
        retry: () => void retryTargets(),
      },
      setupError:
        setupError ??
        (demoKeyLost
          ? 'The local sandbox no longer verifies the demo merchant with the demo key pair (another public key was registered for it), so this profile has no private key: paste the private key you registered, or press "Restore the demo key" on the Keys page.'
          : null),
      vault,
      vaultWriteError,
      selectProfile,
      addProfile,
      duplicateProfile,
      deleteProfile,
      updateProfile,
      setSecret,
      setPrivateKeyPem,
      remember,
      unlock,
      lock,
      forget,
      signing,
    }),
    [
      profiles,
      active,
      secrets,
      key,
      targets,
      targetsQuery.error,
      targetsQuery.isPending,
      retryTargets,
      setupError,
      demoKeyLost,
      vault,
      vaultWriteError,
      selectProfile,
      addProfile,
      duplicateProfile,
      deleteProfile,
      updateProfile,
      setSecret,
      setPrivateKeyPem,
      remember,
      unlock,
      lock,
      forget,
      signing,
    ],
  );
  const activeLogin = active && active.login.trim() !== '' ? active.login.trim() : null;
  const actions = useMemo(
    () => ({ setPrivateKeyPem, rememberPrivateKey, activeLogin }),
    [setPrivateKeyPem, rememberPrivateKey, activeLogin],
  );
  return (
    <ProfilesContext value={value}>
      <SigningStateContext value={signing}>
        <ActionsContext value={actions}>{children}</ActionsContext>
      </SigningStateContext>
      {rememberPrompt && (
        <Suspense fallback={null}>
          <PassphraseDialog
            mode="remember"
            onSubmit={async (passphrase) => {
              await remember(passphrase);
              rememberPrompt(true);
            }}
            onClose={() => {
              rememberPrompt(false);
              setRememberPrompt(null);
            }}
          />
        </Suspense>
      )}
    </ProfilesContext>
  );
}

function useSigningState(
  active: Profile | null,
  secrets: ProfileSecrets,
  key: KeyState,
  targets: ProxyTarget[] | undefined,
  targetsFailed: boolean,
  locked: boolean,
): { context: SigningContext | null; problems: string[] } {
  const signingKey = key.status === 'done' ? key.signingKey?.key : undefined;
  const keyError = key.status === 'done' ? key.error : undefined;
  const target = active && targets ? targets.find((t) => t.name === active.targetName) : undefined;
  const endpointKind = active?.endpointKind ?? 'endpoint';
  const endpointValue = active
    ? (endpointKind === 'group' ? active.endpointGroupId : active.endpointId).trim()
    : '';

  const otherValue = active
    ? (endpointKind === 'group' ? active.endpointId : active.endpointGroupId).trim()
    : '';

  const credentialGaps = useMemo(() => credentialGapsOf({ locked, key }), [locked, key]);
  const context = useMemo<SigningContext | null>(() => {
    if (!active || !target) return null;
    return {
      profileId: active.id,
      profileName: active.name,
      target,
      endpoint: { kind: endpointKind, id: endpointValue },
      ...(otherValue
        ? { otherEndpoint: { kind: endpointKind === 'group' ? 'endpoint' : 'group', id: otherValue } }
        : {}),
      credentials: {
        login: active.login.trim(),
        ...(secrets.controlKey ? { controlKey: secrets.controlKey } : {}),
        ...(signingKey ? { privateKey: signingKey } : {}),
      },
      ...(credentialGaps.locked || credentialGaps.key ? { credentialGaps } : {}),
    };
  }, [
    active,
    target,
    endpointKind,
    endpointValue,
    otherValue,
    secrets.controlKey,
    signingKey,
    credentialGaps,
  ]);

  const problems = useMemo(() => {
    const out: string[] = [];
    if (targetsFailed)
      out.push(
        'The list of targets could not be loaded: check that the console server is running, then retry.',
      );
    if (!active) return out;
    if (targets && !target)
      out.push(`The profile's target "${active.targetName}" is not offered by this server: pick a target.`);
    if (active.login.trim() === '') out.push('No login: enter the merchant login in the profile.');
    const endpointProblem = checkEndpointId({ kind: endpointKind, id: endpointValue });
    if (endpointProblem) out.push(endpointProblem.message);
    if (locked)
      out.push('The remembered secrets are locked: unlock to sign (press Unlock and enter your passphrase).');
    else {
      if (!secrets.controlKey)
        out.push(
          'No control key: control and HMAC-SHA1 operations cannot be signed until you enter it in the profile.',
        );
      if (key.status === 'none')
        out.push(
          'No private key: v4 (RSA-SHA256) operations cannot be signed until you paste or load it in the profile.',
        );
      else if (key.status === 'importing') out.push('The private key is being imported…');
      else if (keyError) out.push(`The private key is unusable: ${keyError}`);
    }
    return out;
  }, [
    targetsFailed,
    active,
    targets,
    target,
    endpointKind,
    endpointValue,
    locked,
    secrets.controlKey,
    key.status,
    keyError,
  ]);

  return useMemo(() => ({ context, problems }), [context, problems]);
}

export function useProfiles(): ProfilesValue {
  const v = use(ProfilesContext);
  if (!v) throw new Error('useProfiles must be used inside <ProfilesProvider>.');
  return v;
}

/** The active profile resolved for signing (null until the targets are loaded) and what stops it from signing. */
export function useSigningContext(): { context: SigningContext | null; problems: string[] } {
  const v = use(SigningStateContext);
  if (!v) throw new Error('useSigningContext must be used inside <ProfilesProvider>.');
  return v;
}

export function useProfileActions(): ProfileActions {
  const v = use(ActionsContext);
  if (!v) throw new Error('useProfileActions must be used inside <ProfilesProvider>.');
  return v;
}
