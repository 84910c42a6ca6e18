/**
 * Types the app shell passes between features. Features never import each other; they meet here
 * and in the props the shell wires up.
 */
import type { Credentials, EndpointRef } from '../../core/index.ts';
import type { CredentialGaps, Place, RequestDraft, SigningEnv, SigningRuntime } from '../../model/index.ts';
import type { ExchangeRecord } from '../../model/exchange.ts';

export type { ProxyTarget } from '../../model/proxy-contract.ts';
import type { ProxyTarget } from '../../model/proxy-contract.ts';

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

/**
 * One request sent and its answer, as history takes it. Every send makes it with the model's one
 * builder (`ExchangeRecord`, `src/model/exchange.ts`: draft required, pinned values in the draft
 * only); the optional draft and `request.pinned` are there for entries stored before that.
 */
export interface Exchange extends Omit<ExchangeRecord, 'draft' | 'request'> {
  /** The request as the model holds it (placeholders, scheme, formula, pinned values), to reopen it. */
  draft?: RequestDraft;
  request: ExchangeRecord['request'] & {
    /** Entries stored before the model's record: the pinned values, now in the draft only. */
    pinned?: { nonce?: string; timestamp?: string };
  };
}
