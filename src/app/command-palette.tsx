import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { GROUP_TITLES, OPERATIONS } from '../catalog/index.ts';
import type { RequestDraft } from '../model/index.ts';
import { rankItems } from './fuzzy-match.ts';
import { opHref } from './routes.ts';
import { THEME_CHANGED, THEME_KEY } from './theme.ts';
import './command-palette.css';

type Item =
  | { kind: 'page'; id: string; label: string; detail: string; to: string }
  | { kind: 'operation'; id: string; label: string; detail: string; to: string }
  | { kind: 'saved' | 'recent'; id: string; label: string; detail: string; draft: RequestDraft }
  | { kind: 'action'; id: string; label: string; detail: string }
  | { kind: 'command'; id: string; label: string; detail: string; run: () => void };

const KIND_LABEL: Record<Item['kind'], string> = {
  page: 'Page',
  operation: 'Operation',
  saved: 'Saved',
  recent: 'Recent',
  action: 'Help',
  command: 'Action',
};

/** On an empty query: requests first (what one goes back to), then actions, then the places. */
const EMPTY_QUERY_ORDER: Item['kind'][] = ['recent', 'saved', 'command', 'action', 'page', 'operation'];

/**
 * The actions the page under the palette offers right now, each done by the page's own control
 * (so its checks apply: Send still validates the form and asks before moving money): found when the
 * palette opens, offered only when the control is there and enabled.
 */
function pageCommands(): Item[] {
  const main = document.querySelector('main');
  const button = (selector: string, text?: string) =>
    [...(main?.querySelectorAll<HTMLButtonElement>(selector) ?? [])].find(
      (b) => !b.disabled && (text === undefined || b.textContent?.trim() === text),
    );
  const out: Item[] = [];
  const add = (label: string, detail: string, control: HTMLButtonElement | undefined) => {
    if (control) out.push({ kind: 'command', id: `cmd-${label}`, label, detail, run: () => control.click() });
  };
  add('Send', 'the request of this page (Ctrl+Enter)', button('button[type="submit"][aria-keyshortcuts]'));
  add(
    'Copy curl',
    'the curl command of this request, to the clipboard',
    button('button[aria-label="Copy curl command"]'),
  );
  add('Poll status', 'of the order just answered, until final', button('button', 'Poll status until final'));
  const dark =
    document.documentElement.dataset.theme === 'dark' ||
    (!document.documentElement.dataset.theme && matchMedia('(prefers-color-scheme: dark)').matches);
  out.push({
    kind: 'command',
    id: 'cmd-theme',
    label: 'Toggle theme',
    detail: `to ${dark ? 'light' : 'dark'}`,
    run: () => {
      // The picker reads the choice back on this event and applies it.
      localStorage.setItem(THEME_KEY, dark ? 'light' : 'dark');
      dispatchEvent(new Event(THEME_CHANGED));
    },
  });
  return out;
}

const MAX_SHOWN = 60;
const RECENT = 10;

/** Saved requests and the most recent history entries, read when the palette opens. */
async function loadRequests(): Promise<Item[]> {
  const [saved, recent] = await Promise.all([
    import('../features/saved/saved-db.ts')
      .then((m) => m.listSaved())
      .then((s): Item[] =>
        s.requests.map((r) => ({
          kind: 'saved',
          id: `saved-${r.id}`,
          label: r.name,
          detail: `${s.collections.find((c) => c.id === r.collectionId)?.name ?? ''} · ${r.draft.operation}`,
          draft: r.draft,
        })),
      )
      .catch((): Item[] => []),
    Promise.all([import('../features/history/history-db.ts'), import('../features/history/build-entry.ts')])
      .then(([db, build]) =>
        db.listEntries().then(({ entries }): Item[] =>
          // What the user sent: a poll's own checks would push those out.
          entries
            .filter((e) => !e.automatic)
            .slice(0, RECENT)
            .map((e) => ({
              kind: 'recent',
              id: `recent-${e.id}`,
              label: `${e.operationPath}${e.clientOrderId ? ` ${e.clientOrderId}` : ''}`,
              detail: `${new Date(e.sentAt).toLocaleString()} · ${e.outcome ?? (e.response ? `HTTP ${e.response.status}` : 'no answer')}`,
              draft: build.draftOfEntry(e),
            })),
        ),
      )
      .catch((): Item[] => []),
  ]);
  return [...saved, ...recent];
}

