import type { ImportJob, ImportMessage } from './foreign-import-protocol.ts';
import type { SavedRequest } from './saved-schema.ts';
import { FORMAT_WORDS } from '../../exports/foreign-collections/foreign-format.ts';
import { errorText } from '../../core/errors.ts';

/** The import worker as the session sees it (a Web Worker in the page, a fake in the spec). */
export interface ImportWorkerPort {
  post(job: ImportJob): void;
  onMessage(listener: (m: ImportMessage) => void): void;
  terminate(): void;
}

export interface ForeignImportPorts {
  spawn(): ImportWorkerPort;
  /** Saves the collection and its requests in one transaction (aborted by `signal`: nothing kept). */
  save(
    name: string,
    collectionId: string,
    requests: readonly SavedRequest[],
    variables: Readonly<Record<string, string>>,
    onProgress: (done: number) => void,
    signal: AbortSignal,
  ): Promise<{ requests: number }>;
  newId(): string;
  now(): string;
}

export interface ForeignImportSnapshot {
  phase: 'idle' | 'reading' | 'saving' | 'done' | 'failed' | 'cancelled';
  fileName: string;
  done: number;
  total: number;
  /** What the page says: the progress, the outcome, or why nothing was imported. */
  message: string;
  skipped: Array<{ name: string; reason: string }>;
}

const IDLE: ForeignImportSnapshot = {
  phase: 'idle',
  fileName: '',
  done: 0,
  total: 0,
  message: '',
  skipped: [],
};
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Imports a Postman, Insomnia or Bruno file off the page's thread: the worker reads it into saved
 * requests, sent in chunks; once all have come they are saved in one transaction, a chunk per
 * task. Progress is told throughout, and Cancel stops either step with nothing kept.
 */
export class ForeignImportSession {
  private snapshot = IDLE;
  private readonly listeners = new Set<() => void>();
  private worker: ImportWorkerPort | undefined;
  private saving: AbortController | undefined;
  /** Bumped per start and cancel: messages of an earlier import are ignored. */
  private run = 0;

  constructor(private readonly ports: ForeignImportPorts) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ForeignImportSnapshot => this.snapshot;

  get busy(): boolean {
    return this.snapshot.phase === 'reading' || this.snapshot.phase === 'saving';
  }

  start(fileName: string, text: string, files?: Array<{ name: string; text: string }>): void {
    this.stop();
    const run = ++this.run;
    const collectionId = this.ports.newId();
    const requests: SavedRequest[] = [];
    this.set({ ...IDLE, phase: 'reading', fileName, message: `Reading ${fileName}…` });
    const worker = this.ports.spawn();
    this.worker = worker;
    worker.onMessage((m) => {
      if (run !== this.run) return;
      if (m.type === 'progress')
        this.set({
          ...this.snapshot,
          done: m.done,
          total: m.total,
          message: `Reading ${fileName}: ${count(m.done)} of ${count(m.total)} requests…`,
        });
      else if (m.type === 'chunk') requests.push(...m.requests);
      else if (m.type === 'failed') {
        this.stop();
        this.set({
          ...IDLE,
          phase: 'failed',
          fileName,
          message: `${fileName} was not imported. ${m.message}`,
        });
      } else {
        this.stop();
        void this.save(run, fileName, collectionId, requests, m);
      }
    });
    worker.post({ text, ...(files ? { files } : {}), collectionId, at: this.ports.now() });
  }

  /** Stops the import under way; nothing of it is kept. */
  cancel(): void {
    if (!this.busy) return;
    const { fileName } = this.snapshot;
    this.run++;
    this.stop();
    this.set({
      ...IDLE,
      phase: 'cancelled',
      fileName,
      message: `Import of ${fileName} cancelled: nothing was imported.`,
    });
  }

  private async save(
    run: number,
    fileName: string,
    collectionId: string,
    requests: SavedRequest[],
    read: Extract<ImportMessage, { type: 'done' }>,
  ): Promise<void> {
    const total = requests.length;
    this.set({
      ...this.snapshot,
      phase: 'saving',
      done: 0,
      total,
      message: `Saving ${count(total)} requests…`,
    });
    const abort = new AbortController();
    this.saving = abort;
    try {
      const n = await this.ports.save(
        read.name,
        collectionId,
        requests,
        read.variables,
        (done) => {
          if (run === this.run)
            this.set({
              ...this.snapshot,
              done,
              message: `Saving ${count(done)} of ${count(total)} requests…`,
            });
        },
        abort.signal,
      );
      if (run !== this.run) return;
      const what = FORMAT_WORDS[read.format];
      this.set({
        phase: 'done',
        fileName,
        done: total,
        total,
        skipped: read.skipped,
        message: `Imported ${n.requests} request${n.requests === 1 ? '' : 's'} of the ${what} “${read.name}” from ${fileName} into a new collection${
          read.skipped.length > 0 ? `; skipped ${read.skipped.length}, each listed below with why` : ''
        }.`,
      });
    } catch (e) {
      if (run !== this.run) return;
      this.set({
        ...IDLE,
        phase: 'failed',
        fileName,
        message: `${fileName} was not imported. ${errorText(e)}`,
      });
    } finally {
      if (this.saving === abort) this.saving = undefined;
    }
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.saving?.abort();
    this.saving = undefined;
  }

  private set(next: ForeignImportSnapshot): void {
    this.snapshot = next;
    for (const l of this.listeners) l();
  }
}
