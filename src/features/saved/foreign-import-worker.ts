/// <reference lib="webworker" />
// Reads a Postman, Insomnia or Bruno file off the page's thread: 100,000 requests take seconds to parse,
// identify and mask, which on the page froze it (issue 27). The page gets progress and the saved
// requests in chunks, each one short task to receive.
import {
  importBruFiles,
  importForeignCollection,
} from '../../exports/foreign-collections/import-foreign-collection.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import { IMPORT_CHUNK, type ImportJob, type ImportMessage } from './foreign-import-protocol.ts';
import { SavedRequestSchema, type SavedRequest } from './saved-schema.ts';
import { errorText } from '../../core/errors.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: ImportMessage) => self.postMessage(m);
/** A saved name: at most 200 characters, never empty. */
const clip = (name: string, fallback: string) => name.trim().slice(0, 200).trim() || fallback;

self.addEventListener('message', (event: MessageEvent<ImportJob>) => {
  const { text, files, collectionId, at } = event.data;
  try {
    const onProgress = (done: number, total: number) => post({ type: 'progress', done, total });
    const c = files ? importBruFiles(files, { onProgress }) : importForeignCollection(text, { onProgress });
    const total = c.requests.length;
    let chunk: SavedRequest[] = [];
    for (const [i, r] of c.requests.entries()) {
      chunk.push(
        SavedRequestSchema.parse({
          version: 1,
          id: crypto.randomUUID(),
          collectionId,
          name: clip(r.name, 'Unnamed request'),
          draft: maskDraft(r.draft),
          ...(r.set ? { checks: { set: r.set } } : {}),
          seq: i,
          savedAt: at,
          updatedAt: at,
        }),
      );
      if (chunk.length === IMPORT_CHUNK || i === total - 1) {
        post({ type: 'chunk', requests: chunk });
        chunk = [];
      }
    }
    post({
      type: 'done',
      format: c.format,
      name: clip(c.name, 'Imported requests'),
      total,
      skipped: c.skipped,
      variables: c.variables,
    });
  } catch (e) {
    post({ type: 'failed', message: errorText(e) });
  }
});