export interface CommandPaletteProps {
  sections: readonly { to: string; label: string }[];
  onClose: () => void;
  onNavigate: (to: string) => void;
  onOpen: (draft: RequestDraft) => void;
  onShortcuts: () => void;
}

/** The first heading of the page now shown (lazy pages render theirs a little later). */
function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main h1');
}

/**
 * Where focus goes once an overlay closes: back to what had it when the overlay opened, or, after a
 * move to another page (or when that element is gone), to the new page's heading. Never to <body>.
 */
function useFocusReturn(): { movedPage: () => void } {
  const state = useRef({ invoker: document.activeElement, moved: false });
  useEffect(
    () => () => {
      const { invoker, moved } = state.current;
      let frames = 0;
      const settle = () => {
        // An action that put the focus somewhere (Send on an invalid form: its first field) keeps it.
        if (!moved && document.activeElement && document.activeElement !== document.body) return;
        if (!moved && invoker instanceof HTMLElement && invoker.isConnected && invoker !== document.body) {
          invoker.focus();
          return;
        }
        const heading = pageHeading();
        if (heading) {
          if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
          heading.focus();
        } else if (++frames < 600) requestAnimationFrame(settle);
      };
      // After the dialog has left the page and the new page, if any, has rendered.
      requestAnimationFrame(settle);
    },
    [],
  );
  return { movedPage: () => void (state.current.moved = true) };
}

/**
 * Ctrl/⌘+K: jump to a page, an operation, a saved or recent request. A modal dialog holding an
 * ARIA combobox (the text field) that owns a listbox; arrows move, Enter goes, Escape closes.
 */
