import { QueryObserver, type QueryClient, type QueryObserverResult } from '@tanstack/react-query';
import { matchesSearch } from './build-entry.ts';
import type { HistoryEntry } from './history-schema.ts';
import { asError } from '../../core/errors.ts';
import { Store } from '../../core/store.ts';

/** Where the entries are kept (history-db.ts and IndexedDB in the browser). */
export interface HistoryStore {
  /** All readable entries, newest first, and how many stored records could not be read. */
  list(): Promise<{ entries: HistoryEntry[]; unreadable: number }>;
  remove(id: string): Promise<void>;
  clear(): Promise<void>;
  /** Calls back on every change, in this tab or another one; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export interface HistorySnapshot {
  /** Nothing has been read yet. */
  loading: boolean;
  entries: readonly HistoryEntry[];
  unreadable: number;
  search: string;
  /** The entries the search matches. */
  shown: readonly HistoryEntry[];
  /** The entry whose details are open: one the search hides is closed with it. */
  selected: HistoryEntry | null;
  /** Ticked for comparison: at most two, the latest kept. */
  picked: readonly string[];
  comparing: readonly [HistoryEntry, HistoryEntry] | null;
  confirmingClear: boolean;
  removing: boolean;
  clearing: boolean;
  /** The last read, delete or clear that failed. */
  error: Error | null;
}

interface State {
  loading: boolean;
  entries: readonly HistoryEntry[];
  unreadable: number;
  search: string;
  selectedId: string | null;
  picked: readonly string[];
  comparing: readonly [string, string] | null;
  confirmingClear: boolean;
  removing: boolean;
  clearing: boolean;
  readError: Error | null;
  removeError: Error | null;
  clearError: Error | null;
}

type Listing = Awaited<ReturnType<HistoryStore['list']>>;

/** The entries' key in the app's query cache: kept between visits, read again on every change. */
export const HISTORY_QUERY_KEY = ['history'] as const;

/**
 * The History page, headless: the entries read from the store (through the app's TanStack Query
 * client, so a second visit shows the cached list at once while it reads again, and a read that
 * a newer one replaced is dropped), the search, the open details, the two entries to compare,
 * Delete and Clear all with its confirmation.
 */
export class HistorySession extends Store<HistorySnapshot> {
  private state: State = {
    loading: true,
    entries: [],
    unreadable: 0,
    search: '',
    selectedId: null,
    picked: [],
    comparing: null,
    confirmingClear: false,
    removing: false,
    clearing: false,
    readError: null,
    removeError: null,
    clearError: null,
  };
  protected snap: HistorySnapshot = this.derive();

  constructor(
    private readonly store: HistoryStore,
    private readonly queries: QueryClient,
  ) {
    super();
  }

  /** Reads the entries and reads them again on every change; returns the stop. */
  start(): () => void {
    const observer = new QueryObserver<Listing>(this.queries, {
      queryKey: HISTORY_QUERY_KEY,
      queryFn: () => this.store.list(),
    });
    const take = (r: QueryObserverResult<Listing>) =>
      this.set({
        loading: r.data === undefined && r.error === null,
        ...(r.data ? { entries: r.data.entries, unreadable: r.data.unreadable } : {}),
        readError: r.error,
      });
    take(observer.getCurrentResult());
    const unobserve = observer.subscribe(take);
    const unlisten = this.store.onChange(() => void this.read());
    return () => {
      unlisten();
      unobserve();
    };
  }

  /** Reads the entries again; a read still running is cancelled and its result dropped. */
  read(): Promise<void> {
    return this.queries.invalidateQueries({ queryKey: HISTORY_QUERY_KEY });
  }

  setSearch(search: string): void {
    this.set({ search });
  }

  /** Opens an entry's details, or closes them when they are open. */
  toggleDetails(id: string): void {
    this.set({ selectedId: this.state.selectedId === id ? null : id });
  }

  closeDetails(): void {
    this.set({ selectedId: null });
  }

  togglePick(id: string): void {
    const p = this.state.picked;
    this.set({ picked: p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id] });
  }

  /** Compares the two ticked entries. */
  compare(): void {
    const [a, b] = this.state.picked;
    if (a !== undefined && b !== undefined) this.set({ comparing: [a, b] });
  }

  closeComparison(): void {
    this.set({ comparing: null });
  }

  askClear(): void {
    this.set({ confirmingClear: true });
  }

  cancelClear(): void {
    this.set({ confirmingClear: false });
  }

  async remove(id: string): Promise<void> {
    this.set({ removing: true, removeError: null });
    try {
      await this.store.remove(id);
      this.set({ removing: false, ...(this.state.selectedId === id ? { selectedId: null } : {}) });
      await this.read();
    } catch (e) {
      this.set({ removing: false, removeError: asError(e) });
    }
  }

  async clear(): Promise<void> {
    this.set({ clearing: true, clearError: null });
    try {
      await this.store.clear();
      this.set({ clearing: false, selectedId: null, confirmingClear: false });
      await this.read();
    } catch (e) {
      this.set({ clearing: false, clearError: asError(e) });
    }
  }

  private set(next: Partial<State>): void {
    this.state = { ...this.state, ...next };
    this.snap = this.derive();
    this.notify();
  }

  private derive(): HistorySnapshot {
    const s = this.state;
    const shown = s.search === '' ? s.entries : s.entries.filter((e) => matchesSearch(e, s.search));
    const byId = (id: string) => s.entries.find((e) => e.id === id);
    const a = s.comparing && byId(s.comparing[0]);
    const b = s.comparing && byId(s.comparing[1]);
    return {
      loading: s.loading,
      entries: s.entries,
      unreadable: s.unreadable,
      search: s.search,
      shown,
      selected: shown.find((e) => e.id === s.selectedId) ?? null,
      picked: s.picked,
      comparing: a && b ? [a, b] : null,
      confirmingClear: s.confirmingClear,
      removing: s.removing,
      clearing: s.clearing,
      error: s.readError ?? s.removeError ?? s.clearError,
    };
  }
}
