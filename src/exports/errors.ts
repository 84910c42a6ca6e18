/** Stable codes of the export and import errors; the UI maps them to advice. */
export type ExportErrorCode =
  | 'SNIPPET_INPUT'
  | 'SNIPPET_LANGUAGE'
  | 'OPENAPI_INPUT'
  | 'POSTMAN_INPUT'
  | 'SHARE_LINK_DAMAGED'
  | 'SHARE_LINK_VERSION'
  | 'SHARE_LINK_OPERATION'
  | 'IMPORT_UNREADABLE'
  | 'IMPORT_OPERATION';

/** An export or import that cannot be made; the message already says what to do. */
export class ExportError extends Error {
  override readonly name = 'ExportError';
  readonly code: ExportErrorCode;

  constructor(code: ExportErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

export function isExportError(e: unknown): e is ExportError {
  return e instanceof ExportError;
}
