/** Stable codes of the request model's errors; the UI and CLI show the message, which says what to do. */
export type DraftErrorCode =
  | 'DRAFT_OPERATION'
  | 'DRAFT_INVALID'
  | 'SHARE_LINK_DAMAGED'
  | 'SHARE_LINK_VERSION'
  | 'SHARE_LINK_OPERATION'
  | 'IMPORT_OPERATION'
  | 'IMPORT_UNREADABLE';

export class DraftError extends Error {
  override readonly name = 'DraftError';
  readonly code: DraftErrorCode;

  constructor(code: DraftErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

export function isDraftError(e: unknown): e is DraftError {
  return e instanceof DraftError;
}