export function CommandPalette({ sections, onClose, onNavigate, onOpen, onShortcuts }: CommandPaletteProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const id = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [requests, setRequests] = useState<Item[] | null>(null);
  const [commands] = useState(pageCommands);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    let live = true;
    void loadRequests().then((items) => {
      if (live) setRequests(items);
    });
    return () => {
      live = false;
    };
  }, []);

  const items = useMemo<Item[]>(
    () => [
      ...sections.map((s): Item => ({
        kind: 'page',
        id: `page-${s.to}`,
        label: s.label,
        detail: s.to,
        to: s.to,
      })),
      ...OPERATIONS.map((op): Item => ({
        kind: 'operation',
        id: `op-${op.path}`,
        label: op.title,
        detail: `${op.path} · ${GROUP_TITLES[op.group]}`,
        to: opHref(op.path),
      })),
      ...(requests ?? []),
      ...commands,
      { kind: 'action', id: 'shortcuts', label: 'Keyboard shortcuts', detail: '?' },
    ],
    [sections, requests, commands],
  );
  const shown = useMemo(
    () =>
      (query.trim() === ''
        ? EMPTY_QUERY_ORDER.flatMap((k) => items.filter((i) => i.kind === k))
        : rankItems(items, query, (i) => `${i.label} ${i.detail}`)
      ).slice(0, MAX_SHOWN),
    [items, query],
  );
  const current = Math.min(active, Math.max(shown.length - 1, 0));
  const optionId = (i: number) => `${id}-opt-${i}`;

  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' });
    // optionId only depends on id, stable for this component.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  const choose = (item: Item | undefined) => {
    if (!item) return;
    if (item.kind === 'command') {
      // Out of the modal first: the page's controls are inert while it is open.
      ref.current?.close();
      item.run();
    }
    onClose();
    if (item.kind === 'page' || item.kind === 'operation') onNavigate(item.to);
    else if (item.kind === 'action') onShortcuts();
    else if (item.kind !== 'command') onOpen(item.draft);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = shown.length;
    if (e.key === 'ArrowDown' && n > 0) {
      e.preventDefault();
      setActive((current + 1) % n);
    } else if (e.key === 'ArrowUp' && n > 0) {
      e.preventDefault();
      setActive((current - 1 + n) % n);
    } else if (e.key === 'PageDown' && n > 0) {
      e.preventDefault();
      setActive(Math.min(current + 8, n - 1));
    } else if (e.key === 'PageUp' && n > 0) {
      e.preventDefault();
      setActive(Math.max(current - 8, 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(shown[current]);
    }
  };

  return (
    <dialog
      ref={ref}
      className="cp-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === ref.current) onClose();
      }}
    >
      <div className="cp-body">
        <h2 id={`${id}-title`} className="ui-visually-hidden">
          Command palette
        </h2>
        <input
          className="cp-input"
          role="combobox"
          aria-label="Go to a page, an operation or a request"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={shown.length > 0 ? optionId(current) : undefined}
          placeholder="Type to filter: sale, history, v4 payout…"
          value={query}
          autoFocus
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul ref={listRef} id={`${id}-list`} role="listbox" aria-label="Results" className="cp-list">
          {shown.map((item, i) => (
            <li
              key={item.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className="cp-option"
              onMouseMove={() => {
                if (i !== current) setActive(i);
              }}
              onClick={() => choose(item)}
            >
              <span className={`cp-kind cp-kind-${item.kind}`}>{KIND_LABEL[item.kind]}</span>
              <span className="cp-label">{item.label}</span>
              <span className="cp-detail">{item.detail}</span>
            </li>
          ))}
        </ul>
        <p className="cp-foot" role="status">
          {shown.length === 0 ? 'Nothing matches.' : `${shown.length} result${shown.length === 1 ? '' : 's'}`}
          {requests === null ? ' · loading saved and recent requests…' : ''} · ↑↓ to move, Enter to go, Esc to
          close
        </p>
      </div>
    </dialog>
  );
}

const SHORTCUTS: ReadonlyArray<{ keys: string; what: string }> = [
  {
    keys: 'Ctrl+K / ⌘+K',
    what: 'Open the command palette: recent and saved requests, actions (Send, Copy curl, Poll status, Toggle theme), pages, operations',
  },
  { keys: '?', what: 'Show this list (outside text fields)' },
  { keys: 'Ctrl+Enter / ⌘+Enter', what: 'Send the request on the workbench' },
  { keys: '↑ ↓, Page Up, Page Down', what: 'Move in the command palette' },
  { keys: 'Enter', what: 'Go to the chosen palette entry' },
  { keys: 'Esc', what: 'Close the palette or a dialog' },
];

/** The list of keyboard shortcuts (`?`, or "Keyboard shortcuts" in the palette). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="ui-dialog cp-shortcuts"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-title`}>Keyboard shortcuts</h2>
      <table className="cp-table">
        <caption className="ui-visually-hidden">Keys and what they do</caption>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="ui-dialog-actions">
        <button type="button" className="ui-btn" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </dialog>
  );
}

/** What the shell shows over the page: the palette or the shortcut list (one lazy chunk for both). */
export function Overlay({ which, ...props }: CommandPaletteProps & { which: 'palette' | 'shortcuts' }) {
  const { movedPage } = useFocusReturn();
  const moving = {
    ...props,
    onNavigate: (to: string) => {
      movedPage();
      props.onNavigate(to);
    },
    onOpen: (draft: RequestDraft) => {
      movedPage();
      props.onOpen(draft);
    },
  };
  return which === 'palette' ? <CommandPalette {...moving} /> : <ShortcutsDialog onClose={props.onClose} />;
}
