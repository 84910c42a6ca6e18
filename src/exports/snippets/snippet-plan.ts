import { z } from 'zod';
import {
  normalizeUrl,
  operationUrl,
  type ControlTerm,
  type EndpointRef,
  type Scheme,
} from '../../core/index.ts';
import { findOperation, type Operation } from '../../catalog/index.ts';
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

const pairSchema = z.object({ name: z.string().min(1, 'a parameter needs a name'), value: z.string() });

/** What a snippet is generated from; zod-checked because it comes from the UI or a caller's file. */
export const snippetInputSchema = z.object({
  operation: z.custom<Operation>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      typeof (v as Operation).path === 'string' &&
      findOperation((v as Operation).path) !== undefined,
    'operation must be an entry of the catalog (findOperation finds it by path)',
  ),
  baseUrl: z.string().min(1, 'baseUrl is required, e.g. https://sandbox.example.com/paynet'),
  endpoint: z.object({
    kind: z.enum(['endpoint', 'group']),
    id: z.string().regex(/^\d{1,19}$/, 'the endpoint id is a whole number, e.g. 1111'),
  }),
  /** The body pairs as the form would send them; `control` is dropped (it is computed at run time). */
  values: z.array(pairSchema),
  /** The merchant login (`oauth_consumer_key`, the `login` term of a `control` formula). */
  login: z.string(),
  /** The scheme to sign with when it differs from the operation's own (payout-form's alternatives). */
  scheme: z.enum(['control', 'oauth-hmac-sha1', 'oauth-rsa-sha256']).optional(),
  /** The `control` formula when it differs from the operation's own (an edited formula). */
  formula: z
    .array(
      z.union([
        z.object({ kind: z.literal('login') }),
        z.object({ kind: z.literal('endpointId') }),
        z.object({ kind: z.literal('field'), name: z.string().min(1), minorUnits: z.boolean().optional() }),
      ]),
    )
    .optional(),
  /** OAuth nonce and timestamp written into the snippet (a pinned request); absent: fresh on every run. */
  pinned: z.object({ nonce: z.string(), timestamp: z.string().regex(/^\d{1,12}$/) }).optional(),
  /** Embed the secrets below in the snippet (with a warning comment). Off by default. */
  includeSecrets: z.boolean().default(false),
  secrets: z.object({ controlKey: z.string().optional(), privateKeyPem: z.string().optional() }).optional(),
});
export type SnippetInput = z.input<typeof snippetInputSchema>;

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

/**
 * Checks the input and resolves what every language needs. Empty values are left out, as the
 * console's own request builder leaves them out (buildRequest, selectBodyParams).
 * @throws ExportError SNIPPET_INPUT for input that cannot make a request; PayError BASE_URL_INVALID for a bad base URL.
 */
export function planSnippet(input: SnippetInput): SnippetPlan {
  const parsed = snippetInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.');
    throw new ExportError(
      'SNIPPET_INPUT',
      `The snippet cannot be generated: ${where ? `${where}: ` : ''}${issue.message}.`,
    );
  }
  const data = parsed.data;
  const operation = data.operation;
  const scheme = data.scheme ?? operation.scheme;
  // normalizeUrl throws a PayError that says how to fix the base URL.
  const baseUrl = normalizeUrl(data.baseUrl.replace(/\/+$/, '') + '/').replace(/\/$/, '');
  const endpoint: EndpointRef = data.endpoint;
  const url = operationUrl(baseUrl, operation.path, endpoint);
  const params = data.values
    .filter((p) => p.name !== 'control' && p.value !== '')
    .map((p) => ({ name: p.name, value: p.value, isLogin: p.name === 'login' && p.value === data.login }));
  const formula = scheme === 'control' ? (data.formula ?? operation.formula ?? []).map(planTerm) : [];
  const embedded = data.includeSecrets
    ? {
        ...(data.secrets?.controlKey ? { controlKey: data.secrets.controlKey } : {}),
        ...(data.secrets?.privateKeyPem ? { privateKeyPem: data.secrets.privateKeyPem } : {}),
      }
    : null;
  return {
    operation,
    scheme,
    baseUrl,
    endpoint,
    pathAfterApi: `${operation.path}/${endpoint.kind === 'group' ? 'group/' : ''}${endpoint.id}`,
    url,
    login: data.login,
    params,
    formula,
    pinned: scheme !== 'control' && data.pinned ? { ...data.pinned } : null,
    embedded,
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
