/**
 * The active profile, resolved for signing: what the shell hands every feature that signs, and
 * the one way from it to the model's `SigningEnv`.
 */
import type { Credentials, EndpointRef } from '../core/index.ts';
import type { CredentialGaps, Place, SigningEnv, SigningRuntime } from './index.ts';

import type { ProxyTarget } from '../contracts/proxy.ts';

/** Everything the workbench needs to sign and send: the active profile, resolved. */
export interface SigningContext {
  profileId: string;
  profileName: string;
  target: ProxyTarget;
  endpoint: EndpointRef;
  /** The profile's other id (its endpoint group id when it signs for an endpoint, or the reverse), if known. */
  otherEndpoint?: EndpointRef;
  /** Secrets in memory only; `privateKey` is a non-extractable Web Crypto key. */
  credentials: Credentials;
  /** Why a secret is missing (vault locked, public or short key loaded), for the build's problems. */
  credentialGaps?: CredentialGaps;
}

/** What signs on this page: the profile, the place and the runtime the app made once. */
export function signingEnvFor(context: SigningContext, place: Place, runtime: SigningRuntime): SigningEnv {
  return {
    place,
    baseUrl: context.target.baseUrl,
    endpoint: context.endpoint,
    credentials: context.credentials,
    runtime,
    ...(context.credentialGaps ? { credentialGaps: context.credentialGaps } : {}),
  };
}
