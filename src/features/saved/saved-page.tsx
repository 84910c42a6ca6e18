import { lazy, Suspense, useId, useRef, useState } from 'react';
import type { RequestDraft, SigningRuntime } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { downloadText } from '../../browser/download.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { CollectionView } from './collection-view.tsx';
import { ForeignImportSession, type ImportWorkerPort } from './foreign-import-session.ts';
import type { ImportMessage } from './foreign-import-protocol.ts';
import { createCollection, deleteCollection, importCollections } from './saved-db.ts';
import { buildCollectionsFile, readCollectionsFile } from './saved-file.ts';
import { checkName, type Collection } from './saved-schema.ts';
import { useSaved } from './use-saved.ts';
import { isBrunoExport } from '../../exports/foreign-collections/foreign-format.ts';
import './saved.css';
import { errorText } from '../../core/errors.ts';
import { useStore } from '../../ui/use-store.ts';

export interface SavedPageProps {
  /** Opens a saved request's draft in the workbench (its id: Save then updates it). */
  onOpen: (draft: RequestDraft, savedId: string) => void;
  /**
   * Opens a saved request's draft in the workbench and sends it (the workbench's own checks and
   * confirmations apply; a value not kept with it must be filled in first).
   */
  onSend: (draft: RequestDraft, savedId: string) => void;
  /** The active profile and the runtime a collection run signs with. */
  context: SigningContext | null;
  runtime: SigningRuntime;
}

// The runner and the model's CollectionRun load only when a collection is run.
const RunnerView = lazy(() => import('./runner-view.tsx').then((m) => ({ default: m.RunnerView })));

const text = (e: unknown) => errorText(e);

/** Above this size a file is told by its first characters, not parsed whole on the page's thread. */
const SNIFF_ABOVE = 1_000_000;

/** The import worker (foreign-import-worker.ts) as the session's port. */
function spawnImportWorker(): ImportWorkerPort {
  const w = new Worker(new URL('./foreign-import-worker.ts', import.meta.url), { type: 'module' });
  return {
    post: (job) => w.postMessage(job),
    onMessage: (listener) => {
      w.onmessage = (e: MessageEvent<ImportMessage>) => listener(e.data);
      w.onerror = (e) => {
        e.preventDefault();
        listener({ type: 'failed', message: `The import stopped: ${e.message || 'its worker failed'}.` });
      };
    },
    terminate: () => w.terminate(),
  };
}

function newImportSession(): ForeignImportSession {
  return new ForeignImportSession({
    spawn: spawnImportWorker,
    newId: () => globalThis.crypto.randomUUID(),
    now: () => new Date().toISOString(),
  });
}

/** A Postman collection or an Insomnia export, told from the console's own file by its head. */
function isForeignCollection(content: string): boolean {
  if (content.length > SNIFF_ABOVE) {
    const head = content.slice(0, 65_536);
    return /"_type"\s*:\s*"export"/.test(head) || /getpostman|postman\.com/.test(head);
  }
  try {
    const head = JSON.parse(content) as Record<string, unknown> | null;
    if (!head || typeof head !== 'object') return false;
    const info = head.info as Record<string, unknown> | undefined;
    return (
      (head._type === 'export' && 'resources' in head) ||
      (typeof info?.schema === 'string' && /getpostman|postman\.com/.test(info.schema)) ||
      isBrunoExport(head)
    );
  } catch {
    return false;
  }
}

