import type { Scheme } from '../core/request/operation-spec.ts';

/**
 * The rulebook: every rule the debugger, the teaching mode's mistakes and both walkthroughs quote,
 * once, word for word from docs/spec (or the RFC it names). Mistakes and walkthrough steps name
 * rules by id; nothing else carries a copy of a quote.
 */

/** Where a rule is written: the user's description first, then the gateway's notes or an RFC. */
export interface RuleReference {
  id: RuleId;
  document: 'api-description.md' | 'gateway-notes.md' | 'RFC 3986';
  section: string;
  /** The exact words; ` … ` joins two passages of the same section. */
  quote: string;
  /** The schemes the rule is about (the debugger quotes only the capture's own scheme's rules). */
  schemes: readonly Scheme[];
}

const ALL: readonly Scheme[] = ['control', 'oauth-hmac-sha1', 'oauth-rsa-sha256'];
const OAUTH: readonly Scheme[] = ['oauth-hmac-sha1', 'oauth-rsa-sha256'];
const C: readonly Scheme[] = ['control'];
const O1: readonly Scheme[] = ['oauth-hmac-sha1'];
const O2: readonly Scheme[] = ['oauth-rsa-sha256'];

const DESC = 'api-description.md';
const NOTES = 'gateway-notes.md';
const C1 = 'Authentication › Scheme C step 1';
const C2 = 'Authentication › Scheme C step 2';
const C3 = 'Authentication › Scheme C step 3';
const O1_1 = 'Authentication › Scheme O1 step 1';
const O1_2 = 'Authentication › Scheme O1 step 2';

type Entry = Omit<RuleReference, 'id'>;

