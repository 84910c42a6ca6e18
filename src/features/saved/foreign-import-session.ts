import type { ImportJob, ImportMessage } from './foreign-import-protocol.ts';
import { FORMAT_WORDS } from '../../exports/foreign-collections/foreign-format.ts';
import { Store } from '../../core/store.ts';

/** The import worker as the session sees it (a Web Worker in the page, a fake in the spec). */
export interface ImportWorkerPort {
  post(job: ImportJob): void;
  onMessage(listener: (m: ImportMessage) => void): void;
  terminate(): void;
}

export interface ForeignImportPorts {
  spawn(): ImportWorkerPort;
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
 * requests and saves them in one transaction. Progress is told throughout, and Cancel stops
 * either step with nothing kept (the worker is terminated, its transaction aborted with it).
 */
export class ForeignImportSession extends Store<ForeignImportSnapshot> {
  protected snap: ForeignImportSnapshot = IDLE;
  private worker: ImportWorkerPort | undefined;
  /** Bumped per start and cancel: messages of an earlier import are ignored. */
  private run = 0;

  constructor(private readonly ports: ForeignImportPorts) {
    super();
  }

  get busy(): boolean {
    return this.snap.phase === 'reading' || this.snap.phase === 'saving';
  }

  start(fileName: string, text: string, files?: Array<{ name: string; text: string }>): void {
    this.stop();
    const run = ++this.run;
    this.set({ ...IDLE, phase: 'reading', fileName, message: `Reading ${fileName}…` });
    const worker = this.ports.spawn();
    this.worker = worker;
    worker.onMessage((m) => {
      if (run === this.run) this.hear(fileName, m);
    });
    worker.post({
      text,
      ...(files ? { files } : {}),
      collectionId: this.ports.newId(),
      at: this.ports.now(),
    });
  }

  /** Stops the import under way; nothing of it is kept. */
  cancel(): void {
    if (!this.busy) return;
    const { fileName } = this.snap;
    this.run++;
    this.stop();
    this.set({
      ...IDLE,
      phase: 'cancelled',
      fileName,
      message: `Import of ${fileName} cancelled: nothing was imported.`,
    });
  }

  private hear(fileName: string, m: ImportMessage): void {
    if (m.type === 'progress' || m.type === 'saving') {
      const reading = m.type === 'progress';
      this.set({
        ...this.snap,
        phase: reading ? 'reading' : 'saving',
        done: m.done,
        total: m.total,
        message: reading
          ? `Reading ${fileName}: ${count(m.done)} of ${count(m.total)} requests…`
          : `Saving ${count(m.done)} of ${count(m.total)} requests…`,
      });
      return;
    }
    this.stop();
    if (m.type === 'failed') {
      this.set({ ...IDLE, phase: 'failed', fileName, message: `${fileName} was not imported. ${m.message}` });
      return;
    }
    const what = FORMAT_WORDS[m.format];
    this.set({
      phase: 'done',
      fileName,
      done: m.requests,
      total: m.requests,
      skipped: m.skipped,
      message: `Imported ${m.requests} request${m.requests === 1 ? '' : 's'} of the ${what} “${m.name}” from ${fileName} into a new collection${
        m.skipped.length > 0 ? `; skipped ${m.skipped.length}, each listed below with why` : ''
      }.`,
    });
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  private set(next: ForeignImportSnapshot): void {
    this.publish(next);
  }
}