/** Saved requests, grouped in collections: open, send, rename, duplicate, delete; export and import. */
export function SavedPage({ onOpen, onSend, context, runtime }: SavedPageProps) {
  const id = useId();
  /** The collection open in the runner, if any. */
  const [running, setRunning] = useState<string | null>(null);
  const { state, error: loadError } = useSaved();
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newCollection, setNewCollection] = useState('');
  const [deleting, setDeleting] = useState<Collection | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [importer] = useState(newImportSession);
  const imported = useStore(importer);
  /** Whether the page shows the foreign import's outcome (until the next action). */
  const [showImport, setShowImport] = useState(false);
  const importing = imported.phase === 'reading' || imported.phase === 'saving';
  const skipped = showImport && imported.phase === 'done' ? imported.skipped : [];

  const act = (what: Promise<unknown>, done?: string) => {
    setShowImport(false);
    setError(null);
    what.then(
      () => setStatus(done ?? null),
      (e: unknown) => setError(text(e)),
    );
  };

  const collections = state?.collections ?? [];
  const requests = state?.requests ?? [];

  const exportAll = () => {
    const file = buildCollectionsFile(collections, requests, new Date().toISOString());
    downloadText('pay-console-collections.json', `${JSON.stringify(file, null, 2)}\n`, 'application/json');
    setStatus(`Exported ${collections.length} collection${collections.length === 1 ? '' : 's'}.`);
  };

  const importFiles = async (files: File[]) => {
    setError(null);
    setStatus(null);
    setShowImport(false);
    const file = files[0]!;
    try {
      if (files.some((f) => /\.bru$/i.test(f.name))) {
        // A Bruno collection's folder: its .bru files (and bruno.json), read together in the worker.
        const read = await Promise.all(
          files.map(async (f) => ({ name: f.webkitRelativePath || f.name, text: await f.text() })),
        );
        setShowImport(true);
        importer.start(files.length === 1 ? file.name : `${files.length} Bruno files`, '', read);
        return;
      }
      const content = await file.text();
      if (!isForeignCollection(content)) {
        const parsed = readCollectionsFile(content);
        const n = await importCollections(parsed);
        setStatus(
          `Imported ${n.collections} collection${n.collections === 1 ? '' : 's'} with ${n.requests} request${n.requests === 1 ? '' : 's'} from ${file.name}.`,
        );
        return;
      }
      // The Postman, Insomnia and Bruno reader runs in a worker (it loads only for such a file).
      setShowImport(true);
      importer.start(file.name, content);
    } catch (e) {
      setError(`${file.name} was not imported. ${text(e)}`);
    }
  };

  return (
    <section className="sv-page" aria-labelledby={`${id}-title`}>
      <header>
        <h1 id={`${id}-title`}>Saved requests</h1>
        <p className="sv-note">
          Named requests in collections, kept in this browser only. A saved request holds its values, scheme,
          formula, endpoint and pinned nonce and timestamp; never the control key or private key, and never
          card numbers or CVVs (fill them in when you send).
        </p>
        <div className="sv-toolbar">
          <form
            className="sv-inline"
            onSubmit={(e) => {
              e.preventDefault();
              const n = checkName(newCollection);
              if ('error' in n) return setError(`Collection: ${n.error}`);
              act(createCollection(n.name), `Created the collection ${n.name}.`);
              setNewCollection('');
            }}
          >
            <label htmlFor={`${id}-new`}>New collection</label>
            <input
              id={`${id}-new`}
              value={newCollection}
              onChange={(e) => setNewCollection(e.target.value)}
            />
            <button type="submit" className="ui-btn ui-btn-small">
              Create collection
            </button>
          </form>
          <button
            type="button"
            className="ui-btn ui-btn-small"
            disabled={collections.length === 0}
            onClick={exportAll}
          >
            Export collections
          </button>
          <button type="button" className="ui-btn ui-btn-small" onClick={() => fileRef.current?.click()}>
            Import collections
          </button>
          <input
            ref={fileRef}
            type="file"
            accept="application/json,.json,.bru"
            multiple
            aria-label="Collections file to import"
            title="A collections file exported here, a Postman collection (v2.1), an Insomnia export (JSON), a Bruno collection (JSON) or a Bruno folder’s .bru files"
            hidden
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = '';
              if (files.length > 0) void importFiles(files);
            }}
          />
        </div>
        <p role="status" className="sv-note">
          {!state
            ? 'Loading…'
            : showImport && imported.phase !== 'failed'
              ? imported.message
              : (status ?? '')}
        </p>
        {showImport && importing ? (
          <div className="sv-inline">
            <progress
              aria-label="Import progress"
              max={imported.total || 1}
              value={imported.done}
              className="sv-progress"
            />
            <button type="button" className="ui-btn ui-btn-small" onClick={() => importer.cancel()}>
              Cancel import
            </button>
          </div>
        ) : null}
        {skipped.length > 0 ? (
          <ul className="sv-note" aria-label="Skipped requests">
            {skipped.map((r, i) => (
              <li key={i}>
                {r.name}: {r.reason}
              </li>
            ))}
          </ul>
        ) : null}
        {error || loadError || (showImport && imported.phase === 'failed') ? (
          <p role="alert" className="sv-error">
            {(showImport && imported.phase === 'failed' ? imported.message : error) ??
              `Saved requests cannot be read: ${loadError}. Reload the page; the browser may block IndexedDB.`}
          </p>
        ) : null}
        {(state?.unreadable ?? 0) > 0 ? (
          <p className="sv-note">
            {state!.unreadable} stored records are in an unknown format and are not shown.
          </p>
        ) : null}
      </header>
      {state && collections.length === 0 ? (
        <p className="sv-note">
          Nothing saved yet. Use “Save request” above an operation’s form, or import a collections file.
        </p>
      ) : null}
      {running && collections.some((c) => c.id === running) ? (
        <Suspense fallback={<p className="sv-note">Loading the runner…</p>}>
          <RunnerView
            key={running}
            collection={collections.find((c) => c.id === running)!}
            requests={requests
              .filter((r) => r.collectionId === running)
              // The file's order (names are the table's order); requests saved here come last.
              .sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity))}
            context={context}
            runtime={runtime}
            onClose={() => setRunning(null)}
          />
        </Suspense>
      ) : null}
      {collections.map((c) => (
        <CollectionView
          key={c.id}
          collection={c}
          requests={requests.filter((r) => r.collectionId === c.id)}
          all={requests}
          collectionNames={collections.filter((o) => o.id !== c.id).map((o) => o.name)}
          renaming={renaming}
          setRenaming={setRenaming}
          act={act}
          onOpen={onOpen}
          onSend={onSend}
          onDelete={() => setDeleting(c)}
          onRun={() => setRunning(c.id)}
        />
      ))}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete the collection?"
        confirmLabel="Delete collection"
        onConfirm={() => {
          if (deleting) act(deleteCollection(deleting.id), `Deleted the collection ${deleting.name}.`);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>
          <strong>{deleting?.name}</strong> and its{' '}
          {requests.filter((r) => r.collectionId === deleting?.id).length} saved requests will be deleted from
          this browser. Export the collections first to keep a copy.
        </p>
      </ConfirmDialog>
    </section>
  );
}
