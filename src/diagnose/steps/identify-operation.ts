import { PayError } from '../../core/errors.ts';
import { parseAuthorizationHeader } from '../../core/oauth/authorization-header.ts';
import { decodeFormBody } from '../../core/percent-encode.ts';
import type { EndpointRef, Scheme } from '../../core/request/operation-spec.ts';
import { matchOperationPath, type CapturedRequest } from '../../core/verify/parse-raw-http.ts';
import { findOperation, OPERATION_PATHS } from '../../catalog/index.ts';
import type { DiagnoseInput } from '../diagnosis-types.ts';
import type { DiagnoseOperation } from '../structural-checks.ts';

export interface IdentifiedOperation {
  /** The operation, with the scheme the capture was signed with among those it allows. */
  operation: DiagnoseOperation;
  scheme: Scheme;
  endpoint: EndpointRef;
  /** The body pairs, decoded, in order. */
  body: Array<{ name: string; value: string }>;
  /** The merchant login: given, else the body's `login`, else the header's oauth_consumer_key. */
  login: string | undefined;
}

function pickScheme(
  op: DiagnoseOperation,
  capture: CapturedRequest,
  body: ReadonlyArray<{ name: string }>,
): Scheme {
  const allowed: Scheme[] = [op.scheme, ...(op.schemeAlternatives ?? [])];
  if (allowed.length === 1) return op.scheme;
  const auth = capture.headers.authorization;
  if (auth && /^\s*OAuth\s/i.test(auth)) {
    const method = /oauth_signature_method\s*=\s*"?([A-Za-z0-9-]+)/.exec(auth)?.[1]?.toUpperCase();
    if (method === 'HMAC-SHA1' && allowed.includes('oauth-hmac-sha1')) return 'oauth-hmac-sha1';
    if (method === 'RSA-SHA256' && allowed.includes('oauth-rsa-sha256')) return 'oauth-rsa-sha256';
    return op.scheme;
  }
  if (body.some((p) => p.name === 'control') && allowed.includes('control')) return 'control';
  return op.scheme;
}

function consumerKeyOf(capture: CapturedRequest): string | undefined {
  const auth = capture.headers.authorization;
  if (!auth) return undefined;
  try {
    return parseAuthorizationHeader(auth).find((p) => p.name === 'oauth_consumer_key')?.value;
  } catch {
    return undefined;
  }
}

/**
 * Step 1: which operation, endpoint and scheme the capture is, from what is given or from its path
 * and its Authorization header.
 * @throws PayError HTTP_PARSE when the URL is not absolute, OPERATION_UNKNOWN when no operation fits.
 */
export function identifyOperation(input: DiagnoseInput): IdentifiedOperation {
  const { capture } = input;
  let op = input.operation;
  let endpoint = input.endpoint;
  if (!op || !endpoint) {
    let pathname: string;
    try {
      pathname = new URL(capture.url).pathname;
    } catch {
      throw new PayError(
        'HTTP_PARSE',
        `The captured URL "${capture.url.slice(0, 80)}" is not an absolute address.`,
      );
    }
    const match = matchOperationPath(pathname, OPERATION_PATHS);
    op ??= match ? findOperation(match.path) : undefined;
    endpoint ??= match?.endpoint;
    if (!op || !endpoint) {
      throw new PayError(
        'OPERATION_UNKNOWN',
        `The path "${pathname}" names no known operation: expected …/api/<operation>/<endpoint id>, e.g. /paynet/api/v2/sale/1111.`,
      );
    }
  }
  const body = decodeFormBody(capture.body);
  const scheme = pickScheme(op, capture, body);
  const consumerKey = scheme === 'control' ? undefined : consumerKeyOf(capture);
  const login = input.login ?? body.find((p) => p.name === 'login')?.value ?? consumerKey;
  return { operation: { ...op, scheme }, scheme, endpoint, body, login };
}
