import { CodedError } from '../core/errors.ts';

/** Stable codes of the request model's errors; the UI and CLI show the message, which says what to do. */
export type DraftErrorCode =
  | 'DRAFT_OPERATION'
  | 'DRAFT_INVALID'
  | 'DRAFT_MISSING_VALUES'
  | 'DRAFT_UNRESOLVED_VARIABLES'
  | 'SHARE_LINK_DAMAGED'
  | 'SHARE_LINK_VERSION'
  | 'SHARE_LINK_OPERATION'
  | 'IMPORT_OPERATION'
  | 'IMPORT_UNREADABLE';

/** A draft that cannot be read, built or imported; the message already says what to do. */
export class DraftError extends CodedError<DraftErrorCode> {
  override readonly name = 'DraftError';
}

export function isDraftError(e: unknown): e is DraftError {
  return e instanceof DraftError;
}
