import { checkEndpointId } from '../../core/index.ts';
import type { ProxyTarget } from '../../contracts/proxy.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { credentialGapsOf } from './credential-gaps.ts';
import type { KeyImport } from './key-import.ts';
import type { Profile } from './profile-schema.ts';

export type KeyState = { status: 'none' } | { status: 'importing' } | ({ status: 'done' } & KeyImport);

export interface SigningState {
  context: SigningContext | null;
  problems: string[];
}

/**
 * The active profile resolved for signing (null until the targets are loaded) and what stops it
 * from signing, each problem a sentence that says what to do.
 */
export function signingStateOf(
  active: Profile | null,
  targets: ProxyTarget[] | undefined,
  targetsFailed: boolean,
  controlKey: string,
  key: KeyState,
  locked: boolean,
): SigningState {
  const problems: string[] = [];
  if (targetsFailed)
    problems.push(
      'The list of targets could not be loaded: check that the console server is running, then retry.',
    );
  if (!active) return { context: null, problems };
  const target = targets?.find((t) => t.name === active.targetName);
  const group = active.endpointKind === 'group';
  const endpoint = {
    kind: active.endpointKind,
    id: (group ? active.endpointGroupId : active.endpointId).trim(),
  };
  const other = (group ? active.endpointId : active.endpointGroupId).trim();
  const signingKey = key.status === 'done' ? key.signingKey?.key : undefined;
  const gaps = credentialGapsOf({ locked, key });
  const context: SigningContext | null = target
    ? {
        profileId: active.id,
        profileName: active.name,
        target,
        endpoint,
        ...(other ? { otherEndpoint: { kind: group ? 'endpoint' : 'group', id: other } } : {}),
        credentials: {
          login: active.login.trim(),
          ...(controlKey ? { controlKey } : {}),
          ...(signingKey ? { privateKey: signingKey } : {}),
        },
        ...(gaps.locked || gaps.key ? { credentialGaps: gaps } : {}),
      }
    : null;

  if (targets && !target)
    problems.push(
      `The profile's target "${active.targetName}" is not offered by this server: pick a target.`,
    );
  if (active.login.trim() === '') problems.push('No login: enter the merchant login in the profile.');
  const endpointProblem = checkEndpointId(endpoint);
  if (endpointProblem) problems.push(endpointProblem.message);
  if (locked)
    problems.push(
      'The remembered secrets are locked: unlock to sign (press Unlock and enter your passphrase).',
    );
  else {
    if (!controlKey)
      problems.push(
        'No control key: control and HMAC-SHA1 operations cannot be signed until you enter it in the profile.',
      );
    if (key.status === 'none')
      problems.push(
        'No private key: v4 (RSA-SHA256) operations cannot be signed until you paste or load it in the profile.',
      );
    else if (key.status === 'importing') problems.push('The private key is being imported…');
    else if (key.error) problems.push(`The private key is unusable: ${key.error}`);
  }
  return { context, problems };
}
