// zod/mini: the schemas here load with the first form, and mini is a third of zod's size.
import { z } from 'zod/mini';

export const ProfileSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  targetName: z.string(),
  endpointKind: z.enum(['endpoint', 'group']),
  endpointId: z.string(),
  endpointGroupId: z.string(),
  login: z.string(),
  origin: z._default(z.enum(['user', 'sandbox-demo', 'classroom']), 'user'),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const StoredProfilesSchema = z.object({
  version: z.literal(1),
  activeId: z.nullable(z.string()),
  profiles: z.array(ProfileSchema),
});
export type StoredProfiles = z.infer<typeof StoredProfilesSchema>;

const idText = z.pipe(z.union([z.string(), z.number()]), z.transform(String));

export const DemoMerchantSchema = z.looseObject({
  login: z.string().check(z.minLength(1)),
  controlKey: z.string().check(z.minLength(1)),
  endpointIds: z._default(z.array(idText), []),
  endpointGroupIds: z._default(z.array(idText), []),
  /** null when the merchant's registered public key no longer matches the demo private key. */
  privateKeyPkcs8Pem: z.nullable(z.string().check(z.minLength(1))),
  publicKeyPem: z.optional(z.string()),
});
export type DemoMerchant = z.infer<typeof DemoMerchantSchema>;

export const DEMO_PROFILE_NAME = 'Local sandbox (demo)';

export function newProfileId(): string {
  return globalThis.crypto.randomUUID();
}

export function blankProfile(name: string, targetName: string): Profile {
  return {
    id: newProfileId(),
    name,
    targetName,
    endpointKind: 'endpoint',
    endpointId: '',
    endpointGroupId: '',
    login: '',
    origin: 'user',
  };
}

export function demoProfile(demo: DemoMerchant, targetName: string): Profile {
  return {
    id: newProfileId(),
    name: DEMO_PROFILE_NAME,
    targetName,
    endpointKind: 'endpoint',
    endpointId: demo.endpointIds[0] ?? '',
    endpointGroupId: demo.endpointGroupIds[0] ?? '',
    login: demo.login,
    origin: 'sandbox-demo',
  };
}

/** A name not yet used: the base itself, else "base 2", "base 3"… */
export function uniqueName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base} ${i}`)) return `${base} ${i}`;
}

/** The profile of a classroom trainee's merchant (see src/browser/classroom-credentials.ts). */
export function classroomProfile(
  c: { name: string; login: string; endpointId: string; endpointGroupId: string },
  targetName: string,
): Profile {
  return {
    id: newProfileId(),
    name: `Classroom: ${c.name}`,
    targetName,
    endpointKind: 'endpoint',
    endpointId: c.endpointId,
    endpointGroupId: c.endpointGroupId,
    login: c.login,
    origin: 'classroom',
  };
}
