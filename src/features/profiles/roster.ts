import type { ClassroomCredentials } from '../../browser/classroom-credentials.ts';
import type { ProxyTarget } from '../../contracts/proxy.ts';
import { preferredTarget } from './initial-state.ts';
import {
  blankProfile,
  classroomProfile,
  demoProfile,
  type DemoMerchant,
  type Profile,
} from './profile-schema.ts';
import type { ProfileSecrets } from './vault-crypto.ts';

/** The profiles, the active one and their secrets: the model's state, replaced (never changed) on each step. */
export interface Roster {
  profiles: Profile[];
  activeId: string | null;
  secretsById: Record<string, ProfileSecrets>;
  setupError: string | null;
}

export const EMPTY_SECRETS: ProfileSecrets = { controlKey: '', privateKeyPem: '' };

export function activeOf(r: Roster): Profile | null {
  return r.profiles.find((p) => p.id === r.activeId) ?? r.profiles[0] ?? null;
}

export function withProfile(r: Roster, p: Profile): Roster {
  return { ...r, profiles: [...r.profiles, p], activeId: p.id };
}

export function withSecret(r: Roster, id: string, field: keyof ProfileSecrets, value: string): Roster {
  const secrets = { ...(r.secretsById[id] ?? EMPTY_SECRETS), [field]: value };
  return { ...r, secretsById: { ...r.secretsById, [id]: secrets } };
}

/** The secrets of the profiles there are: what the vault seals. */
export function keptSecrets(r: Roster): Record<string, ProfileSecrets> {
  const ids = new Set(r.profiles.map((p) => p.id));
  return Object.fromEntries(Object.entries(r.secretsById).filter(([id]) => ids.has(id)));
}

/**
 * Classroom mode: the merchant this browser joined with becomes (and stays) a profile, with its
 * secrets, and follows them: a new key replaces the profile's. `filled`: per classroom profile, the
 * private key its secrets were last filled with (updated here).
 */
export function withClassroomMerchant(
  r: Roster,
  c: ClassroomCredentials,
  targets: ProxyTarget[],
  filled: Map<string, string>,
): Roster {
  let profile = r.profiles.find((p) => p.origin === 'classroom' && p.login === c.login);
  if (!profile) {
    profile = classroomProfile(c, preferredTarget(targets));
    r = { ...withProfile(r, profile), setupError: null };
  }
  const { id } = profile;
  const before = filled.get(id);
  if (before === c.privateKeyPkcs8Pem) return r;
  filled.set(id, c.privateKeyPkcs8Pem);
  // The first time, secrets the vault gave back stay; a new key kept since replaces them.
  if (before === undefined && r.secretsById[id]?.controlKey) return r;
  const secrets = { controlKey: c.controlKey, privateKeyPem: c.privateKeyPkcs8Pem };
  return { ...r, secretsById: { ...r.secretsById, [id]: secrets } };
}

/**
 * The first profile once the targets are known: the demo merchant's, else (`failure`: why there is
 * none) a blank one to fill in by hand. Unchanged while neither is known.
 */
export function withFirstProfile(
  r: Roster,
  targets: ProxyTarget[],
  demo: DemoMerchant | undefined,
  failure: string | null,
): Roster {
  const target = preferredTarget(targets);
  if (demo) return withProfile(r, demoProfile(demo, target));
  if (failure === null) return r;
  return { ...withProfile(r, blankProfile('Profile 1', target)), setupError: failure };
}

/** The demo merchant's secrets in the demo profiles not filled yet (`filled`, updated here), unless some were typed. */
export function withDemoSecrets(r: Roster, demo: DemoMerchant, filled: Set<string>): Roster {
  const next = { ...r.secretsById };
  for (const p of r.profiles) {
    if (p.origin !== 'sandbox-demo' || filled.has(p.id)) continue;
    filled.add(p.id);
    const cur = next[p.id];
    if (!cur?.controlKey && !cur?.privateKeyPem)
      next[p.id] = { controlKey: demo.controlKey, privateKeyPem: demo.privateKeyPkcs8Pem ?? '' };
  }
  return { ...r, secretsById: next };
}
