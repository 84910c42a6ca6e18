/// <reference lib="webworker" />
// Reads a Postman, Insomnia or Bruno file and saves it, both off the page's thread: 100,000 requests take
// seconds to parse, identify, mask and write, which on the page froze it (issue 27). The page gets
// progress only; the saved list hears the change over the saved store's BroadcastChannel.
import {
  importBruFiles,
  importForeignCollection,
} from '../../exports/foreign-collections/import-foreign-collection.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import type { ImportJob, ImportMessage } from './foreign-import-protocol.ts';
import { importPrepared } from './saved-db.ts';
import { SavedRequestSchema } from './saved-schema.ts';
import { errorText } from '../../core/errors.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: ImportMessage) => self.postMessage(m);
/** A saved name: at most 200 characters, never empty. */
const clip = (name: string, fallback: string) => name.trim().slice(0, 200).trim() || fallback;

async function run({ text, files, collectionId, at }: ImportJob): Promise<void> {
  const onProgress = (done: number, total: number) => post({ type: 'progress', done, total });
  const c = files ? importBruFiles(files, { onProgress }) : importForeignCollection(text, { onProgress });
  const requests = c.requests.map((r, i) =>
    SavedRequestSchema.parse({
      version: 1,
      id: crypto.randomUUID(),
      collectionId,
      name: clip(r.name, 'Unnamed request'),
      draft: maskDraft(r.draft),
      ...(r.set ? { checks: { set: r.set } } : {}),
      // The file's order, which a collection run follows (the list sorts by name).
      seq: i,
      savedAt: at,
      updatedAt: at,
    }),
  );
  const total = requests.length;
  post({ type: 'saving', done: 0, total });
  // Cancel terminates this worker: its open transaction is aborted with it, nothing kept.
  const saved = await importPrepared(
    clip(c.name, 'Imported requests'),
    collectionId,
    requests,
    c.variables,
    (done) => post({ type: 'saving', done, total }),
  );
  post({ type: 'done', format: c.format, name: saved.name, requests: saved.requests, skipped: c.skipped });
}

self.addEventListener('message', (event: MessageEvent<ImportJob>) => {
  run(event.data).catch((e: unknown) => post({ type: 'failed', message: errorText(e) }));
});
