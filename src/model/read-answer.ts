import { z } from 'zod/mini';
import { errorCodeLabel, type Operation } from '../catalog/index.ts';
import { parseResponse, type ResponseSchemaName } from '../catalog/responses.ts';
import { isSignatureRefusal, readSandboxDebug } from '../catalog/sandbox-debug.ts';

export type BadgeKind =
  | 'approved'
  | 'declined'
  | 'filtered'
  | 'processing'
  | 'unknown'
  | 'error'
  | 'validation-error'
  | 'forbidden'
  | 'redirect'
  | 'created'
  | 'ok'
  | 'unparsed';

/** A gateway answer as every screen reads it (the workbench, polling, flows, teaching, history). */
export interface AnswerReading {
  httpStatus: number;
  /** The body as it came. */
  body: string;
  json: unknown;
  isJson: boolean;
  /** Pretty-printed JSON, or the body as it came. */
  pretty: string;
  /** The schema the status and operation call for, and whether the body matched it. */
  schema: ResponseSchemaName;
  schemaOk: boolean;
  schemaIssues: string[];
  /** HTTP 200 with the operation's own answer. */
  accepted: boolean;
  badge: { kind: BadgeKind; label: string };
  type?: string;
  /** The transaction status (`approved`, `processing`…), when the answer has one. */
  status?: string;
  errorMessage?: string;
  errorCode?: string;
  /** Addresses to open in a new tab: a hosted form (`redirect-url`) or a 3DS step (`redirect-to`). */
  links: Array<{ label: string; url: string }>;
  /** The refusal is about the signature (the catalog's rule). */
  signatureRefused: boolean;
  /** What the local sandbox signed itself, from a refusal's `debug` (the key never in it). */
  sandboxSigningInput?: { kind: 'control' | 'oauth'; text: string; formula?: string; signingKey?: string };
}

// Loose on purpose: the gateway adds fields; a number where a string is expected is read as text.
const text = z.optional(z.union([z.string(), z.number()]));
const AnswerFieldsSchema = z.looseObject({
  type: text,
  status: text,
  'error-message': text,
  'error-code': text,
  'redirect-url': text,
  'redirect-to': text,
});

function nonEmpty(v: string | number | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : String(v);
}

function statusBadge(status: string): BadgeKind {
  if (
    status === 'approved' ||
    status === 'declined' ||
    status === 'filtered' ||
    status === 'processing' ||
    status === 'unknown' ||
    status === 'error'
  )
    return status;
  if (status === 'chain_declined') return 'declined';
  return 'unknown';
}

/**
 * The one reader of a gateway answer: the body parsed with the catalog's schema for its status
 * (the operation's answer on 200, `validation-error` on 400, `error` on other refusals), and what
 * the screens pick out of it.
 */
export function readAnswer(op: Pick<Operation, 'response'>, httpStatus: number, body: string): AnswerReading {
  let json: unknown;
  let isJson = false;
  try {
    json = JSON.parse(body);
    isJson = true;
  } catch {
    json = undefined;
  }
  const pretty = isJson ? JSON.stringify(json, null, 2) : body;
  const { schema, result } = parseResponse(op.response, httpStatus, json);
  const fields = AnswerFieldsSchema.safeParse(json);
  const f = fields.success ? fields.data : {};
  const type = nonEmpty(f.type);
  const status = nonEmpty(f.status);
  const errorMessage = nonEmpty(f['error-message']);
  const errorCode = errorCodeLabel(f);
  const links: AnswerReading['links'] = [];
  const redirectUrl = nonEmpty(f['redirect-url']);
  const redirectTo = nonEmpty(f['redirect-to']);
  if (redirectUrl && /^https?:\/\//i.test(redirectUrl))
    links.push({ label: 'Open the hosted form', url: redirectUrl });
  if (redirectTo && /^https?:\/\//i.test(redirectTo))
    links.push({ label: 'Open the 3-D Secure page', url: redirectTo });

  let kind: BadgeKind;
  let label: string;
  if (httpStatus === 403) [kind, label] = ['forbidden', 'forbidden'];
  else if (!isJson) [kind, label] = ['unparsed', `HTTP ${httpStatus}: not JSON`];
  else if (type === 'validation-error' || httpStatus === 400)
    [kind, label] = ['validation-error', 'validation error'];
  else if (type === 'error' || httpStatus >= 500) [kind, label] = ['error', 'error'];
  else if (!result.success) [kind, label] = ['unparsed', `not a ${schema}`];
  else if (status) [kind, label] = [statusBadge(status), status];
  else if (type === 'async-form-response') [kind, label] = ['redirect', 'redirect'];
  else if (type === 'create-card-ref-response') [kind, label] = ['created', 'card reference created'];
  else if (type === 'async-response') [kind, label] = ['processing', 'accepted: processing'];
  else [kind, label] = ['ok', type ?? 'ok'];

  const dbg = readSandboxDebug(json);
  const sandboxSigningInput: AnswerReading['sandboxSigningInput'] =
    dbg?.kind === 'control'
      ? {
          kind: 'control',
          text: dbg.debug['signing-input'],
          ...(dbg.debug.formula ? { formula: dbg.debug.formula } : {}),
        }
      : dbg?.kind === 'oauth'
        ? {
            kind: 'oauth',
            text: dbg.debug['base-string'],
            ...(dbg.debug['signing-key'] ? { signingKey: dbg.debug['signing-key'] } : {}),
          }
        : undefined;

  return {
    httpStatus,
    body,
    json,
    isJson,
    pretty,
    schema,
    schemaOk: result.success,
    schemaIssues: result.success
      ? []
      : result.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`),
    accepted: httpStatus === 200 && result.success,
    badge: { kind, label },
    ...(type ? { type } : {}),
    ...(status ? { status } : {}),
    ...(errorMessage ? { errorMessage } : {}),
    ...(errorCode ? { errorCode } : {}),
    links,
    signatureRefused: isSignatureRefusal(httpStatus, json),
    ...(sandboxSigningInput ? { sandboxSigningInput } : {}),
  };
}

/** A refusal in one sentence: the gateway's message and code, or its HTTP status. */
export function describeRefusal(answer: AnswerReading): string {
  const { errorMessage: message, errorCode: code } = answer;
  if (message) return `${message}${code && !message.includes(code) ? ` (${code})` : ''}`;
  return `The gateway answered HTTP ${answer.httpStatus}.`;
}
