import {
  buildRequest,
  type BuiltRequest,
  type Clock,
  type Credentials,
  type CryptoPort,
  type EndpointRef,
  type NonceSource,
} from '../core/index.ts';
import { draftParams, operationOf, signingSpecOf } from './draft-params.ts';
import { resolveDraft, type Place } from './place.ts';
import type { CredentialGaps } from './credential-gaps.ts';
import type { RequestDraft } from './request-draft.ts';

/** The crypto port, nonce source and clock: made once by the app's composition root (or the CLI). */
export interface SigningRuntime {
  crypto: CryptoPort;
  nonce: NonceSource;
  clock: Clock;
}

/** Everything outside the draft that signing needs: the place, the profile's target and secrets. */
export interface SigningEnv {
  place: Place;
  baseUrl: string;
  /** The profile's endpoint, used when the draft names none. */
  endpoint: EndpointRef;
  credentials: Credentials;
  runtime: SigningRuntime;
  /**
   * Why a secret is absent (vault locked, a public or too short key loaded), said instead of the
   * core's generic "enter it in the profile", which would send the user to the wrong fix.
   */
  credentialGaps?: CredentialGaps;
}

export interface BuildDraftOptions {
  /** For an unpinned draft: the nonce to use instead of drawing one (a preview keeps it while typing). */
  nonce?: string;
  /** Names sent even when empty (the command line's explicit `name=`); by default empty values are left out. */
  keepEmpty?: ReadonlySet<string>;
  /** A preview: an invalid endpoint id is reported in `problems` instead of thrown (core `buildRequest`). */
  keepInvalidEndpoint?: boolean;
}

/**
 * The one build: a draft plus credentials, clock, nonce and crypto give the request description
 * every view and the send derive from (core `buildRequest`).
 * @throws DraftError for an unknown operation; PayError for a bad endpoint id or base URL.
 */
export async function buildDraft(
  draft: RequestDraft,
  env: SigningEnv,
  options: BuildDraftOptions = {},
): Promise<BuiltRequest> {
  const op = operationOf(draft);
  const resolved = resolveDraft(draft, env.place);
  const spec = signingSpecOf(op, draft);
  const pinned = resolved.pinned ?? (options.nonce !== undefined ? { nonce: options.nonce } : undefined);
  const built = await buildRequest({
    operation: spec,
    baseUrl: env.baseUrl,
    endpoint: resolved.endpoint ?? env.endpoint,
    params: draftParams(op, resolved).map((p) =>
      options.keepEmpty?.has(p.name) ? { ...p, keepEmpty: true } : p,
    ),
    credentials: env.credentials,
    crypto: env.runtime.crypto,
    clock: env.runtime.clock,
    nonce: env.runtime.nonce,
    ...(pinned ? { pinned } : {}),
    ...(options.keepInvalidEndpoint ? { keepInvalidEndpoint: true } : {}),
  });
  const gaps = env.credentialGaps;
  if (
    !gaps ||
    !built.problems.some((p) => p.code === 'CONTROL_KEY_MISSING' || p.code === 'PRIVATE_KEY_MISSING')
  )
    return built;
  // The words load only when a secret is missing (not on the first page's path).
  const { explainCredentialGaps } = await import('./credential-gaps.ts');
  return explainCredentialGaps(built, gaps);
}
