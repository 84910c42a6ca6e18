/**
 * Group commit: the write requests of one turn of the event loop share one COMMIT, each in its own
 * savepoint, and none is answered before that COMMIT.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxStore } from '../../../sandbox/store.ts';

const stores: SandboxStore[] = [];
function open(): { store: SandboxStore; dbPath: string } {
  const dbPath = path.join(mkdtempSync(path.join(tmpdir(), 'group-commit-')), 'sandbox.sqlite');
  const store = new SandboxStore(dbPath);
  stores.push(store);
  return { store, dbPath };
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  vi.restoreAllMocks();
});

/** What another connection (another process) sees. */
function nonceCount(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM nonces').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('group commit', () => {
  it('commits the calls of one turn once, and resolves none before that', async () => {
    const { store, dbPath } = open();
    const statement = Object.getPrototypeOf(store.db.prepare('SELECT 1')) as Database.Statement;
    const runs = vi.spyOn(statement, 'run');
    const calls = [1, 2, 3].map((i) => store.batched(() => store.nonces.use('c', `n${i}`, 0, 10)));
    let settled = 0;
    for (const c of calls) void c.then(() => settled++);
    await Promise.resolve();
    expect(settled).toBe(0);
    expect(store.batchOpen).toBe(true);
    expect(nonceCount(dbPath)).toBe(0); // not committed yet: invisible to another process
    expect(await Promise.all(calls)).toEqual([true, true, true]);
    expect(store.batchOpen).toBe(false);
    expect(nonceCount(dbPath)).toBe(3);
    const texts = runs.mock.contexts.map((st) => (st as Database.Statement).source);
    expect(texts.filter((t) => t === 'BEGIN IMMEDIATE')).toHaveLength(1);
    expect(texts.filter((t) => t === 'COMMIT')).toHaveLength(1);
  });

  it('undoes only the savepoint of a call that throws', async () => {
    const { store, dbPath } = open();
    const good = store.batched(() => store.nonces.use('c', 'kept', 0, 10));
    const bad = store.batched(() => {
      store.nonces.use('c', 'undone', 0, 10);
      throw new Error('refused');
    });
    await expect(bad).rejects.toThrow('refused');
    expect(await good).toBe(true);
    const db = new Database(dbPath, { readonly: true });
    const names = db.prepare('SELECT nonce FROM nonces ORDER BY nonce').all() as Array<{ nonce: string }>;
    db.close();
    expect(names.map((r) => r.nonce)).toEqual(['kept']);
  });

  it('sees a nonce claimed earlier in the same batch as used', async () => {
    const { store } = open();
    const first = store.batched(() => store.nonces.use('c', 'same', 0, 10));
    const replay = store.batched(() => store.nonces.use('c', 'same', 0, 10));
    expect(await Promise.all([first, replay])).toEqual([true, false]);
  });

  it('commits the batch before a transaction from outside it, and before closing', async () => {
    const { store, dbPath } = open();
    const call = store.batched(() => store.nonces.use('c', 'a', 0, 10));
    store.tx(() => store.nonces.use('c', 'b', 0, 10));
    expect(store.batchOpen).toBe(false);
    expect(nonceCount(dbPath)).toBe(2);
    expect(await call).toBe(true);
    const late = store.batched(() => store.nonces.use('c', 'c', 0, 10));
    store.close();
    expect(await late).toBe(true);
    expect(nonceCount(dbPath)).toBe(3);
  });

  it('rejects every call of a batch whose COMMIT fails, and keeps none of it', async () => {
    const { store, dbPath } = open();
    const calls = [1, 2].map((i) => store.batched(() => store.nonces.use('c', `f${i}`, 0, 10)));
    // A deferred foreign-key violation makes COMMIT itself fail.
    store.db.pragma('defer_foreign_keys = ON');
    store.db
      .prepare('INSERT INTO callbacks (request_id, url, next_at, state) VALUES (999999, ?, 0, ?)')
      .run('x', 'pending');
    for (const c of calls) await expect(c).rejects.toThrow(/FOREIGN KEY/);
    expect(store.batchOpen).toBe(false);
    expect(store.db.inTransaction).toBe(false);
    expect(nonceCount(dbPath)).toBe(0);
    // The store goes on working.
    expect(await store.batched(() => store.nonces.use('c', 'after', 0, 10))).toBe(true);
  });
});
