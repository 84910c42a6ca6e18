import { createContext, lazy, Suspense, use, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SigningContext } from '../../model/signing-context.ts';
import { consoleMode } from '../../browser/console-mode.ts';
import { browserTimers } from '../../ui/remote-value.ts';
import { keyImporter } from './key-import.ts';
import { fetchDemoMerchant, fetchTargets, takeOnce, type ProfilesPrefetch } from './prefetch.ts';
import type { Profile } from './profile-schema.ts';
import {
  ProfilesSession,
  type EditableField,
  type ProfilesSnapshot,
  type VaultStatus,
} from './profiles-session.ts';
import { loadStoredProfiles, saveStoredProfiles } from './profile-storage.ts';
import type { ProfileSecrets } from './vault-crypto.ts';
import { deleteVault, readVault, writeVault } from './vault-store.ts';
import { useStore } from '../../ui/use-store.ts';
// The vault's crypto loads when someone remembers, unlocks or locks, not with the first form.
const vaultSession = () => import('./vault-session.ts');
const classroomCredentials = () => import('../../browser/classroom-credentials.ts');
// The dialog loads when someone is asked for a passphrase, not with the first form.
const PassphraseDialog = lazy(() =>
  import('./passphrase-dialog.tsx').then((m) => ({ default: m.PassphraseDialog })),
);

export type { KeyState } from './profiles-session.ts';
export type { VaultStatus };

export interface ProfilesValue extends Omit<ProfilesSnapshot, 'targets'> {
  targets: ProfilesSnapshot['targets'] & { retry: () => void };
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

/** The model with this page's ports: the prefetched answers, localStorage, IndexedDB, Web Crypto, timers. */
function browserModel(prefetch: ProfilesPrefetch | undefined): ProfilesSession {
  const take = takeOnce(prefetch);
  return new ProfilesSession({
    storage: { load: loadStoredProfiles, save: saveStoredProfiles },
    settled: prefetch?.settled,
    prefetchedVault: prefetch?.vault,
    fetchTargets: () => take('targets') ?? fetchTargets(),
    fetchDemoMerchant: () => take('demo') ?? fetchDemoMerchant(),
    classroom: consoleMode() === 'classroom' ? classroomCredentials : null,
    vault: {
      read: readVault,
      write: writeVault,
      remove: deleteVault,
      session: vaultSession,
      subtle: globalThis.crypto.subtle,
    },
    keys: keyImporter,
    timers: browserTimers,
  });
}

/** `prefetch`: the requests src/main.tsx started before React mounted (see startProfilesPrefetch). */
export function ProfilesProvider({
  children,
  prefetch,
}: {
  children: ReactNode;
  prefetch?: ProfilesPrefetch;
}) {
  const [model] = useState(() => browserModel(prefetch));
  useEffect(() => model.start(), [model]);
  const snap = useStore(model);
  const value = useMemo<ProfilesValue>(
    () => ({
      ...snap,
      targets: { ...snap.targets, retry: model.retryTargets },
      selectProfile: model.selectProfile,
      addProfile: model.addProfile,
      duplicateProfile: model.duplicateProfile,
      deleteProfile: model.deleteProfile,
      updateProfile: model.updateProfile,
      setSecret: model.setSecret,
      setPrivateKeyPem: model.setPrivateKeyPem,
      remember: model.remember,
      unlock: model.unlock,
      lock: model.lock,
      forget: model.forget,
    }),
    [snap, model],
  );
  const { activeLogin } = snap;
  const actions = useMemo(
    () => ({
      setPrivateKeyPem: model.setPrivateKeyPem,
      rememberPrivateKey: model.rememberPrivateKey,
      activeLogin,
    }),
    [model, activeLogin],
  );
  return (
    <ProfilesContext value={value}>
      <SigningStateContext value={snap.signing}>
        <ActionsContext value={actions}>{children}</ActionsContext>
      </SigningStateContext>
      {snap.asksPassphrase && (
        <Suspense fallback={null}>
          <PassphraseDialog mode="remember" onSubmit={model.answerPrompt} onClose={model.closePrompt} />
        </Suspense>
      )}
    </ProfilesContext>
  );
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