const BOOK = {
  'c-control-parameter': {
    document: DESC,
    section: C1,
    quote: 'The body carries a `control` parameter.',
    schemes: C,
  },
  'c-concatenation': {
    document: DESC,
    section: C2,
    quote:
      "SHA-1 over the plain concatenation (no separators) of the values named in the operation's formula, in that order, followed by the merchant control key.",
    schemes: C,
  },
  'c-concatenation-value': {
    document: DESC,
    section: C2,
    quote:
      "Value: SHA-1 over the plain concatenation (no separators) of the values named in the operation's formula, in that order, followed by the merchant control key.",
    schemes: C,
  },
  'c-formula-terms': {
    document: DESC,
    section: 'Authentication › Scheme C steps 2 and 4',
    quote:
      "the values named in the operation's formula, in that order … the order id term is the empty string when `orderid` is not sent.",
    schemes: C,
  },
  'c-formula-column': {
    document: DESC,
    section: 'Endpoints › Authentication column (C)',
    quote:
      'The formula after C lists the values concatenated in order, followed by the merchant control key.',
    schemes: C,
  },
  'c-term-values': {
    document: DESC,
    section: C3,
    quote:
      '`login` is the merchant login; `endpointId` is the path endpoint id; `amount` is taken in cents (10.00 becomes 1000).',
    schemes: C,
  },
  'c-login': { document: DESC, section: C3, quote: '`login` is the merchant login', schemes: C },
  'c-endpoint-id': { document: DESC, section: C3, quote: '`endpointId` is the path endpoint id', schemes: C },
  'c-amount-cents': {
    document: DESC,
    section: C3,
    quote: '`amount` is taken in cents (10.00 becomes 1000).',
    schemes: C,
  },
  'c-absent-order-id': {
    document: DESC,
    section: 'Authentication › Scheme C step 4',
    quote: 'Status: the order id term is the empty string when `orderid` is not sent.',
    schemes: C,
  },
  'notes-amount-minor-units': {
    document: NOTES,
    section: '`control` (scheme C)',
    quote:
      'Amount term in minor units: `0.94` signs as `94`, `10.15` as `1015`, `10.42` as `1042`. The SDKs multiply a float by 100, which is a bug waiting to happen (`0.29 * 100`); use exact decimal arithmetic.',
    schemes: C,
  },
  'notes-lowercase-hex': {
    document: NOTES,
    section: '`control` (scheme C)',
    quote: 'Lowercase hex SHA-1 (40 chars) of the UTF-8 concatenation, no separators, key last.',
    schemes: C,
  },
  'o1-header-parameters': {
    document: DESC,
    section: O1_1,
    quote:
      'All `oauth_*` parameters travel in the `Authorization` header (prefix `OAuth`), not required in the form body. Required: `oauth_consumer_key` (merchant login), `oauth_signature_method` (`HMAC-SHA1`), `oauth_signature`, `oauth_timestamp` (current time in seconds), `oauth_nonce` (unique random string), `oauth_version` (`1.0`).',
    schemes: OAUTH,
  },
  'o1-consumer-key': {
    document: DESC,
    section: O1_1,
    quote: '`oauth_consumer_key` (merchant login)',
    schemes: OAUTH,
  },
  'o1-signature-method': {
    document: DESC,
    section: O1_1,
    quote: '`oauth_signature_method` (`HMAC-SHA1`)',
    schemes: O1,
  },
  'o1-timestamp': {
    document: DESC,
    section: O1_1,
    quote: '`oauth_timestamp` (current time in seconds)',
    schemes: OAUTH,
  },
  'o1-gather-and-encode': {
    document: DESC,
    section: O1_2,
    quote:
      'gather all body parameters plus the oauth parameters except `oauth_signature`; percent-encode (RFC 3986: unreserved characters are left unencoded, reserved characters encoded, space as `%20`) each value',
    schemes: OAUTH,
  },
  'o1-exclude-signature': {
    document: DESC,
    section: O1_2,
    quote: 'gather all body parameters plus the oauth parameters except `oauth_signature`',
    schemes: OAUTH,
  },
  'o1-percent-encode': {
    document: DESC,
    section: O1_2,
    quote:
      'percent-encode (RFC 3986: unreserved characters are left unencoded, reserved characters encoded, space as `%20`) each value',
    schemes: OAUTH,
  },
  'o1-sort-and-join': {
    document: DESC,
    section: O1_2,
    quote: 'sort by parameter name lexicographically; join as `name=value` pairs with `&`.',
    schemes: OAUTH,
  },
  'o1-sort': {
    document: DESC,
    section: O1_2,
    quote: 'sort by parameter name lexicographically',
    schemes: OAUTH,
  },
  'o1-join': { document: DESC, section: O1_2, quote: 'join as `name=value` pairs with `&`', schemes: OAUTH },
  'o1-three-parts': {
    document: DESC,
    section: O1_2,
    quote:
      'The base string is `POST&<encoded URL>&<encoded joined parameters>`, each of the three parts percent-encoded (the inner `&` and `=` included).',
    schemes: OAUTH,
  },
  'o1-no-default-port': {
    document: DESC,
    section: O1_2,
    quote: 'The URL has no default port.',
    schemes: OAUTH,
  },
  'o1-signing-key': {
    document: DESC,
    section: 'Authentication › Scheme O1 step 3',
    quote: 'Signing key: the merchant control key (consumer secret), then `&`, then the empty token secret.',
    schemes: O1,
  },
  'o1-hmac-signature': {
    document: DESC,
    section: 'Authentication › Scheme O1 step 4',
    quote: 'Signature: HMAC-SHA1 of the base string with that key, Base64-encoded.',
    schemes: O1,
  },
  'o1-header': {
    document: DESC,
    section: 'Authentication › Scheme O1 step 5',
    quote:
      'Header: `Authorization: OAuth` followed by comma-separated `name="value"` pairs for `oauth_consumer_key`, `oauth_nonce`, `oauth_signature`, `oauth_signature_method`, `oauth_timestamp`, `oauth_version`; the values (especially nonce and signature) are percent-encoded before insertion.',
    schemes: OAUTH,
  },
  'o1-header-encoding': {
    document: DESC,
    section: 'Authentication › Scheme O1 step 5',
    quote: 'the values (especially nonce and signature) are percent-encoded before insertion.',
    schemes: OAUTH,
  },
  'o2-same-rules': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 1',
    quote:
      'Same header, parameters, base-string and sorting rules as O1, with `oauth_signature_method` = `RSA-SHA256`.',
    schemes: O2,
  },
  'o2-signature-method': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 1',
    quote: '`oauth_signature_method` = `RSA-SHA256`',
    schemes: O2,
  },
  'o2-rsa-key': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 2',
    quote: 'RSA signature with SHA-256 over the base string (UTF-8 bytes), using the merchant private key',
    schemes: O2,
  },
  'o2-rsa-signature': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 2',
    quote:
      'Signature: RSA signature with SHA-256 over the base string (UTF-8 bytes), using the merchant private key; Base64-encoded, then percent-encoded once more when placed in the header value.',
    schemes: O2,
  },
  'o2-rsa-signature-encoding': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 2',
    quote: 'Base64-encoded, then percent-encoded once more when placed in the header value.',
    schemes: O2,
  },
  'o2-key-pair': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 3',
    quote:
      'the merchant generates it. The private key stays secret; the public key (PEM) is sent to the support manager so the service can verify signatures. … The service requires an RSA key of at least 2048 bits, PEM format.',
    schemes: O2,
  },
  'o2-key-containers': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 4',
    quote:
      'signing libraries may need a PKCS#8 private key (`BEGIN PRIVATE KEY`); the in-page request builders need an unencrypted PKCS#1 key (`BEGIN RSA PRIVATE KEY`) up to 4096 bits.',
    schemes: O2,
  },
  'o2-space-never-plus': {
    document: DESC,
    section: 'Authentication › Scheme O2 step 5',
    quote: 'Space is `%20`, never `+`.',
    schemes: O2,
  },
  'notes-sorting': {
    document: NOTES,
    section: 'OAuth 1.0a (schemes O1, O2)',
    quote: 'Sorting is by name (then value), never by insertion order.',
    schemes: OAUTH,
  },
  'notes-endpoint-group': {
    document: NOTES,
    section: 'Addresses',
    quote:
      'An endpoint group id may stand in place of the endpoint id: `{base_url}/api/v2/sale/group/{endpointGroupId}`; the group id then replaces `endpointId` in the `control` formula too.',
    schemes: ALL,
  },
  'resources-client-order-id': {
    document: DESC,
    section: 'Resources and their fields › Parameters and headers',
    quote: '`client_orderid` … Spelled `client-order-id` in the 3DS upload formulas',
    schemes: ALL,
  },
  'notes-field-spelling': {
    document: NOTES,
    section: 'Request fields',
    quote:
      'Hyphen vs underscore spelling differs from operation to operation: keep each name exactly as its operation spells it.',
    schemes: ALL,
  },
  'desc-accept-required': {
    document: DESC,
    section: 'Errors',
    quote:
      'Rule: when the `Accept` header is not `application/vnd.pay+json`, the request is outside the contract (the header is required).',
    schemes: ALL,
  },
  'notes-default-dialect': {
    document: NOTES,
    section: "The gateway's default dialect",
    quote: 'Answer without `Accept: application/vnd.pay+json`: `Content-Type: text/html;charset=utf-8`',
    schemes: ALL,
  },
  'rfc3986-uppercase-escapes': {
    document: 'RFC 3986',
    section: '§2.1 Percent-Encoding (and RFC 5849 §3.6)',
    quote: 'URI producers … should use uppercase hexadecimal digits for all percent-encodings.',
    schemes: OAUTH,
  },
} as const satisfies Record<string, Entry>;

export type RuleId = keyof typeof BOOK;

/** Every rule, in the rulebook's order, each with its id. */
export const RULEBOOK: readonly RuleReference[] = (Object.keys(BOOK) as RuleId[]).map((id) => ({
  id,
  ...BOOK[id],
}));

const BY_ID = new Map(RULEBOOK.map((r) => [r.id, r]));

/** A rule of the rulebook by id. */
export function ruleById(id: RuleId): RuleReference {
  return BY_ID.get(id)!;
}

/** The rules of the given ids, in that order. */
export function rulesOf(ids: readonly RuleId[]): RuleReference[] {
  return ids.map(ruleById);
}

/** The rule as one line: `api-description.md › Authentication › …: "…"`. */
export function formatRule(rule: RuleReference): string {
  return `${rule.document} › ${rule.section}: "${rule.quote}"`;
}
