import type { ProxyTarget } from '../../contracts/proxy.ts';
import type { KeyImport } from './key-import.ts';
import { demoProfile, type DemoMerchant, type Profile, type StoredProfiles } from './profile-schema.ts';
import type { ProfileSecrets } from './vault-crypto.ts';
import type { StoredVault } from './vault-store.ts';

/** The prefetched answers that were already in when React mounted (see prefetch.ts). */
export interface SettledPrefetch {
  targets?: ProxyTarget[];
  demo?: DemoMerchant;
  vault?: StoredVault;
  /** `vault` is the hint's "nothing remembered", not yet the read's answer (which is still to come). */
  vaultFromHint?: boolean;
  /** The demo merchant's private key, imported: the first render signs with it, with no second pass. */
  demoKey?: { pem: string; result: KeyImport };
}

export type VaultStatus =
  | { kind: 'checking' }
  | { kind: 'off' }
  | { kind: 'locked' }
  | { kind: 'unlocked'; updatedAt: string }
  | { kind: 'damaged'; message: string }
  | { kind: 'unavailable'; message: string };

export function vaultStatusOf(v: StoredVault): VaultStatus {
  if (v.state === 'none') return { kind: 'off' };
  if (v.state === 'present') return { kind: 'locked' };
  return { kind: 'damaged', message: v.message };
}

export function preferredTarget(targets: readonly ProxyTarget[]): string {
  return (targets.find((t) => t.kind === 'local') ?? targets[0])?.name ?? '';
}

export interface InitialProfilesState {
  profiles: Profile[];
  activeId: string | null;
  vault: VaultStatus;
  secretsById: Record<string, ProfileSecrets>;
  /** Demo profiles whose secrets are already filled from the demo merchant. */
  demoFilled: string[];
  demoKeyLost: boolean;
}

/**
 * The provider's first state from what is stored and what the prefetch already has: with the
 * targets, the demo merchant and the vault's state in hand, the first render has the demo profile
 * and its secrets (so the first form is signed), exactly as the provider's effects would set them
 * a few renders later. Without them it is the plain stored state, and the effects do the rest.
 */
export function initialProfilesState(
  stored: StoredProfiles | null,
  settled: SettledPrefetch = {},
): InitialProfilesState {
  let profiles = stored?.profiles ?? [];
  let activeId = stored?.activeId ?? stored?.profiles[0]?.id ?? null;
  const vault: VaultStatus = settled.vault ? vaultStatusOf(settled.vault) : { kind: 'checking' };
  const { targets, demo } = settled;
  if (profiles.length === 0 && targets && demo) {
    const p = demoProfile(demo, preferredTarget(targets));
    profiles = [p];
    activeId = p.id;
  }
  const secretsById: Record<string, ProfileSecrets> = {};
  const demoFilled: string[] = [];
  // Secrets are filled only where the provider would: the vault's state known and not locked.
  const writable = vault.kind !== 'checking' && vault.kind !== 'locked';
  if (demo && writable) {
    for (const p of profiles) {
      if (p.origin !== 'sandbox-demo') continue;
      demoFilled.push(p.id);
      secretsById[p.id] = { controlKey: demo.controlKey, privateKeyPem: demo.privateKeyPkcs8Pem ?? '' };
    }
  }
  return {
    profiles,
    activeId,
    vault,
    secretsById,
    demoFilled,
    demoKeyLost: demoFilled.length > 0 && demo?.privateKeyPkcs8Pem === null,
  };
}
