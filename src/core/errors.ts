/**
 * Typed errors of the signing core. Each has a stable `code` the UI and CLI map to advice,
 * and a message that already says what to do.
 */
export type PayErrorCode =
  | 'AMOUNT_EMPTY'
  | 'AMOUNT_FORMAT'
  | 'AMOUNT_NEGATIVE'
  | 'AMOUNT_PRECISION'
  | 'AMOUNT_EXPONENT'
  | 'AMOUNT_SEPARATOR'
  | 'CONTROL_KEY_MISSING'
  | 'PRIVATE_KEY_MISSING'
  | 'LOGIN_MISSING'
  | 'ENDPOINT_INVALID'
  | 'BASE_URL_INVALID'
  | 'KEY_EMPTY'
  | 'KEY_GARBAGE'
  | 'KEY_MALFORMED'
  | 'KEY_ENCRYPTED'
  | 'KEY_NOT_RSA'
  | 'KEY_TOO_SHORT'
  | 'KEY_TOO_LONG'
  | 'KEY_NOT_PRIVATE'
  | 'KEY_NOT_PUBLIC'
  | 'KEY_SIZE_UNSUPPORTED'
  | 'HTTP_PARSE'
  | 'OPERATION_UNKNOWN'
  | 'AUTHORIZATION_PARSE'
  | 'SIGNATURE_ENCODING';

export class PayError extends Error {
  override readonly name = 'PayError';
  readonly code: PayErrorCode;
  /** Which input the error is about (a field name, `privateKey`, `amount`...), when there is one. */
  readonly field: string | undefined;

  constructor(code: PayErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options.field;
  }
}

export function isPayError(e: unknown): e is PayError {
  return e instanceof PayError;
}
