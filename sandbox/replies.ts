/** The media type of every operation's answer (api-description.md, Endpoints). */
export const PAY_JSON = 'application/vnd.pay+json';

/** An answer of an operation: HTTP status and a body with the gateway's hyphenated keys. */
export interface ApiReply {
  code: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Error codes the sandbox puts in `error-code` (documented in sandbox/README.md). */
export type SandboxErrorCode =
  | 'ACCEPT_REQUIRED'
  | 'METHOD_NOT_ALLOWED'
  | 'UNKNOWN_OPERATION'
  | 'ENDPOINT_INVALID'
  | 'ENDPOINT_UNKNOWN'
  | 'CONTENT_TYPE'
  | 'BODY_INVALID'
  | 'BODY_TOO_LARGE'
  | 'HOST_INVALID'
  | 'VALIDATION'
  | 'LOGIN_MISMATCH'
  | 'INVALID_CONTROL_CODE'
  | 'OAUTH_HEADER'
  | 'OAUTH_SIGNATURE_METHOD'
  | 'OAUTH_CONSUMER_KEY'
  | 'OAUTH_TIMESTAMP'
  | 'OAUTH_NONCE_REUSED'
  | 'INVALID_SIGNATURE'
  | 'CLIENT_ORDERID_USED'
  | 'ORDER_NOT_FOUND'
  | 'ORDER_MISMATCH'
  | 'STATE'
  | 'CALLBACK_URL_REFUSED'
  | 'CARD_REF_NOT_FOUND'
  | 'THREE_DS_ORDER'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'INTERNAL';

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
