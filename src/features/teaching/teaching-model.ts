import { z } from 'zod';
import {
  type Clock,
  type Credentials,
  type CryptoPort,
  type EndpointRef,
  type InputParam,
  type OperationSigningSpec,
  type Scheme,
} from '../../core/index.ts';
import {
  OTHER_MERCHANT_CONTROL_KEY,
  TEACHING_SWITCHES,
  teach,
  type Mistake,
  type MistakeId,
  type TeachInput,
  type TeachResult,
} from '../../diagnose/index.ts';
import {
  errorCodeLabel,
  isSignatureRefusal,
  parseResponse,
  readSandboxDebug,
  RESPONSE_SCHEMAS,
  type Operation,
} from '../../catalog/index.ts';
import {
  DRAFT_VERSION,
  draftParams,
  exampleDraft,
  resolveDraft,
  schemesOf,
  signingSpecOf,
  type DraftValue,
  type Place,
  type RequestDraft,
} from '../../model/index.ts';

export { OTHER_MERCHANT_CONTROL_KEY, schemesOf };

/** What the teaching mode signs with: the active profile, resolved. */
export interface TeachingProfile {
  baseUrl: string;
  endpoint: EndpointRef;
  credentials: Credentials;
}

export const SCHEME_LABEL: Record<Scheme, string> = {
  control: 'control (SHA-1)',
  'oauth-hmac-sha1': 'OAuth 1.0a HMAC-SHA1',
  'oauth-rsa-sha256': 'OAuth 1.0a RSA-SHA256',
};

/** The teaching switches that act on a scheme, in the catalogue's order. */
export function switchesFor(scheme: Scheme): Mistake[] {
  return TEACHING_SWITCHES.filter((m) => m.schemes.includes(scheme));
}

const ORDER_ID_FIELDS = new Set(['client_orderid', 'client-order-id', 'client-orderid']);
const YEAR_FIELDS = new Set(['expire_year', 'expire-year']);

/** A fresh merchant order id from the secure random generator. */
export function freshOrderId(
  now: number,
  random: (n: number) => Uint8Array = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n)),
): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let tail = '';
  for (const b of random(6)) tail += alphabet[b % alphabet.length];
  return `teach-${now.toString(36)}-${tail}`;
}

/**
 * The catalog's example request with a fresh order id and an expiry in the future; the login,
 * return page and callback inbox stay placeholders for the place it is used in.
 */
export function testDraft(op: Operation, now: number): RequestDraft {
  const overrides: Record<string, string> = {};
  for (const f of op.fields) {
    if (ORDER_ID_FIELDS.has(f.name)) overrides[f.name] = freshOrderId(now);
    else if (YEAR_FIELDS.has(f.name)) overrides[f.name] = String(new Date(now).getUTCFullYear() + 3);
  }
  return exampleDraft(op, overrides);
}

/** A draft's values as the teaching page edits them: one text per name, fields and extras alike. */
export function flatValues(draft: RequestDraft, place: Place): Record<string, string> {
  const r = resolveDraft(draft, place);
  const out = { ...r.values };
  for (const e of r.extras) if (e.name !== '' && !(e.name in out)) out[e.name] = e.value;
  return out;
}

/** {@link testDraft}'s values at this place (this console's origin and inbox, the profile's login). */
export function testValues(op: Operation, now: number, place: Place): Record<string, string> {
  return flatValues(testDraft(op, now), place);
}

/**
 * The page's values as a draft of the request model: the operation's fields, the other names as
 * extra parameters; a login field left empty or holding the profile's login is the profile's.
 */
export function teachingDraft(
  op: Operation,
  scheme: Scheme,
  values: Record<string, string>,
  login: string,
): RequestDraft {
  const known = new Set(op.fields.map((f) => f.name));
  const fieldValues: Record<string, DraftValue> = {};
  for (const f of op.fields) {
    const v = values[f.name] ?? '';
    fieldValues[f.name] = f.fromProfile === 'login' && (v === '' || v === login) ? { place: 'login' } : v;
  }
  return {
    v: DRAFT_VERSION,
    operation: op.path,
    ...(scheme !== op.scheme ? { scheme } : {}),
    values: fieldValues,
    extras: Object.entries(values)
      .filter(([name]) => !known.has(name) && name !== 'control')
      .map(([name, value]) => ({ name, value })),
  };
}

/** The order id field of an operation, when it has one. */
export function orderIdField(op: Operation): string | undefined {
  return op.fields.find((f) => ORDER_ID_FIELDS.has(f.name))?.name;
}

