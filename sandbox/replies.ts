import { numericErrorCode, type ErrorReason } from '../src/catalog/error-codes.ts';

/** The media type of every operation's answer (api-description.md, Endpoints). */
export const PAY_JSON = 'application/vnd.pay+json';

/**
 * The content type of the gateway's default answer format, sent when the request has no
 * `Accept: application/vnd.pay+json` (gateway-notes.md, "The gateway's default dialect").
 */
export const GATEWAY_FORM_TYPE = 'text/html;charset=utf-8';

/**
 * How an answer is written: `json` as the description has it, `gateway` in the gateway's default
 * form-encoded format for clients that send no JSON `Accept`.
 */
export type Dialect = 'json' | 'gateway';

/** What a request without the JSON `Accept` gets: the gateway's answer, or the description's 400. */
export type AcceptMode = 'gateway' | 'strict';

/** An answer of an operation: HTTP status and a body with the gateway's hyphenated keys. */
export interface ApiReply {
  code: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Error codes the sandbox puts in `error-code`: the reasons of the catalog's one table
 * (src/catalog/error-codes.ts), which also gives each its number for the gateway's default dialect.
 */
export type SandboxErrorCode = ErrorReason;

/** 400 `validation-error`: the message names the field and says what to do. */
export function validationError(
  message: string,
  code: SandboxErrorCode = 'VALIDATION',
  extra: Record<string, unknown> = {},
): ApiReply {
  return {
    code: 400,
    body: { type: 'validation-error', 'error-message': message, 'error-code': code, ...extra },
  };
}

/** 403 `error`: a refused OAuth signature (gateway-notes.md: a bad OAuth signature is answered 403). */
export function forbidden(
  message: string,
  code: SandboxErrorCode,
  extra: Record<string, unknown> = {},
): ApiReply {
  return { code: 403, body: { type: 'error', 'error-message': message, 'error-code': code, ...extra } };
}

export function errorReply(
  code: number,
  message: string,
  errorCode: SandboxErrorCode,
  extra: Record<string, unknown> = {},
): ApiReply {
  return {
    code,
    body: {
      type: code === 400 ? 'validation-error' : 'error',
      'error-message': message,
      'error-code': errorCode,
      ...extra,
    },
  };
}

/** Raised inside an operation to answer a validation error from deep in the business rules. */
export class RuleError extends Error {
  readonly reply: ApiReply;
  constructor(reply: ApiReply) {
    super(String(reply.body['error-message']));
    this.reply = reply;
  }
}

export function refuse(message: string, code: SandboxErrorCode = 'STATE'): never {
  throw new RuleError(validationError(message, code));
}

/** One value of the gateway's form encoding: `application/x-www-form-urlencoded`, space as `+`. */
function formValue(text: string): string {
  return encodeURIComponent(text.toWellFormed())
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * A body with its `error-code` as the gateway sends it: a symbolic reason becomes its number from
 * the catalog's one table (src/catalog/error-codes.ts), the name kept beside it as `error-reason`.
 * Every answer of the sandbox goes through it, JSON or not (gateway-notes.md: "With the JSON
 * `Accept`, a refusal there comes back as 4xx with `error-message` and a numeric `error-code`").
 */
export function withNumericErrorCode(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const code = body['error-code'];
  if (typeof code !== 'string' || /^\d+$/.test(code)) return body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'error-code') {
      out[key] = numericErrorCode(code);
      out['error-reason'] = code;
    } else if (key !== 'error-reason') out[key] = value;
  }
  return out;
}

/** A JSON answer's bytes: the body with its numeric `error-code` ({@link withNumericErrorCode}). */
export function encodeJsonBody(body: Readonly<Record<string, unknown>>): Buffer {
  return Buffer.from(JSON.stringify(withNumericErrorCode(body)));
}

/**
 * A body in the gateway's default answer format: `key=value` pairs, each value form-encoded and
 * followed by a line feed (0x0A), joined by `&`, with the numeric `error-code`
 * ({@link withNumericErrorCode}). A value that is not text (the `debug` of a refused signature) is
 * written as JSON text.
 */
export function encodeGatewayForm(body: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(withNumericErrorCode(body))) {
    if (value === undefined || value === null) continue;
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    parts.push(`${formValue(key)}=${formValue(text)}\n`);
  }
  return parts.join('&');
}

/**
 * The HTTP status of an answer in a dialect. The gateway's default format answers its
 * `validation-error` and `error` bodies with 200 (its clients take any other status for a transport
 * failure), except a refused OAuth signature, which stays 403; what never reaches an operation
 * (no such path 404, another method 405, too slow 408, too large 413) keeps its status.
 */
export function dialectStatus(code: number, dialect: Dialect): number {
  if (dialect === 'json') return code;
  return code === 400 || code >= 500 ? 200 : code;
}

/** An answer as it goes on the wire: status, content type and bytes. */
export interface EncodedReply {
  status: number;
  contentType: string;
  body: Buffer;
}

/** Writes an answer in a dialect: the one encoder every sandbox answer goes through. */
export function encodeReply(r: ApiReply, dialect: Dialect): EncodedReply {
  return dialect === 'json'
    ? { status: r.code, contentType: PAY_JSON, body: encodeJsonBody(r.body) }
    : {
        status: dialectStatus(r.code, dialect),
        contentType: GATEWAY_FORM_TYPE,
        body: Buffer.from(encodeGatewayForm(r.body)),
      };
}

/** A client's text cut to `max` characters for an answer that quotes it. */
export function shorten(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
