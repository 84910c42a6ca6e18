import type { ProxyTarget } from '../../contracts/proxy.ts';
import type { VaultStatus } from './initial-state.ts';
import type { KeyImport } from './key-import.ts';
import type { Profile } from './profile-schema.ts';
import { signingStateOf, type KeyState, type SigningState } from './signing-state.ts';
import type { ProfileSecrets } from './vault-crypto.ts';
import { activeOf, EMPTY_SECRETS, type Roster } from './roster.ts';
import type { RemoteValue } from '../../ui/remote-value.ts';
import type { VaultState } from './vault-session.ts';

export interface ProfilesSnapshot {
  profiles: Profile[];
  active: Profile | null;
  secrets: ProfileSecrets;
  key: KeyState;
  targets: { data: ProxyTarget[] | undefined; error: string | null; loading: boolean };
  setupError: string | null;
  vault: VaultStatus;
  vaultWriteError: string | null;
  signing: SigningState;
  activeLogin: string | null;
  /** `rememberPrivateKey` waits for a new passphrase (`answerPrompt` / `closePrompt`). */
  asksPassphrase: boolean;
}

const DEMO_KEY_LOST =
  'The local sandbox no longer verifies the demo merchant with the demo key pair (another public key was registered for it), so this profile has no private key: paste the private key you registered, or press "Restore the demo key" on the Keys page.';

/** The last result again while every argument is the same. */
function memo<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: { args: A; value: R } | undefined;
  return (...args) => {
    if (last?.args.every((a, i) => Object.is(a, args[i]))) return last.value;
    last = { args, value: fn(...args) };
    return last.value;
  };
}

/**
 * Makes the function from state to snapshot. Parts whose inputs did not change stay the same
 * objects, so a view of the signing context does not render again when, say, the vault writes.
 */
export function snapshotMaker() {
  const keyOf = memo((pem: string, loaded: { pem: string; result: KeyImport } | null): KeyState =>
    pem === ''
      ? { status: 'none' }
      : loaded?.pem === pem
        ? { status: 'done', ...loaded.result }
        : { status: 'importing' },
  );
  const signingOf = memo(signingStateOf);
  return (
    roster: Roster,
    pem: string,
    loadedKey: { pem: string; result: KeyImport } | null,
    targets: RemoteValue<ProxyTarget[]>,
    vaultState: VaultState,
    demoKeyLost: boolean,
    asksPassphrase: boolean,
  ): ProfilesSnapshot => {
    const active = activeOf(roster);
    const vault = vaultState.status;
    const secrets = (active && roster.secretsById[active.id]) || EMPTY_SECRETS;
    const key = keyOf(pem, loadedKey);
    const { data, error } = targets;
    const signing = signingOf(active, data, !!error, secrets.controlKey, key, vault.kind === 'locked');
    const login = active?.login.trim();
    return {
      profiles: roster.profiles,
      active,
      secrets,
      key,
      targets: { data, error: error?.message ?? null, loading: targets.pending(true) },
      setupError: roster.setupError ?? (demoKeyLost ? DEMO_KEY_LOST : null),
      vault,
      vaultWriteError: vaultState.writeError,
      signing,
      activeLogin: login ? login : null,
      asksPassphrase,
    };
  };
}