/** What the core signs for the page's values: through the request model's one converter. */
export function teachingRequest(
  op: Operation,
  scheme: Scheme,
  values: Record<string, string>,
  login: string,
): { operation: OperationSigningSpec; params: InputParam[] } {
  const draft = teachingDraft(op, scheme, values, login);
  // The values are already resolved: only the login placeholder is left to fill in.
  const place: Place = { origin: '', inboxUrl: '', login };
  return { operation: signingSpecOf(op, draft), params: draftParams(op, resolveDraft(draft, place)) };
}

export interface TeachingArgs {
  op: Operation;
  scheme: Scheme;
  values: Record<string, string>;
  profile: TeachingProfile;
  pinned: { nonce: string; timestamp: string };
  mistake: MistakeId | null;
  crypto: CryptoPort;
  clock: Clock;
  /** The key "sign with the wrong key" uses for RSA-SHA256 (a throwaway key nobody registered). */
  wrongPrivateKey?: CryptoKey;
  /** The merchant's other id (endpoint group id or endpoint id), for "sign with the other id". */
  otherId?: string;
}

/** The core's teaching input for what the page shows: one mistake at most. */
export function teachingInput(a: TeachingArgs): TeachInput {
  const other = a.otherId?.trim() ?? '';
  const { operation, params } = teachingRequest(a.op, a.scheme, a.values, a.profile.credentials.login);
  const ids =
    other === ''
      ? undefined
      : a.profile.endpoint.kind === 'group'
        ? { endpointId: other, endpointGroupId: a.profile.endpoint.id }
        : { endpointId: a.profile.endpoint.id, endpointGroupId: other };
  return {
    operation,
    baseUrl: a.profile.baseUrl,
    endpoint: a.profile.endpoint,
    params,
    credentials: a.profile.credentials,
    crypto: a.crypto,
    clock: a.clock,
    nonce: () => a.pinned.nonce,
    pinned: a.pinned,
    mistakes: a.mistake ? [a.mistake] : [],
    wrongKey: a.wrongPrivateKey ? { privateKey: a.wrongPrivateKey } : {},
    ...(ids ? { knownIds: ids } : {}),
  };
}

/** Runs the engine's teaching mode for the page's values. */
export function runTeaching(a: TeachingArgs): Promise<TeachResult> {
  return teach(teachingInput(a));
}

const ErrorBody = z.looseObject({
  type: z.string().optional(),
  'error-code': z.union([z.number(), z.string()]).optional(),
  'error-reason': z.string().optional(),
  'error-message': z.string().optional(),
  debug: z.unknown().optional(),
});

/** The sandbox's answer, parsed: accepted, or refused with its code, message and own signing input. */
export interface SandboxAnswer {
  status: number;
  accepted: boolean;
  /** The body matched the operation's response schema (200) or the error schema. */
  schemaOk: boolean;
  type?: string;
  errorCode?: string;
  errorMessage?: string;
  /** What the sandbox signed itself: the concatenation (key masked) or the base string. */
  sandboxSigningInput?: { kind: 'control' | 'oauth'; text: string; formula?: string; signingKey?: string };
  /** True when the refusal is about the signature (the catalog's rule, shared with the console's answer view). */
  signatureRefused: boolean;
  body: string;
}

export function readSandboxAnswer(op: Operation, status: number, body: string): SandboxAnswer {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { status, accepted: false, schemaOk: false, signatureRefused: false, body };
  }
  const parsed = ErrorBody.safeParse(json);
  const b = parsed.success ? parsed.data : {};
  const schemaOk =
    status === 200 || status === 400 || status >= 500
      ? parseResponse(op.response, status, json).result.success
      : RESPONSE_SCHEMAS.ServerErrorResponse.safeParse(json).success;
  const dbg = readSandboxDebug(json);
  const sandboxSigningInput =
    dbg?.kind === 'control'
      ? {
          kind: 'control' as const,
          text: dbg.debug['signing-input'],
          ...(dbg.debug.formula ? { formula: dbg.debug.formula } : {}),
        }
      : dbg?.kind === 'oauth'
        ? {
            kind: 'oauth' as const,
            text: dbg.debug['base-string'],
            ...(dbg.debug['signing-key'] ? { signingKey: dbg.debug['signing-key'] } : {}),
          }
        : undefined;
  const code = errorCodeLabel(b);
  return {
    status,
    accepted: status === 200,
    schemaOk,
    ...(b.type ? { type: b.type } : {}),
    ...(code ? { errorCode: code } : {}),
    ...(b['error-message'] ? { errorMessage: b['error-message'] } : {}),
    ...(sandboxSigningInput ? { sandboxSigningInput } : {}),
    signatureRefused: isSignatureRefusal(status, json),
    body,
  };
}
