import {
  normalizeUrl,
  operationUrl,
  type ControlTerm,
  type Credentials,
  type EndpointRef,
  type Scheme,
} from '../../core/index.ts';
import type { Operation } from '../../catalog/index.ts';
import {
  draftParams,
  formulaOf,
  operationOf,
  requireAllValues,
  resolveDraft,
  schemeOf,
  type Place,
  type RequestDraft,
} from '../../model/index.ts';
import { ExportError } from '../errors.ts';

/** The languages a snippet can be generated in. */
export const SNIPPET_LANGUAGES = ['bash', 'node', 'python', 'php', 'java', 'csharp'] as const;
export type SnippetLanguage = (typeof SNIPPET_LANGUAGES)[number];

/** Environment variables every snippet reads its secrets from. */
export const SECRET_ENV = {
  controlKey: 'MERCHANT_CONTROL_KEY',
  privateKeyFile: 'MERCHANT_PRIVATE_KEY_FILE',
} as const;

/**
 * Environment variables every snippet reads at run time besides the secrets: a dry run prints the
 * signature and sends nothing; a nonce and timestamp reproduce a given OAuth request.
 */
export const RUN_ENV = { dryRun: 'PAY_DRY_RUN', nonce: 'PAY_NONCE', timestamp: 'PAY_TIMESTAMP' } as const;

/** Where the snippet is made for: the profile's target, endpoint and login, and the place of the console. */
export interface SnippetTarget {
  place: Place;
  baseUrl: string;
  /** The profile's endpoint, used when the draft names none. */
  endpoint: EndpointRef;
  credentials: Pick<Credentials, 'login' | 'controlKey'>;
  /** Embed the control key (or the given private key PEM) in the snippet. */
  includeSecrets?: boolean;
  privateKeyPem?: string;
}

/** One term of the formula as every language spells it out. */
export type PlannedTerm =
  { kind: 'login' } | { kind: 'endpointId' } | { kind: 'field'; name: string; minorUnits: boolean };

export interface PlannedParam {
  name: string;
  value: string;
  /** The `login` parameter: the snippet uses its LOGIN variable rather than a copy of the text. */
  isLogin: boolean;
}

/** Everything a language renderer needs, resolved once. */
export interface SnippetPlan {
  operation: Operation;
  scheme: Scheme;
  /** Base URL with scheme and host lowercased and the default port dropped (the signed URL is built from it). */
  baseUrl: string;
  endpoint: EndpointRef;
  /** `<path>/<id>` or `<path>/group/<id>`, after `/api/`. */
  pathAfterApi: string;
  url: string;
  login: string;
  params: PlannedParam[];
  formula: PlannedTerm[];
  /** OAuth nonce and timestamp to sign with unless PAY_NONCE/PAY_TIMESTAMP say otherwise; null: fresh. */
  pinned: { nonce: string; timestamp: string } | null;
  /** The secrets to embed; null unless the caller asked for them. */
  embedded: { controlKey?: string; privateKeyPem?: string } | null;
}

function planTerm(t: ControlTerm): PlannedTerm {
  return t.kind === 'field' ? { kind: 'field', name: t.name, minorUnits: t.minorUnits === true } : t;
}

function refuse(where: string, message: string): never {
  throw new ExportError('SNIPPET_INPUT', `The snippet cannot be generated: ${where}: ${message}.`);
}

// The endpoint and pinned timestamp are written into code in six languages: only digits may pass.
function checkedEndpoint(endpoint: EndpointRef): EndpointRef {
  if (endpoint.kind !== 'endpoint' && endpoint.kind !== 'group')
    refuse('endpoint.kind', 'the endpoint kind is "endpoint" or "group"');
  if (!/^\d{1,19}$/.test(endpoint.id)) refuse('endpoint.id', 'the endpoint id is a whole number, e.g. 1111');
  return { kind: endpoint.kind, id: endpoint.id };
}

/**
 * Resolves what every language needs from the draft and where it is made for, with the model's own
 * decisions (operation, values, scheme, formula, pinned nonce and timestamp), so the snippet signs
 * what the console signs. Empty values are left out, as the console's request builder leaves them out.
 * @throws DraftError DRAFT_OPERATION for an unknown operation, DRAFT_MISSING_VALUES for a draft that
 *   came without values (a snippet would sign fewer parameters than the request), naming them;
 *   ExportError SNIPPET_INPUT for a target that cannot make a request; PayError BASE_URL_INVALID.
 */
