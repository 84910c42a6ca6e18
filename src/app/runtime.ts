import { useMemo } from 'react';
import { secureNonceSource, webCryptoPort, type CryptoPort } from '../core/index.ts';
import type { Place, SigningRuntime } from '../model/index.ts';
import { callbackUrl } from '../browser/session-inbox.ts';

/**
 * Where RSA signs: the rule is latency first (keystroke → signature on screen). On the
 * bench's two cores the page wins at both sizes (p95 4.6 against 5.2 ms at 2048 bits, 6.4 against
 * 10.6 ms at 4096, docs/performance.md): the worker's two message hops and its wait for a core cost
 * more than the main thread's 0.5–3.2 ms of signing. A machine with cores to spare keeps the worker,
 * which frees the page for typing; that branch is not measured here (the bench machine has two).
 */
export function rsaSignsOnPage(cores: number | undefined): boolean {
  return (cores ?? 1) <= 2;
}

/**
 * `base`, whose RSA signatures move into a worker (`off-thread-rsa.ts`). That code loads with the
 * first RSA signature, which is made here, so it costs the first form nothing; until it is there,
 * and where it cannot load, signatures are made on the page. Either way the bytes are the same.
 */
function rsaOffThread(base: CryptoPort): CryptoPort {
  let port: CryptoPort | null = null;
  let loading = false;
  return {
    ...base,
    rsaSha256SignBase64(key, text) {
      if (port) return port.rsaSha256SignBase64(key, text);
      if (!loading) {
        loading = true;
        import('../browser/off-thread-rsa.ts').then(
          (m) => (port = m.offThreadRsa(base, m.browserSignerDeps())),
          () => undefined,
        );
      }
      return base.rsaSha256SignBase64(key, text);
    },
  };
}

/**
 * The composition root of signing: the one crypto port, nonce source and clock of the app, made
 * here once and handed to every feature (none makes its own).
 */
export const runtime: SigningRuntime = {
  crypto: rsaSignsOnPage(navigator.hardwareConcurrency) ? webCryptoPort() : rsaOffThread(webCryptoPort()),
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
