import type { ControlTerm } from '../control/control-terms.ts';
import { signControl, type ControlTrace } from '../control/sign-control.ts';
import type { CryptoPort } from '../crypto-port.ts';
import { PayError } from '../errors.ts';
import { toOAuthTimestamp, type Clock, type NonceSource } from '../nonce.ts';
import { buildAuthorizationHeader } from '../oauth/authorization-header.ts';
import { buildBaseString, type BaseStringParts } from '../oauth/build-base-string.ts';
import { normalizeUrl } from '../oauth/normalize-url.ts';
import {
  buildProtocolParameters,
  collectSignatureParameters,
  normalizeParameters,
  type OAuthSignatureMethod,
  type SignatureParameter,
} from '../oauth/oauth-parameters.ts';
import { hmacSigningKey, signHmacSha1, signRsaSha256 } from '../oauth/sign-oauth.ts';
import { encodeFormBody } from '../percent-encode.ts';
import {
  checkEndpointId,
  operationUrl,
  type EndpointRef,
  type OperationSigningSpec,
} from './operation-spec.ts';

/** The media type every request must accept (api-description.md, Endpoints). */
export const PAY_MEDIA_TYPE = 'application/vnd.pay+json';
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** Where a body parameter came from. */
export type ParamSource = 'form' | 'extra' | 'profile' | 'computed';

export interface InputParam {
  name: string;
  value: string;
  source: ParamSource;
  /** Send it even when empty (by default empty values are left out of the body). */
  keepEmpty?: boolean;
}

export interface HeaderLine {
  name: string;
  value: string;
  /** `fixed` by the spec, `computed` by the signer. */
  source: 'fixed' | 'computed';
}

export interface Credentials {
  login: string;
  controlKey?: string;
  /** An imported RSA private key (see importSigningKey) for scheme O2. */
  privateKey?: CryptoKey;
}

export interface BuildRequestInput {
  operation: OperationSigningSpec;
  baseUrl: string;
  endpoint: EndpointRef;
  params: readonly InputParam[];
  credentials: Credentials;
  crypto: CryptoPort;
  clock: Clock;
  nonce: NonceSource;
  /** Values to reproduce a captured request exactly; fresh ones are drawn when absent. */
  pinned?: { nonce?: string; timestamp?: string };
  /** Replaces the operation's formula (for operations whose formula the description does not give). */
  formulaOverride?: readonly ControlTerm[];
  /**
   * Builds with an invalid endpoint id as typed and reports it in `problems` (a live preview)
   * instead of throwing; such a request must not be sent.
   */
  keepInvalidEndpoint?: boolean;
}

export interface OAuthTrace {
  scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256';
  method: OAuthSignatureMethod;
  nonce: string;
  timestamp: string;
  /** Every parameter considered, with its encoding, source and whether it is signed. */
  parameters: SignatureParameter[];
  /** The signed parameters in base-string order. */
  sorted: SignatureParameter[];
  parameterString: string;
  normalizedUrl: string;
  base: BaseStringParts;
  /** The HMAC key as it may be displayed, e.g. `<merchant_control_key>&` (HMAC only). */
  maskedSigningKey?: string;
  signature: string | null;
  authorization: string | null;
  problems: PayError[];
}

export type SigningTrace = ControlTrace | OAuthTrace;

/**
 * The one description of a request from which the preview, the raw HTTP text, the curl command
 * and the real send all derive.
 */
export interface BuiltRequest {
  method: 'POST';
  url: string;
  headers: HeaderLine[];
  /** The body parameters in the order they are sent (`control` last, for scheme C). */
  body: Array<{ name: string; value: string; source: ParamSource }>;
  bodyText: string;
  /** Parameters that were not sent, and why. */
  omitted: Array<{ name: string; reason: string }>;
  signing: SigningTrace;
  /** Everything that prevents a correct signature; empty when the request is ready to send. */
  problems: PayError[];
}

/** Step 0 of every scheme: the body as it will be sent, empty values left out unless asked for. */
export function selectBodyParams(params: readonly InputParam[]): {
  body: Array<{ name: string; value: string; source: ParamSource }>;
  omitted: Array<{ name: string; reason: string }>;
} {
  const body: Array<{ name: string; value: string; source: ParamSource }> = [];
  const omitted: Array<{ name: string; reason: string }> = [];
  for (const p of params) {
    if (p.name === '') continue;
    if (p.value === '' && !p.keepEmpty) omitted.push({ name: p.name, reason: 'empty: not sent' });
    else body.push({ name: p.name, value: p.value, source: p.source });
  }
  return { body, omitted };
}