export function planSnippet(draft: RequestDraft, target: SnippetTarget): SnippetPlan {
  const operation = operationOf(draft);
  requireAllValues(draft, 'generate this snippet');
  const resolved = resolveDraft(draft, target.place);
  const scheme = schemeOf(operation, draft);
  if (target.baseUrl === '')
    refuse('baseUrl', 'baseUrl is required, e.g. https://sandbox.example.com/paynet');
  const endpoint = checkedEndpoint(resolved.endpoint ?? target.endpoint);
  const pinned = scheme !== 'control' && resolved.pinned ? resolved.pinned : null;
  if (pinned && !/^\d{1,12}$/.test(pinned.timestamp))
    refuse('pinned.timestamp', 'the timestamp is whole seconds since 1970, e.g. 1700000000');
  // normalizeUrl throws a PayError that says how to fix the base URL.
  const baseUrl = normalizeUrl(target.baseUrl.replace(/\/+$/, '') + '/').replace(/\/$/, '');
  const login = target.credentials.login;
  const params = draftParams(operation, resolved)
    .filter((p) => p.name !== 'control' && p.value !== '')
    .map((p) => ({ name: p.name, value: p.value, isLogin: p.name === 'login' && p.value === login }));
  const secrets = { controlKey: target.credentials.controlKey, privateKeyPem: target.privateKeyPem };
  return {
    operation,
    scheme,
    baseUrl,
    endpoint,
    pathAfterApi: `${operation.path}/${endpoint.kind === 'group' ? 'group/' : ''}${endpoint.id}`,
    url: operationUrl(baseUrl, operation.path, endpoint),
    login,
    params,
    formula: scheme === 'control' ? formulaOf(operation, draft).map(planTerm) : [],
    pinned: pinned ? { nonce: pinned.nonce, timestamp: pinned.timestamp } : null,
    // Asked for but none given: an empty set (the run line then names no variables either).
    embedded:
      target.includeSecrets === true
        ? {
            ...(secrets.controlKey ? { controlKey: secrets.controlKey } : {}),
            ...(secrets.privateKeyPem ? { privateKeyPem: secrets.privateKeyPem } : {}),
          }
        : null,
  };
}

/** `endpointId + client_orderid + amount (minor units) + email + merchant control key`. */
export function spellFormula(plan: SnippetPlan): string {
  return [
    ...plan.formula.map((t) =>
      t.kind === 'field'
        ? `${t.name}${t.minorUnits ? ' (minor units)' : ''}`
        : t.kind === 'endpointId' && plan.endpoint.kind === 'group'
          ? 'endpointGroupId'
          : t.kind,
    ),
    'merchant control key',
  ].join(' + ');
}

/** The first comment lines every snippet carries, without comment markers. */
export function headerLines(plan: SnippetPlan, runHint: string): string[] {
  const what =
    plan.scheme === 'control'
      ? `computes \`control\` = SHA-1(${spellFormula(plan)}) at run time`
      : `signs with OAuth 1.0a ${plan.scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1 (key: control key + "&")' : 'RSA-SHA256 (merchant private key)'} at run time: ${plan.pinned ? `nonce and timestamp PINNED to ${plan.pinned.nonce} / ${plan.pinned.timestamp} (reproduces a given request; the gateway refuses a stale timestamp)` : 'fresh nonce and timestamp on every run'}`;
  const env =
    plan.scheme === 'oauth-rsa-sha256'
      ? `${SECRET_ENV.privateKeyFile}: path of the merchant's RSA private key (PEM)`
      : `${SECRET_ENV.controlKey}: the merchant control key`;
  return [
    `${plan.operation.title} (POST /api/${plan.operation.path}): ${what}.`,
    plan.embedded && Object.keys(plan.embedded).length > 0
      ? 'Secrets: EMBEDDED in this file at your request. Do not commit or share it.'
      : `Secrets are read from the environment, never stored here: ${env}.`,
    'MERCHANT_LOGIN, when set, replaces the merchant login written below.',
    plan.scheme === 'control'
      ? `${RUN_ENV.dryRun}=1 prints the signature and sends nothing.`
      : `${RUN_ENV.dryRun}=1 prints the signature and sends nothing; ${RUN_ENV.nonce} and ${RUN_ENV.timestamp} sign with a given nonce and timestamp.`,
    `Run: ${runHint}`,
  ];
}

/** The warning put above embedded secrets, in every language. */
export const EMBEDDED_WARNING =
  'WARNING: secret embedded at your request. Anyone who reads this file can sign as the merchant. Do not commit or share it.';

/** Whether the snippet needs the control key (control and HMAC-SHA1) or the private key (RSA-SHA256). */
export function needsControlKey(plan: SnippetPlan): boolean {
  return plan.scheme !== 'oauth-rsa-sha256';
}
