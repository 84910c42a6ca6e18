import { useMemo } from 'react';
import { secureNonceSource, webCryptoPort } from '../core/index.ts';
import type { Place, SigningRuntime } from '../model/index.ts';
import { callbackUrl } from '../features/console/index.ts';

/**
 * The composition root of signing: the one crypto port, nonce source and clock of the app, made
 * here once and handed to every feature (none makes its own).
 */
export const runtime: SigningRuntime = {
  crypto: webCryptoPort(),
  nonce: secureNonceSource(),
  clock: () => Date.now(),
};

/** Where this console runs, read at use time: its own origin and port, this session's inbox, the login. */
export function currentPlace(login: string): Place {
  return { origin: location.origin, inboxUrl: callbackUrl(), login };
}

export function usePlace(login: string): Place {
  return useMemo(() => currentPlace(login), [login]);
}