/** Builds and signs the whole request, keeping every intermediate value of the signature. */
export async function buildRequest(input: BuildRequestInput): Promise<BuiltRequest> {
  const { operation, credentials, crypto } = input;
  const endpointProblem = checkEndpointId(input.endpoint);
  const endpointError = endpointProblem
    ? new PayError(endpointProblem.code, endpointProblem.message, { field: 'endpointId' })
    : null;
  // A preview keeps showing the signing input with the id as typed; a send never goes out with it.
  if (endpointError && !input.keepInvalidEndpoint) throw endpointError;
  const url = operationUrl(input.baseUrl, operation.path, input.endpoint);
  const normalized = normalizeUrl(url); // validates the base URL for every scheme
  const { body, omitted } = selectBodyParams(input.params.filter((p) => p.name !== 'control'));
  const headers: HeaderLine[] = [
    { name: 'Accept', value: PAY_MEDIA_TYPE, source: 'fixed' },
    { name: 'Content-Type', value: FORM_MEDIA_TYPE, source: 'fixed' },
  ];

  if (operation.scheme === 'control') {
    const formula = input.formulaOverride ?? operation.formula ?? [];
    const signing = await signControl(
      formula,
      { login: credentials.login, endpoint: input.endpoint, body },
      credentials.controlKey,
      crypto,
    );
    const sent = [...body, { name: 'control', value: signing.signature ?? '', source: 'computed' as const }];
    return {
      method: 'POST',
      url,
      headers,
      body: sent,
      bodyText: encodeFormBody(sent),
      omitted,
      signing,
      problems: endpointError ? [endpointError, ...signing.problems] : signing.problems,
    };
  }

  const signing = await signOAuth(input, body, normalized);
  if (signing.authorization)
    headers.push({ name: 'Authorization', value: signing.authorization, source: 'computed' });
  return {
    method: 'POST',
    url,
    headers,
    body,
    bodyText: encodeFormBody(body),
    omitted,
    signing,
    problems: endpointError ? [endpointError, ...signing.problems] : signing.problems,
  };
}

async function signOAuth(
  input: BuildRequestInput,
  body: ReadonlyArray<{ name: string; value: string }>,
  normalizedUrl: string,
): Promise<OAuthTrace> {
  const { credentials, crypto } = input;
  const scheme = input.operation.scheme as OAuthTrace['scheme'];
  const method: OAuthSignatureMethod = scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';
  const nonce = input.pinned?.nonce ?? input.nonce();
  const timestamp = input.pinned?.timestamp ?? toOAuthTimestamp(input.clock());
  const protocol = buildProtocolParameters({ consumerKey: credentials.login, method, nonce, timestamp });
  const parameters = collectSignatureParameters(body, protocol);
  const { sorted, joined } = normalizeParameters(parameters);
  const base = buildBaseString('POST', normalizedUrl, joined);
  const problems: PayError[] = [];
  if (credentials.login === '') {
    problems.push(
      new PayError('LOGIN_MISSING', 'oauth_consumer_key is the merchant login: enter it in the profile.', {
        field: 'login',
      }),
    );
  }
  let signature: string | null = null;
  let maskedSigningKey: string | undefined;
  if (method === 'HMAC-SHA1') {
    maskedSigningKey = '<merchant_control_key>&';
    if (credentials.controlKey)
      signature = await signHmacSha1(base.baseString, hmacSigningKey(credentials.controlKey), crypto);
    else
      problems.push(
        new PayError(
          'CONTROL_KEY_MISSING',
          'HMAC-SHA1 signs with the merchant control key: enter it in the profile.',
          { field: 'controlKey' },
        ),
      );
  } else if (credentials.privateKey) {
    signature = await signRsaSha256(base.baseString, credentials.privateKey, crypto);
  } else {
    problems.push(
      new PayError(
        'PRIVATE_KEY_MISSING',
        'RSA-SHA256 signs with the merchant private key: paste or load it in the profile.',
        { field: 'privateKey' },
      ),
    );
  }
  const authorization =
    signature === null
      ? null
      : buildAuthorizationHeader([...protocol, { name: 'oauth_signature', value: signature }]);
  return {
    scheme,
    method,
    nonce,
    timestamp,
    parameters,
    sorted,
    parameterString: joined,
    normalizedUrl,
    base,
    ...(maskedSigningKey ? { maskedSigningKey } : {}),
    signature,
    authorization,
    problems,
  };
}
