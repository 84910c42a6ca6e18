import { CodedError } from '../core/errors.ts';

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
export class ExportError extends CodedError<ExportErrorCode> {
  override readonly name = 'ExportError';
}

export function isExportError(e: unknown): e is ExportError {
  return e instanceof ExportError;
}
