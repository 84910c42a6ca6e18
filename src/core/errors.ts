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
  | 'ENDPOINT_MISSING'
  | 'ENDPOINT_OUT_OF_RANGE'
  | 'BASE_URL_INVALID'
  | 'KEY_EMPTY'
  | 'KEY_GARBAGE'
  | 'KEY_MALFORMED'
  | 'KEY_ENCRYPTED'
  | 'KEY_NOT_ENCRYPTED'
  | 'KEY_PASSPHRASE_MISSING'
  | 'KEY_PASSPHRASE_WRONG'
  | 'KEY_ENCRYPTION_UNSUPPORTED'
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

/** An error with a stable code from `C`, whose message already says what to do. */
export class CodedError<C extends string> extends Error {
  readonly code: C;

  constructor(code: C, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

export class PayError extends CodedError<PayErrorCode> {
  override readonly name = 'PayError';
  /** Which input the error is about (a field name, `privateKey`, `amount`...), when there is one. */
  readonly field: string | undefined;

  constructor(code: PayErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(code, message, options);
    this.field = options.field;
  }
}

export function isPayError(e: unknown): e is PayError {
  return e instanceof PayError;
}

/** The message of anything thrown: an Error's own, anything else as text. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Anything thrown, as an Error (a thrown string or object becomes its message). */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
