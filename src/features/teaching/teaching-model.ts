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
  exampleValues,
  isSignatureRefusal,
  parseResponse,
  readSandboxDebug,
  RESPONSE_SCHEMAS,
  type Operation,
} from '../../catalog/index.ts';

export { OTHER_MERCHANT_CONTROL_KEY };

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

/** The schemes an operation can be signed with (the sources disagree for a few). */
export function schemesOf(op: Operation): Scheme[] {
  return [op.scheme, ...(op.schemeAlternatives ?? [])];
}

/** The teaching switches that act on a scheme, in the catalogue's order. */
export function switchesFor(scheme: Scheme): Mistake[] {
  return TEACHING_SWITCHES.filter((m) => m.schemes.includes(scheme));
}

export function signingSpec(op: Operation, scheme: Scheme): OperationSigningSpec {
  return { path: op.path, scheme, ...(op.formula ? { formula: op.formula } : {}) };
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

/** The catalog's example values, with a fresh order id and an expiry in the future. */
export function testValues(op: Operation, now: number): Record<string, string> {
  const values = exampleValues(op);
  for (const f of op.fields) {
    if (ORDER_ID_FIELDS.has(f.name)) values[f.name] = freshOrderId(now);
    else if (YEAR_FIELDS.has(f.name)) values[f.name] = String(new Date(now).getUTCFullYear() + 3);
  }
  return values;
}

/** The order id field of an operation, when it has one. */
export function orderIdField(op: Operation): string | undefined {
  return op.fields.find((f) => ORDER_ID_FIELDS.has(f.name))?.name;
}

/** The form values as the core's input parameters: fields in catalogue order, then any others. */
export function inputParams(op: Operation, values: Record<string, string>, login: string): InputParam[] {
  const known = new Set(op.fields.map((f) => f.name));
  const params: InputParam[] = op.fields.map((f) => {
    const v = values[f.name] ?? '';
    return f.fromProfile === 'login'
      ? { name: f.name, value: v === '' ? login : v, source: 'profile' }
      : { name: f.name, value: v, source: 'form' };
  });
  for (const [name, value] of Object.entries(values))
    if (!known.has(name) && name !== 'control') params.push({ name, value, source: 'extra' });
  return params;
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
  const ids =
    other === ''
      ? undefined
      : a.profile.endpoint.kind === 'group'
        ? { endpointId: other, endpointGroupId: a.profile.endpoint.id }
        : { endpointId: a.profile.endpoint.id, endpointGroupId: other };
  return {
    operation: signingSpec(a.op, a.scheme),
    baseUrl: a.profile.baseUrl,
    endpoint: a.profile.endpoint,
    params: inputParams(a.op, a.values, a.profile.credentials.login),
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
  'error-code': z.string().optional(),
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
  const code = b['error-code'];
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
