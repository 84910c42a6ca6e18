/**
 * Issue 19 §1, saved requests: Save updates the open saved request, Save as makes a copy, the
 * unsaved-changes mark follows the form, and a second request of the same name in one collection
 * asks (replace or keep both). The session is headless: an in-memory store, no React, no IndexedDB.
 */
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { differsFromSaved, SaveSession, type SavedStore } from '../../src/features/saved/save-session.ts';
import type { Collection, SavedRequest } from '../../src/features/saved/saved-schema.ts';
import { draftFromValues, formFromDraft, type RequestDraft } from '../../src/model/index.ts';
import { maskDraft } from '../../src/model/mask-draft.ts';
import { PLACE } from '../model/signing-env.ts';

const PAN = '4444444444444448';
const op = findOperation('v2/sale')!;

/** What the workbench's form holds for a draft, with some values typed over it. */
function form(draft: RequestDraft, typed: Record<string, string> = {}): RequestDraft {
  const state = formFromDraft(op, draft, PLACE);
  return draftFromValues(op, { ...state, values: { ...state.values, ...typed } }, PLACE);
}

function memoryStore(): SavedStore & { requests: SavedRequest[]; collections: Collection[] } {
  let n = 0;
  const at = '2026-11-26T22:00:00.000Z';
  const store = {
    collections: [] as Collection[],
    requests: [] as SavedRequest[],
    list: () => Promise.resolve({ collections: [...store.collections], requests: [...store.requests] }),
    createCollection: (name: string) => {
      const c: Collection = { version: 1, id: `c${++n}`, name, createdAt: at };
      store.collections.push(c);
      return Promise.resolve(c);
    },
    save: (input: { name: string; collectionId: string; draft: RequestDraft }) => {
      const r: SavedRequest = {
        version: 1,
        id: `r${++n}`,
        collectionId: input.collectionId,
        name: input.name,
        draft: maskDraft(input.draft),
        savedAt: at,
        updatedAt: at,
      };
      store.requests.push(r);
      return Promise.resolve(r);
    },
    update: (request: SavedRequest, change: { name?: string; draft?: RequestDraft }) => {
      const r: SavedRequest = {
        ...request,
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.draft ? { draft: maskDraft(change.draft) } : {}),
      };
      store.requests = store.requests.map((x) => (x.id === r.id ? r : x));
      return Promise.resolve(r);
    },
  };
  return store;
}

const saleA: RequestDraft = {
  v: 2,
  operation: 'v2/sale',
  values: { client_orderid: 'a-1', amount: '10.42', credit_card_number: PAN, order_desc: 'Sale A' },
  extras: [],
};

async function sessionWithSaleA() {
  const store = memoryStore();
  const mine = await store.createCollection('My requests');
  const saved = await store.save({ name: 'Sale A', collectionId: mine.id, draft: form(saleA) });
  const session = new SaveSession(store, () => PLACE);
  await session.openById(saved.id);
  session.change(form(saved.draft));
  return { store, mine, saved, session };
}

describe('the workbench’s saved request', () => {
  it('marks unsaved changes only when the form differs from what saving would keep', async () => {
    const { session, saved } = await sessionWithSaleA();
    expect(session.getSnapshot()).toMatchObject({ open: { id: saved.id }, modified: false });
    session.change(form(saved.draft, { amount: '11.00' }));
    expect(session.getSnapshot().modified).toBe(true);
    session.change(form(saved.draft, { amount: '10.42' }));
    expect(session.getSnapshot().modified).toBe(false);
    // Typing the card number in again, to send, changes nothing that a save would keep.
    session.change(form(saved.draft, { credit_card_number: PAN }));
    expect(session.getSnapshot().modified).toBe(false);
  });

  it('Save updates the open saved request in place', async () => {
    const { session, store, saved } = await sessionWithSaleA();
    session.change(form(saved.draft, { amount: '12.00' }));
    await session.save();
    expect(store.requests).toHaveLength(1);
    expect(store.requests[0]).toMatchObject({ id: saved.id, name: 'Sale A' });
    expect(store.requests[0]!.draft.values.amount).toBe('12.00');
    expect(session.getSnapshot()).toMatchObject({ modified: false, done: 'Saved changes to “Sale A”.' });
  });

  it('Save as makes a copy and opens it; the original stays as it was', async () => {
    const { session, store, saved, mine } = await sessionWithSaleA();
    session.change(form(saved.draft, { amount: '13.00' }));
    expect(await session.saveAs({ name: 'Sale B', collection: { id: mine.id } })).toBe('saved');
    expect(store.requests.map((r) => [r.name, r.draft.values.amount])).toEqual([
      ['Sale A', '10.42'],
      ['Sale B', '13.00'],
    ]);
    expect(session.getSnapshot()).toMatchObject({ open: { name: 'Sale B' }, modified: false });
  });

  it('a second request of the same name in one collection asks: replace it', async () => {
    const { session, store, saved, mine } = await sessionWithSaleA();
    session.change(form(saved.draft, { amount: '14.00' }));
    expect(await session.saveAs({ name: 'Sale A', collection: { id: mine.id } })).toBe('conflict');
    expect(session.getSnapshot().conflict).toEqual({ name: 'Sale A', collectionName: 'My requests' });
    expect(store.requests).toHaveLength(1);
    await session.resolveConflict('replace');
    expect(store.requests.map((r) => [r.id, r.name, r.draft.values.amount])).toEqual([
      [saved.id, 'Sale A', '14.00'],
    ]);
    expect(session.getSnapshot()).toMatchObject({ conflict: null, open: { id: saved.id } });
  });

  it('… or keep both, the new one under a free name; or cancel, saving nothing', async () => {
    const { session, store, saved, mine } = await sessionWithSaleA();
    session.change(form(saved.draft, { amount: '15.00' }));
    await session.saveAs({ name: 'Sale A', collection: { id: mine.id } });
    await session.resolveConflict('keep-both');
    expect(store.requests.map((r) => r.name)).toEqual(['Sale A', 'Sale A (2)']);
    expect(session.getSnapshot().open?.name).toBe('Sale A (2)');

    await session.saveAs({ name: 'Sale A', collection: { id: mine.id } });
    await session.resolveConflict('cancel');
    expect(store.requests).toHaveLength(2);
    expect(session.getSnapshot().conflict).toBeNull();
  });

  it('the same name in another collection, or a new one, is no conflict', async () => {
    const { session, store, saved } = await sessionWithSaleA();
    session.change(form(saved.draft));
    expect(await session.saveAs({ name: 'Sale A', collection: { newName: 'Other' } })).toBe('saved');
    expect(store.collections.map((c) => c.name)).toEqual(['My requests', 'Other']);
    expect(store.requests.map((r) => r.name)).toEqual(['Sale A', 'Sale A']);
  });

  it('a saved draft that does not mention every field is the same request as its form', () => {
    const imported: RequestDraft = maskDraft({
      ...saleA,
      values: { client_orderid: 'a-1', amount: '10.42' },
    });
    expect(differsFromSaved(imported, form(imported), PLACE)).toBe(false);
    expect(differsFromSaved(imported, form(imported, { client_orderid: 'a-2' }), PLACE)).toBe(true);
  });
});
