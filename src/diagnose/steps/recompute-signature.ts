import { constantTimeEqual } from '../../core/bytes.ts';
import type { CryptoPort } from '../../core/crypto-port.ts';
import type { EndpointRef } from '../../core/request/operation-spec.ts';
import type { CapturedRequest } from '../../capture/parse-raw-http.ts';
import { verifySignature, type Verification } from '../../core/verify/verify-signature.ts';
import type { UrlAttempt } from '../diagnosis-types.ts';
import type { RecipeSecrets } from '../recipe.ts';
import type { DiagnoseOperation } from '../structural-checks.ts';

export interface Recomputed {
  /** The URLs checked, in order (https first when the capture does not say). */
  triedUrls: UrlAttempt[];
  /** Index of the URL the signature matched over, -1 when none. */
  hit: number;
  /** The verification shown: over the matching URL, else the first. */
  verification: Verification;
  /** One verification per URL tried, in the order of `triedUrls`. */
  verifications: Verification[];
  signatureMatches: boolean | null;
  /** The capture with the URL shown. */
  capture: CapturedRequest;
}

export function withScheme(url: string, scheme: 'http' | 'https'): string {
  return url.replace(/^https?:/i, `${scheme}:`);
}

/** Whether a verification's received signature is the correct one (strict: control hex in lowercase). */
async function matchesOf(
  v: Verification,
  secrets: RecipeSecrets,
  crypto: CryptoPort,
): Promise<boolean | null> {
  if (v.scheme === 'control') {
    if (v.expected === null) return null;
    return v.received !== null && constantTimeEqual(v.received, v.expected);
  }
  if (v.scheme === 'oauth-hmac-sha1') return v.expected === null ? null : v.ok;
  if (secrets.publicKey) return v.ok;
  if (secrets.privateKey && v.received !== null) {
    const s = await crypto.rsaSha256SignBase64(secrets.privateKey, v.base.baseString);
    return constantTimeEqual(s, v.received);
  }
  return null;
}

/**
 * Step 3: the correct signature over the capture's own values, over each URL the capture may
 * have been signed with (http and https when it does not say), compared with the received one.
 */
export async function recomputeSignature(args: {
  capture: CapturedRequest;
  operation: DiagnoseOperation;
  endpoint: EndpointRef;
  login: string | undefined;
  controlKey: string | undefined;
  secrets: RecipeSecrets;
  urlUnknown: boolean;
  crypto: CryptoPort;
}): Promise<Recomputed> {
  const { capture, secrets, crypto } = args;
  const urls = args.urlUnknown
    ? [withScheme(capture.url, 'https'), withScheme(capture.url, 'http')]
    : [capture.url];
  const triedUrls: UrlAttempt[] = [];
  const verifications: Verification[] = [];
  for (const url of urls) {
    const v = await verifySignature({
      request: { ...capture, url },
      operation: args.operation,
      endpoint: args.endpoint,
      ...(args.login !== undefined ? { login: args.login } : {}),
      ...(args.controlKey !== undefined ? { controlKey: args.controlKey } : {}),
      ...(secrets.publicKey ? { publicKey: secrets.publicKey } : {}),
      crypto,
    });
    verifications.push(v);
    triedUrls.push({ url, matches: await matchesOf(v, secrets, crypto), expectedSignature: v.expected });
    if (triedUrls[triedUrls.length - 1]!.matches === true) break;
  }
  const hit = triedUrls.findIndex((t) => t.matches === true);
  const shown = hit === -1 ? 0 : hit;
  return {
    triedUrls,
    hit,
    verification: verifications[shown]!,
    verifications,
    signatureMatches: triedUrls[shown]!.matches,
    capture: { ...capture, url: triedUrls[shown]!.url },
  };
}
