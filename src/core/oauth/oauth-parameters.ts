import { percentEncode } from '../percent-encode.ts';

export type OAuthSignatureMethod = 'HMAC-SHA1' | 'RSA-SHA256';

/**
 * The protocol parameters every signed request carries, in the order the Authorization header
 * writes them (no token: the gateway's requests are two-legged).
 * @see RFC 5849 §3.1; api-description.md, Authentication, schemes O1 and O2.
 */
export const OAUTH_PROTOCOL_PARAMETERS = [
  'oauth_consumer_key',
  'oauth_nonce',
  'oauth_signature',
  'oauth_signature_method',
  'oauth_timestamp',
  'oauth_version',
] as const;

/** Where a signed parameter came from: the form body or the OAuth protocol parameters. */
export type ParameterSource = 'body' | 'oauth';

export interface SignatureParameter {
  name: string;
  value: string;
  encodedName: string;
  encodedValue: string;
  source: ParameterSource;
  /** False when the parameter is left out of the base string. */
  included: boolean;
  /** Why it was left out, when it was. */
  excludedBecause?: string;
}

/** The protocol parameters of scheme O1/O2 (all but `oauth_signature`), in the order the header lists them. */
export function buildProtocolParameters(input: {
  consumerKey: string;
  method: OAuthSignatureMethod;
  nonce: string;
  timestamp: string;
}): Array<{ name: string; value: string }> {
  return [
    { name: 'oauth_consumer_key', value: input.consumerKey },
    { name: 'oauth_nonce', value: input.nonce },
    { name: 'oauth_signature_method', value: input.method },
    { name: 'oauth_timestamp', value: input.timestamp },
    { name: 'oauth_version', value: '1.0' },
  ];
}

const EXCLUDED: Record<string, string> = {
  oauth_signature: 'the signature is not part of its own input (RFC 5849 §3.4.1.3.1)',
  realm: '`realm` is never signed (RFC 5849 §3.4.1.3.1)',
};

/**
 * Step 1 of schemes O1/O2: gather the body parameters and the oauth parameters, percent-encode each
 * name and value, and mark the ones the base string leaves out (`oauth_signature`, `realm`).
 * @see api-description.md, Authentication, Scheme O1 step 2.
 */
export function collectSignatureParameters(
  body: ReadonlyArray<{ name: string; value: string }>,
  oauth: ReadonlyArray<{ name: string; value: string }>,
): SignatureParameter[] {
  const tag =
    (source: ParameterSource) =>
    (p: { name: string; value: string }): SignatureParameter => {
      // RFC 5849 §3.4.1.3.1: oauth_signature is excluded from every source; realm only from the header.
      const reason = source === 'oauth' || p.name === 'oauth_signature' ? EXCLUDED[p.name] : undefined;
      const param: SignatureParameter = {
        name: p.name,
        value: p.value,
        encodedName: percentEncode(p.name),
        encodedValue: percentEncode(p.value),
        source,
        included: reason === undefined,
      };
      if (reason !== undefined) param.excludedBecause = reason;
      return param;
    };
  return [...body.map(tag('body')), ...oauth.map(tag('oauth'))];
}

/** Byte-order comparison of two ASCII strings (encoded parameters are ASCII). */
function compareAscii(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Step 2: sort the included parameters by encoded name, then by encoded value, and join them as
 * `name=value` pairs with `&` (the normalized parameter string, RFC 5849 §3.4.1.3.2).
 */
export function normalizeParameters(params: readonly SignatureParameter[]): {
  sorted: SignatureParameter[];
  joined: string;
} {
  const sorted = params
    .filter((p) => p.included)
    .slice()
    .sort(
      (a, b) => compareAscii(a.encodedName, b.encodedName) || compareAscii(a.encodedValue, b.encodedValue),
    );
  return { sorted, joined: sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('&') };
}
