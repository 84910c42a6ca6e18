/**
 * WAL checkpoints run in a worker thread, not on the commit that crosses the threshold in the
 * serving thread (a 20–50 ms stall at half a million nonces).
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from '../../sandbox/checkpointer.ts';
import { SandboxStore } from '../../sandbox/store.ts';
import { onFileChanges, waitFor } from './support.ts';

function fileWithLog(): { store: SandboxStore; dbPath: string } {
  const dbPath = path.join(mkdtempSync(path.join(tmpdir(), 'checkpoint-')), 'sandbox.sqlite');
  const store = new SandboxStore(dbPath);
  store.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  // About 2,000 pages of nonces: the serving connection alone would checkpoint at 1,000.
  store.tx(() => {
    for (let i = 0; i < 60_000; i++) store.nonces.use('c', `nonce-${i}-${'x'.repeat(40)}`, 0, 1);
  });
  return { store, dbPath };
}

describe('the checkpointer', () => {
  it('copies the log into the database from its own thread', async () => {
    const { store, dbPath } = fileWithLog();
    const before = statSync(dbPath).size;
    expect(statSync(`${dbPath}-wal`).size).toBeGreaterThan(4 * 1024 * 1024);
    const errors: string[] = [];
    const checkpointer = new Checkpointer(dbPath, (m) => errors.push(m), 20);
    try {
      // Only a checkpoint moves pages into the file; this connection never crossed its threshold.
      await waitFor(
        () => (statSync(dbPath).size > before + 4 * 1024 * 1024 ? true : undefined),
        onFileChanges(path.dirname(dbPath)),
        30_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await checkpointer.stop();
      store.close();
    }
  });

  it('names the problem when it cannot open the database, and stops cleanly', async () => {
    const errors: string[] = [];
    let reported: () => void = () => undefined;
    const heard = new Promise<void>((r) => (reported = r));
    const checkpointer = new Checkpointer(
      '/nonexistent/dir/sandbox.sqlite',
      (m) => {
        errors.push(m);
        reported();
      },
      20,
    );
    await heard;
    expect(errors[0]).toMatch(/^sandbox checkpoints: .*SQLite checkpoints on commit instead\.$/);
    await checkpointer.stop();
  });
});
