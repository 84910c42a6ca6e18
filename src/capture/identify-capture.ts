import { isPayError } from '../core/errors.ts';
import { parseAuthorizationHeader } from '../core/oauth/authorization-header.ts';
import type { EndpointRef, Scheme } from '../core/request/operation-spec.ts';
import { matchOperationPath } from './parse-raw-http.ts';
import { findOperation, OPERATION_PATHS } from '../catalog/lookup.ts';
import type { Operation } from '../catalog/operations.ts';

/** What identification reads of a request: its URL, its Authorization header and its body pairs. */
export interface CaptureParts {
  /** The request's absolute URL (only read when the operation or the endpoint is not given). */
  url: string;
  authorization?: string | undefined;
  /** The body's pairs, decoded, in order. */
  body: ReadonlyArray<{ name: string; value: string }>;
}

/** An operation as identification needs it: its own scheme and the others the sources allow. */
export interface SchemeChoice {
  scheme: Scheme;
  schemeAlternatives?: readonly Scheme[] | undefined;
}

/** Which request a capture is; every surface that reads one (import, the debugger, the sandbox) asks this. */
export interface CaptureIdentity<O extends SchemeChoice = Operation> {
  operation: O;
  endpoint: EndpointRef;
  /** Among the schemes the operation allows, the one the capture is signed with. */
  scheme: Scheme;
  /** The OAuth signer's login (`oauth_consumer_key`), for an OAuth scheme. */
  consumerKey?: string;
  /** The `oauth_*` parameters: the Authorization header's first, then the body's (first of each name). */
  oauth: ReadonlyMap<string, string>;
  /** An `oauth_signature_method` the operation is not signed with (its own scheme is then taken). */
  otherMethod?: string;
  /** Why the Authorization header could not be read, when it could not. */
  authorizationProblem?: string;
  /** Everything of the URL before `/api/` (`https://gate.example.com/paynet`), when the URL was read. */
  baseUrl?: string;
}

/** Why a capture is no request of the catalog. */
export type CaptureUnknown = { problem: 'url' } | { problem: 'operation'; pathname: string };

const METHODS: Readonly<Record<string, Scheme>> = {
  'HMAC-SHA1': 'oauth-hmac-sha1',
  'RSA-SHA256': 'oauth-rsa-sha256',
};

function oauthOf(parts: CaptureParts): { oauth: Map<string, string>; problem?: string } {
  const oauth = new Map<string, string>();
  let problem: string | undefined;
  const auth = parts.authorization;
  if (auth !== undefined && auth.trim() !== '') {
    try {
      for (const p of parseAuthorizationHeader(auth)) if (!oauth.has(p.name)) oauth.set(p.name, p.value);
    } catch (e) {
      if (!isPayError(e)) throw e;
      problem = e.message;
      // A header damaged further on may still name its method: it says which scheme was meant.
      const method = /oauth_signature_method\s*=\s*"?([A-Za-z0-9-]+)/i.exec(auth)?.[1];
      if (/^\s*OAuth\s/i.test(auth) && method) oauth.set('oauth_signature_method', method);
    }
  }
  for (const p of parts.body)
    if (p.name.startsWith('oauth_') && !oauth.has(p.name)) oauth.set(p.name, p.value);
  return { oauth, ...(problem !== undefined ? { problem } : {}) };
}

/**
 * Which operation, endpoint (or group), scheme and OAuth signer a captured request is. The
 * operation and endpoint come from the path (`…/api/<operation>/<id>` or `…/group/<id>`) unless
 * given; the scheme, among those the operation allows, from the `oauth_signature_method` it names
 * (header first, then body), else `control` when the body carries `control`, else the operation's own.
 */
export function identifyCapture<O extends SchemeChoice>(
  parts: CaptureParts,
  known: { operation: O; endpoint: EndpointRef },
): CaptureIdentity<O>;
export function identifyCapture<O extends SchemeChoice = Operation>(
  parts: CaptureParts,
  known?: { operation?: O; endpoint?: EndpointRef },
): CaptureIdentity<O | Operation> | CaptureUnknown;
export function identifyCapture<O extends SchemeChoice = Operation>(
  parts: CaptureParts,
  known: { operation?: O; endpoint?: EndpointRef } = {},
): CaptureIdentity<O | Operation> | CaptureUnknown {
  let operation: O | Operation | undefined = known.operation;
  let endpoint = known.endpoint;
  let baseUrl: string | undefined;
  if (!operation || !endpoint) {
    let u: URL;
    try {
      u = new URL(parts.url);
    } catch {
      return { problem: 'url' };
    }
    const match = matchOperationPath(u.pathname, OPERATION_PATHS);
    operation ??= match ? findOperation(match.path) : undefined;
    endpoint ??= match?.endpoint;
    if (!operation || !endpoint || !match) return { problem: 'operation', pathname: u.pathname };
    baseUrl = `${u.origin}${match.prefix}`;
  }
  const { oauth, problem } = oauthOf(parts);
  const allowed: Scheme[] = [operation.scheme, ...(operation.schemeAlternatives ?? [])];
  const method = oauth.get('oauth_signature_method');
  let scheme = operation.scheme;
  let otherMethod: string | undefined;
  if (method !== undefined) {
    const named = METHODS[method.toUpperCase()];
    if (named && allowed.includes(named)) scheme = named;
    else otherMethod = method;
  } else if (parts.body.some((p) => p.name === 'control') && allowed.includes('control')) scheme = 'control';
  const consumerKey = scheme === 'control' ? undefined : oauth.get('oauth_consumer_key');
  return {
    operation,
    endpoint,
    scheme,
    oauth,
    ...(consumerKey !== undefined ? { consumerKey } : {}),
    ...(otherMethod !== undefined ? { otherMethod } : {}),
    ...(problem !== undefined ? { authorizationProblem: problem } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
  };
}

export function isCaptureUnknown<O extends SchemeChoice>(
  r: CaptureIdentity<O> | CaptureUnknown,
): r is CaptureUnknown {
  return 'problem' in r;
}
