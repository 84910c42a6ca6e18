import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints off the event loop. SQLite copies the write-ahead log back into the database
 * file (and fsyncs it) on the commit that crosses `wal_autocheckpoint`, in the thread that
 * commits: with half a million nonces that is a 20–50 ms stall of every request in flight. The
 * serving connection's automatic checkpoint is pushed far out (a safety net), and a worker thread
 * with its own connection runs a PASSIVE checkpoint every `everyMs`: PASSIVE never waits for
 * readers or writers, so requests are never held up by it.
 */
export const CHECKPOINT_EVERY_MS = 500;

/** Pages in the log before the serving connection checkpoints by itself (the worker is gone). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

// Plain CommonJS, run with `eval`: the worker must start the same way under tsx, vitest and node.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.dbPath, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: the next turn */ }
}, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  db.close();
  parentPort.postMessage('stopped');
});
parentPort.postMessage('ready');
`;

export class Checkpointer {
  private worker: Worker | undefined;
  /** Settles when the worker has finished: told to stop, or failed. */
  private readonly finished: Promise<void>;

  /** Starts checkpointing `dbPath` (a file in WAL mode); `onError` hears why it could not. */
  constructor(dbPath: string, onError: (message: string) => void, everyMs = CHECKPOINT_EVERY_MS) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { dbPath, driver, everyMs },
      // Not a reason to keep the process alive, and small: it only runs checkpoints.
      resourceLimits: { maxOldGenerationSizeMb: 32 },
    });
    worker.unref();
    worker.on('error', (e) =>
      onError(`sandbox checkpoints: ${e.message}; SQLite checkpoints on commit instead.`),
    );
    this.finished = new Promise<void>((resolve) => {
      worker.on('message', (m) => {
        if (m === 'stopped') resolve();
      });
      worker.once('exit', () => resolve());
    });
    this.worker = worker;
  }

  /** Runs a last checkpoint and stops the worker (before the serving connection closes). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 2_000);
    });
    await Promise.race([this.finished, timeout]);
    clearTimeout(timer);
    await worker.terminate();
  }
}
