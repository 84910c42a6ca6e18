import { findOperation } from '../../catalog/index.ts';
import {
  draftFromValues,
  draftKey,
  formFromDraft,
  type Place,
  type RequestDraft,
} from '../../model/index.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import { freeName } from './saved-file.ts';
import type { Collection, SavedRequest } from './saved-schema.ts';
import { errorText } from '../../core/errors.ts';
import { Store } from '../../core/store.ts';

/** Where saved requests are kept (IndexedDB in the app, memory in the spec). */
export interface SavedStore {
  list(): Promise<{ collections: Collection[]; requests: SavedRequest[] }>;
  createCollection(name: string): Promise<Collection>;
  /** Keeps a new request; the store masks the draft. */
  save(input: { name: string; collectionId: string; draft: RequestDraft }): Promise<SavedRequest>;
  /** Changes a kept request; the store masks the draft. */
  update(request: SavedRequest, change: { name?: string; draft?: RequestDraft }): Promise<SavedRequest>;
}

/** "Save as": a name in an existing collection or in a new one. */
export interface SaveAsTarget {
  name: string;
  collection: { id: string } | { newName: string };
}

export interface SaveSnapshot {
  /** The saved request the workbench shows; null when the form is no saved request. */
  open: SavedRequest | null;
  /** The form differs from the open saved request (what saving would keep). */
  modified: boolean;
  /** A save found a request of that name in the collection: replace it or keep both. */
  conflict: { name: string; collectionName: string } | null;
  busy: boolean;
  /** What the last save did, to say so. */
  done: string | null;
  error: string | null;
}

/**
 * True when saving `current` would keep something other than `saved`: both are read as the form
 * reads them at this place and masked as a save masks them, so a card number typed in again to
 * send, a field the saved draft did not mention or the form's order change nothing.
 */
export function differsFromSaved(saved: RequestDraft, current: RequestDraft, place: Place): boolean {
  return current.operation !== saved.operation || keptKey(saved, place) !== keptKey(current, place);
}

/** What a save would keep of a draft, as a text key (see {@link differsFromSaved}). */
function keptKey(draft: RequestDraft, place: Place): string {
  const op = findOperation(draft.operation);
  return op
    ? draftKey(maskDraft(draftFromValues(op, formFromDraft(op, draft, place), place)))
    : draftKey(draft);
}

const sameName = (a: string, b: string) => a.trim() === b.trim();
const message = (e: unknown) => errorText(e);

/**
 * The workbench's saved request: which one is open, whether the form differs from it, Save (update
 * it in place), Save as (a new request, asking before a second one of the same name in a
 * collection: replace it or keep both). Headless: the view renders {@link getSnapshot}.
 */
export class SaveSession extends Store<SaveSnapshot> {
  protected snap: SaveSnapshot = {
    open: null,
    modified: false,
    conflict: null,
    busy: false,
    done: null,
    error: null,
  };
  private current: RequestDraft | null = null;
  /** The open request's key (of what a save keeps), computed once per request and place, not per keystroke. */
  private openKey: { of: SavedRequest; place: Place; key: string } | null = null;
  private pending: {
    name: string;
    collection: Collection;
    existing: SavedRequest;
    draft: RequestDraft;
  } | null = null;

  constructor(
    private readonly store: SavedStore,
    private readonly place: () => Place,
  ) {
    super();
  }

  private set(patch: Partial<SaveSnapshot>): void {
    const next = { ...this.snap, ...patch };
    next.modified = next.open !== null && this.current !== null && this.differs(next.open, this.current);
    this.snap = next;
    this.notify();
  }

  private differs(open: SavedRequest, current: RequestDraft): boolean {
    const place = this.place();
    if (this.openKey?.of !== open || this.openKey.place !== place)
      this.openKey = { of: open, place, key: keptKey(open.draft, place) };
    return current.operation !== open.draft.operation || keptKey(current, place) !== this.openKey.key;
  }

  /** The form's request, whenever it changes. */
  change(current: RequestDraft): void {
    this.current = current;
    this.set({});
  }

  /** Opens the saved request of this id (the workbench was opened from it); unknown ids open none. */
  async openById(id: string): Promise<void> {
    try {
      const { requests } = await this.store.list();
      this.set({ open: requests.find((r) => r.id === id) ?? null });
    } catch (e) {
      this.set({ error: `Saved requests cannot be read: ${message(e)}` });
    }
  }

  /** Save: the open saved request takes the form's request, in place. */
  async save(): Promise<void> {
    const open = this.snap.open;
    if (!open || !this.current || this.snap.busy) return;
    const draft = this.current;
    await this.run(async () => {
      const updated = await this.store.update(open, { draft });
      return { open: updated, done: `Saved changes to “${updated.name}”.` };
    });
  }

  /**
   * Save as: a new saved request with the form's request. A request of the same name already in the
   * collection is not overwritten nor doubled silently: the snapshot's `conflict` asks, and
   * {@link resolveConflict} answers.
   * @returns 'saved', 'conflict' (asking) or 'failed' (the snapshot's `error` says why).
   */
  async saveAs(target: SaveAsTarget): Promise<'saved' | 'conflict' | 'failed'> {
    if (!this.current || this.snap.busy) return 'failed';
    const draft = this.current;
    let outcome: 'saved' | 'conflict' | 'failed' = 'failed';
    await this.run(async () => {
      const { collections, requests } = await this.store.list();
      const collection =
        'id' in target.collection
          ? collections.find((c) => c.id === (target.collection as { id: string }).id)
          : await this.store.createCollection(target.collection.newName);
      if (!collection) throw new Error('that collection no longer exists: pick another one.');
      const existing = requests.find(
        (r) => r.collectionId === collection.id && sameName(r.name, target.name),
      );
      if (existing) {
        this.pending = { name: target.name, collection, existing, draft };
        outcome = 'conflict';
        return { conflict: { name: existing.name, collectionName: collection.name } };
      }
      const saved = await this.store.save({ name: target.name, collectionId: collection.id, draft });
      outcome = 'saved';
      return { open: saved, done: `Saved “${saved.name}” in ${collection.name}.` };
    });
    return outcome;
  }

  /** The answer to a conflict: replace the request of that name, keep both (the new one renamed), or cancel. */
  async resolveConflict(choice: 'replace' | 'keep-both' | 'cancel'): Promise<void> {
    const p = this.pending;
    this.pending = null;
    if (!p || choice === 'cancel') return this.set({ conflict: null });
    await this.run(async () => {
      if (choice === 'replace') {
        const updated = await this.store.update(p.existing, { draft: p.draft });
        return { open: updated, conflict: null, done: `Replaced “${updated.name}” in ${p.collection.name}.` };
      }
      const { requests } = await this.store.list();
      const taken = new Set(requests.filter((r) => r.collectionId === p.collection.id).map((r) => r.name));
      const saved = await this.store.save({
        name: freeName(p.name, taken),
        collectionId: p.collection.id,
        draft: p.draft,
      });
      return { open: saved, conflict: null, done: `Saved “${saved.name}” in ${p.collection.name}.` };
    });
  }

  private async run(step: () => Promise<Partial<SaveSnapshot>>): Promise<void> {
    this.set({ busy: true, error: null, done: null });
    try {
      this.set({ ...(await step()), busy: false });
    } catch (e) {
      this.set({ busy: false, conflict: null, error: `Not saved: ${message(e)}` });
    }
  }
}
