import type { CredentialGaps } from '../../model/index.ts';
import type { KeyImport } from './key-import.ts';

export type KeyStateForGaps = { status: 'none' } | { status: 'importing' } | ({ status: 'done' } & KeyImport);

/**
 * Why the profile cannot give a secret, so the build's problems lead to the right fix (unlock the
 * vault, load the private key instead of its public key, make a longer key), not to "enter it".
 * Empty for a secret that is simply not there: the core's own request covers that.
 */
export function credentialGapsOf(state: { locked: boolean; key: KeyStateForGaps }): CredentialGaps {
  if (state.locked) return { locked: true };
  const { key } = state;
  if (key.status !== 'done' || key.signingKey) return {};
  const { inspection } = key;
  if (!inspection.isPrivate && inspection.fingerprint)
    return { key: { kind: inspection.kind === 'certificate' ? 'certificate' : 'public' } };
  if (inspection.problem?.code === 'KEY_TOO_SHORT' && inspection.bits)
    return { key: { kind: 'short', bits: inspection.bits } };
  return key.error ? { key: { kind: 'unusable', error: key.error } } : {};
}
