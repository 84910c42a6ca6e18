import { constantTimeEqual } from '../bytes.ts';
import { signControl, type ControlTrace } from '../control/sign-control.ts';
import type { CryptoPort } from '../crypto-port.ts';
import { PayError } from '../errors.ts';
import { parseAuthorizationHeader } from '../oauth/authorization-header.ts';
import { buildBaseString, type BaseStringParts } from '../oauth/build-base-string.ts';
import { normalizeUrl } from '../oauth/normalize-url.ts';
import {
  collectSignatureParameters,
  normalizeParameters,
  type SignatureParameter,
} from '../oauth/oauth-parameters.ts';
import { hmacSigningKey, signHmacSha1, verifyRsaSha256 } from '../oauth/sign-oauth.ts';
import { decodeFormBody } from '../percent-encode.ts';
import type { ControlTerm } from '../control/control-terms.ts';
import type { EndpointRef, OperationSigningSpec } from '../request/operation-spec.ts';
import type { CapturedRequest } from './captured-request.ts';

export interface VerifyInput {
  request: CapturedRequest;
  operation: OperationSigningSpec;
  endpoint: EndpointRef;
  /** Merchant login; for OAuth the consumer key is read from the header when this is absent. */
  login?: string;
  controlKey?: string;
  /** Merchant public key, for RSA-SHA256. */
  publicKey?: CryptoKey;
  crypto: CryptoPort;
  formulaOverride?: readonly ControlTerm[];
  /** `request.body` already split and decoded (a server that has parsed it); decoded here otherwise. */
  bodyPairs?: ReadonlyArray<{ name: string; value: string }>;
  /** The Authorization header's pairs (parseAuthorizationHeader of it), when the caller has parsed it already. */
  authorizationPairs?: ReadonlyArray<{ name: string; value: string }>;
}

export interface ControlVerification {
  scheme: 'control';
  ok: boolean;
  received: string | null;
  expected: string | null;
  trace: ControlTrace;
  problems: PayError[];
}

export interface OAuthVerification {
  scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256';
  ok: boolean;
  received: string | null;
  /** The expected signature (HMAC only: an RSA signature can only be checked, not recomputed, without the private key). */
  expected: string | null;
  oauth: Record<string, string>;
  parameters: SignatureParameter[];
  sorted: SignatureParameter[];
  normalizedUrl: string;
  base: BaseStringParts;
  problems: PayError[];
}

export type Verification = ControlVerification | OAuthVerification;

/**
 * Recomputes the signature of a captured request from its own values and compares it with the
 * one it carries, in constant time. Never returns the key or (for `control`) the full signing input.
 */
export async function verifySignature(input: VerifyInput): Promise<Verification> {
  const body = input.bodyPairs ?? decodeFormBody(input.request.body);
  const { operation, crypto } = input;
  if (operation.scheme === 'control') {
    const received = body.find((p) => p.name === 'control')?.value ?? null;
    const signedBody = body.filter((p) => p.name !== 'control');
    const login = input.login ?? body.find((p) => p.name === 'login')?.value ?? '';
    const trace = await signControl(
      input.formulaOverride ?? operation.formula ?? [],
      { login, endpoint: input.endpoint, body: signedBody },
      input.controlKey,
      crypto,
    );
    const problems = [...trace.problems];
    if (received === null)
      problems.push(
        new PayError('SIGNATURE_ENCODING', 'The request has no `control` parameter in its body.', {
          field: 'control',
        }),
      );
    // The gateway's hex is lowercase; the sandbox accepts either case, as the issue asks.
    const ok =
      received !== null &&
      trace.signature !== null &&
      constantTimeEqual(received.toLowerCase(), trace.signature);
    return { scheme: 'control', ok, received, expected: trace.signature, trace, problems };
  }

  const problems: PayError[] = [];
  const auth = input.request.headers.authorization;
  let headerParams: ReadonlyArray<{ name: string; value: string }> = [];
  if (!auth)
    problems.push(
      new PayError(
        'AUTHORIZATION_PARSE',
        'The request has no Authorization header: OAuth parameters travel there.',
      ),
    );
  else if (input.authorizationPairs) headerParams = input.authorizationPairs;
  else {
    try {
      headerParams = parseAuthorizationHeader(auth);
    } catch (e) {
      problems.push(e as PayError);
    }
  }
  const oauth: Record<string, string> = {};
  for (const p of headerParams) if (!(p.name in oauth)) oauth[p.name] = p.value;
  const normalizedUrl = normalizeUrl(input.request.url);
  const parameters = collectSignatureParameters(body, headerParams);
  const { sorted, joined } = normalizeParameters(parameters);
  const base = buildBaseString(input.request.method, normalizedUrl, joined);
  const received = oauth.oauth_signature ?? null;
  let expected: string | null = null;
  let ok = false;
  if (operation.scheme === 'oauth-hmac-sha1') {
    if (!input.controlKey)
      problems.push(
        new PayError(
          'CONTROL_KEY_MISSING',
          'Give the merchant control key to check an HMAC-SHA1 signature.',
          { field: 'controlKey' },
        ),
      );
    else {
      expected = await signHmacSha1(base.baseString, hmacSigningKey(input.controlKey), crypto);
      ok = received !== null && constantTimeEqual(received, expected);
    }
  } else if (!input.publicKey) {
    problems.push(
      new PayError('KEY_NOT_PUBLIC', "Give the merchant's public key to check an RSA-SHA256 signature.", {
        field: 'publicKey',
      }),
    );
  } else if (received !== null) {
    ok = await verifyRsaSha256(base.baseString, received, input.publicKey, crypto);
  }
  return {
    scheme: operation.scheme,
    ok,
    received,
    expected,
    oauth,
    parameters,
    sorted,
    normalizedUrl,
    base,
    problems,
  };
}
