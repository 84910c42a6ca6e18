import { isPayError } from '../core/index.ts';
import { parseCapture, type CaptureFormat } from '../capture/index.ts';
import { draftFromCapture, type DraftFromCaptureOptions, type ImportedDraft } from '../model/import-draft.ts';
import { ExportError } from './errors.ts';

/** A draft read from a captured request, with the capture's format. */
export interface ImportedCapture extends ImportedDraft {
  format: CaptureFormat;
}

/**
 * Opens a captured request (curl, raw HTTP, HAR, a log line: whatever `parseCapture` reads) as a
 * draft of the request model: see {@link draftFromCapture} (an OAuth capture keeps its nonce and
 * timestamp pinned, so the console reproduces its signature).
 * @throws ExportError IMPORT_UNREADABLE when the text is no request; DraftError IMPORT_OPERATION
 *   when its path is no operation of the catalog.
 */
export function importCapture(text: string, options: DraftFromCaptureOptions = {}): ImportedCapture {
  let parsed: ReturnType<typeof parseCapture>;
  try {
    parsed = parseCapture(text);
  } catch (e) {
    if (isPayError(e)) throw new ExportError('IMPORT_UNREADABLE', e.message, { cause: e });
    throw e;
  }
  const imported = draftFromCapture(parsed.request, options);
  return { ...imported, notes: [...parsed.notes, ...imported.notes], format: parsed.format };
}
