/** The History page, headless: an in-memory store, no React, no IndexedDB. */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { HistoryEntrySchema, type HistoryEntry } from '../../src/features/history/history-schema.ts';
import { HistorySession, type HistoryStore } from '../../src/features/history/history-session.ts';

function entry(id: string, operationPath: string, clientOrderId: string): HistoryEntry {
  return HistoryEntrySchema.parse({
    version: 1,
    id,
    operationPath,
    profileName: 'demo',
    targetName: 'local',
    sentAt: `2026-11-27T03:0${id}:00.000Z`,
    clientOrderId,
    orderId: null,
    outcome: null,
    request: { method: 'POST', url: `http://sandbox.test/api/${operationPath}/1`, headers: [], body: [] },
    masked: [],
  });
}

class MemoryStore implements HistoryStore {
  entries: HistoryEntry[];
  failNext: Error | null = null;
  private readonly listeners = new Set<() => void>();
  /** Reads held back until released, to finish them out of order. */
  held: Array<() => void> | null = null;
  constructor(entries: HistoryEntry[]) {
    this.entries = entries;
  }
  list() {
    const snapshot = { entries: [...this.entries], unreadable: 1 };
    const fail = this.failNext;
    this.failNext = null;
    if (fail) return Promise.reject(fail);
    if (!this.held) return Promise.resolve(snapshot);
    const held = this.held;
    return new Promise<typeof snapshot>((resolve) => held.push(() => resolve(snapshot)));
  }
  remove(id: string) {
    const fail = this.failNext;
    this.failNext = null;
    if (fail) return Promise.reject(fail);
    this.entries = this.entries.filter((e) => e.id !== id);
    return Promise.resolve();
  }
  clear() {
    this.entries = [];
    return Promise.resolve();
  }
  onChange(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  changed() {
    for (const l of this.listeners) l();
  }
  get listening() {
    return this.listeners.size;
  }
}

const flush = () => new Promise<void>((r) => setImmediate(r));

async function started(entries = [entry('1', 'v2/sale', 'inv-a'), entry('2', 'v2/status', 'inv-b')]) {
  const store = new MemoryStore(entries);
  const session = new HistorySession(
    store,
    new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  );
  expect(session.getSnapshot().loading).toBe(true);
  const stop = session.start();
  await flush();
  return { store, session, stop };
}

describe('HistorySession', () => {
  it('reads the entries, and again on every change until stopped', async () => {
    const { store, session, stop } = await started();
    expect(session.getSnapshot()).toMatchObject({ loading: false, unreadable: 1, error: null });
    expect(session.getSnapshot().entries.map((e) => e.id)).toEqual(['1', '2']);
    store.entries.push(entry('3', 'v2/void', 'inv-c'));
    store.changed();
    await flush();
    expect(session.getSnapshot().entries).toHaveLength(3);
    stop();
    expect(store.listening).toBe(0);
  });

  it('a second visit shows the list kept in the query cache at once, then reads again', async () => {
    const store = new MemoryStore([entry('1', 'v2/sale', 'inv-a')]);
    const queries = new QueryClient();
    const first = new HistorySession(store, queries);
    first.start()();
    await flush();
    store.entries.push(entry('2', 'v2/void', 'inv-b'));
    const again = new HistorySession(store, queries);
    const stop = again.start();
    expect(again.getSnapshot().loading).toBe(false);
    expect(again.getSnapshot().entries.map((e) => e.id)).toEqual(['1']);
    await flush();
    expect(again.getSnapshot().entries.map((e) => e.id)).toEqual(['1', '2']);
    stop();
  });

  it('keeps the result of the latest read when an earlier one ends last', async () => {
    const { store, session } = await started();
    store.held = [];
    const first = session.read();
    store.entries = [entry('9', 'v2/void', 'inv-z')];
    const second = session.read();
    store.held[1]!();
    store.held[0]!();
    await Promise.all([first, second]);
    expect(session.getSnapshot().entries.map((e) => e.id)).toEqual(['9']);
  });

  it('filters by the search and closes the details of an entry the search hides', async () => {
    const { session } = await started();
    session.toggleDetails('1');
    expect(session.getSnapshot().selected?.id).toBe('1');
    session.setSearch('status');
    expect(session.getSnapshot().shown.map((e) => e.id)).toEqual(['2']);
    expect(session.getSnapshot().selected).toBeNull();
    session.setSearch('');
    expect(session.getSnapshot().selected?.id).toBe('1');
    session.toggleDetails('1');
    expect(session.getSnapshot().selected).toBeNull();
  });

  it('ticks at most two entries and compares them', async () => {
    const { session } = await started([
      entry('1', 'v2/sale', 'a'),
      entry('2', 'v2/sale', 'b'),
      entry('3', 'v2/sale', 'c'),
    ]);
    session.togglePick('1');
    session.compare();
    expect(session.getSnapshot().comparing).toBeNull();
    session.togglePick('2');
    session.togglePick('3');
    expect(session.getSnapshot().picked).toEqual(['2', '3']);
    session.togglePick('3');
    session.togglePick('1');
    session.compare();
    expect(session.getSnapshot().comparing?.map((e) => e.id)).toEqual(['2', '1']);
    session.closeComparison();
    expect(session.getSnapshot().comparing).toBeNull();
  });

  it('deletes an entry, closing its details, and says when a delete fails', async () => {
    const { store, session } = await started();
    session.toggleDetails('1');
    const removing = session.remove('1');
    expect(session.getSnapshot().removing).toBe(true);
    await removing;
    expect(session.getSnapshot()).toMatchObject({ removing: false, selected: null });
    expect(session.getSnapshot().entries.map((e) => e.id)).toEqual(['2']);
    store.failNext = new Error('blocked');
    await session.remove('2');
    expect(session.getSnapshot().error?.message).toBe('blocked');
    expect(session.getSnapshot().entries).toHaveLength(1);
  });

  it('clears everything only after the confirmation, and a failed read is reported', async () => {
    const { store, session } = await started();
    session.askClear();
    expect(session.getSnapshot().confirmingClear).toBe(true);
    session.cancelClear();
    expect(session.getSnapshot().confirmingClear).toBe(false);
    session.askClear();
    session.toggleDetails('2');
    await session.clear();
    expect(session.getSnapshot()).toMatchObject({ confirmingClear: false, selected: null, clearing: false });
    expect(session.getSnapshot().entries).toEqual([]);
    store.failNext = new Error('no IndexedDB');
    await session.read();
    expect(session.getSnapshot().error?.message).toBe('no IndexedDB');
  });
});
