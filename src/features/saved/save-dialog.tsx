import { useEffect, useId, useRef, useState } from 'react';
import { findOperation } from '../../catalog/index.ts';
import type { Place, RequestDraft } from '../../model/index.ts';
import { prepareShareDraft } from '../../model/share-link.ts';
import { SaveSession, type SaveSnapshot } from './save-session.ts';
import { savedStore } from './saved-db.ts';
import { checkName } from './saved-schema.ts';
import { useSaved } from './use-saved.ts';
import './saved.css';
import { useStore } from '../../ui/use-store.ts';

const NEW = '__new__';
const DEFAULT_COLLECTION = 'My requests';

function suggestedName(draft: RequestDraft): string {
  const title = findOperation(draft.operation)?.title ?? draft.operation;
  const order = draft.values.client_orderid ?? draft.values['client-order-id'];
  return typeof order === 'string' && order !== '' ? `${title} ${order}` : title;
}

export interface SavedRequestToolsProps {
  /** The workbench's request as it is now. */
  current: RequestDraft | null;
  /** The saved request the workbench was opened from, if any. */
  savedId: string | undefined;
  place: Place;
  /** Clicks on "Save request" (a new saved request): each one opens the dialog. */
  asks: number;
  /** A saved request is now open in the workbench (opened, or just saved). */
  onOpened: (id: string) => void;
  onShowSaved: () => void;
}

/**
 * The workbench's saved request: its name, an unsaved-changes mark, Save (in place) and Save as (a
 * copy), and the dialog that names a new one. Loaded when a saved request is opened or on the
 * first "Save request", so the first page carries only that button.
 */
export function SavedRequestTools({
  current,
  savedId,
  place,
  asks,
  onOpened,
  onShowSaved,
}: SavedRequestToolsProps) {
  const placeRef = useRef(place);
  placeRef.current = place;
  const [session] = useState(() => new SaveSession(savedStore, () => placeRef.current));
  const snap = useStore(session);
  const [dialog, setDialog] = useState(false);
  // Focus goes back where the dialog came from (React removes the <dialog>, which leaves it on
  // <body>); after a save the "Save request" button goes away, so "Save as…" takes it.
  const invoker = useRef<HTMLElement | null>(null);
  const saveAs = useRef<HTMLButtonElement>(null);
  const [closes, setCloses] = useState(0);
  const openDialog = (from: Element | null) => {
    invoker.current = from instanceof HTMLElement ? from : null;
    setDialog(true);
  };
  const closeDialog = () => {
    setDialog(false);
    setCloses((n) => n + 1);
  };
  useEffect(() => {
    if (closes === 0) return;
    const back = invoker.current?.isConnected ? invoker.current : null;
    (saveAs.current ?? back)?.focus();
  }, [closes]);
  useEffect(() => {
    if (savedId) void session.openById(savedId);
  }, [session, savedId]);
  useEffect(() => {
    if (current) session.change(current);
  }, [session, current]);
  useEffect(() => {
    if (asks > 0) openDialog(document.activeElement);
  }, [asks]);
  const openId = snap.open?.id;
  useEffect(() => {
    if (openId) onOpened(openId);
  }, [openId, onOpened]);
  return (
    <>
      {snap.open ? (
        <span className="sv-open">
          Saved request <strong>{snap.open.name}</strong>
          {snap.modified ? <span className="sv-modified">Unsaved changes</span> : null}
          <button
            type="button"
            className="ui-btn ui-btn-small"
            disabled={!snap.modified || snap.busy}
            onClick={() => void session.save()}
          >
            Save
          </button>
          <button
            ref={saveAs}
            type="button"
            className="ui-btn ui-btn-small"
            aria-haspopup="dialog"
            onClick={(e) => openDialog(e.currentTarget)}
          >
            Save as…
          </button>
        </span>
      ) : null}
      {dialog && current ? (
        <SaveRequestDialog
          session={session}
          snap={snap}
          draft={current}
          title={snap.open ? 'Save as a new request' : 'Save request'}
          onClose={closeDialog}
        />
      ) : null}
      {snap.error && !dialog ? (
        <span role="alert" className="sv-error">
          {snap.error}
        </span>
      ) : null}
      <span role="status">
        {snap.done ? (
          <>
            {snap.done}{' '}
            <a
              href="/saved"
              onClick={(e) => {
                if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                e.preventDefault();
                onShowSaved();
              }}
            >
              Saved requests
            </a>
          </>
        ) : null}
      </span>
    </>
  );
}

/** A name and a collection (or a new one) for the workbench's request; asks before a second one of a name. */
export function SaveRequestDialog({
  session,
  snap,
  draft,
  title,
  onClose,
}: {
  session: SaveSession;
  snap: SaveSnapshot;
  draft: RequestDraft;
  title: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const { state, error: loadError } = useSaved();
  const [name, setName] = useState(() => (snap.open ? `${snap.open.name} (copy)` : suggestedName(draft)));
  const [collection, setCollection] = useState<string>(() => snap.open?.collectionId ?? '');
  const [newName, setNewName] = useState(DEFAULT_COLLECTION);
  const [error, setError] = useState<string | null>(null);
  const left = prepareShareDraft(draft).dropped.filter((d) => d.reason !== 'signature');

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const collections = state?.collections ?? [];
  // "New collection…" stays chosen once picked; an id that is gone falls back to the first collection.
  const chosen =
    collection === NEW || collections.some((c) => c.id === collection)
      ? collection
      : (collections[0]?.id ?? NEW);

  const save = async () => {
    const n = checkName(name);
    if ('error' in n) return setError(n.error);
    let target: { id: string } | { newName: string } = { id: chosen };
    if (chosen === NEW) {
      const cn = checkName(newName);
      if ('error' in cn) return setError(`Collection: ${cn.error}`);
      target = { newName: cn.name };
    }
    setError(null);
    if ((await session.saveAs({ name: n.name, collection: target })) === 'saved') onClose();
  };
  const resolve = async (choice: 'replace' | 'keep-both' | 'cancel') => {
    await session.resolveConflict(choice);
    if (choice !== 'cancel' && !session.getSnapshot().error) onClose();
  };
  const shownError =
    error ?? snap.error ?? (loadError ? `Saved requests cannot be read: ${loadError}` : null);

  return (
    <dialog
      ref={ref}
      className="ui-dialog sv-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <form
        className="sv-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label htmlFor={`${id}-name`}>Request name</label>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        <label htmlFor={`${id}-collection`}>Collection</label>
        <select id={`${id}-collection`} value={chosen} onChange={(e) => setCollection(e.target.value)}>
          {collections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
          <option value={NEW}>New collection…</option>
        </select>
        {chosen === NEW ? (
          <>
            <label htmlFor={`${id}-new`}>New collection name</label>
            <input id={`${id}-new`} value={newName} onChange={(e) => setNewName(e.target.value)} />
          </>
        ) : null}
        <p className="sv-note">
          Saved in this browser: the values, scheme, formula, endpoint and pinned nonce and timestamp. Never
          the control key or private key
          {left.length > 0
            ? `; left out: ${left.map((d) => d.name).join(', ')} (card data), to fill in when you send`
            : ''}
          .
        </p>
        {snap.conflict ? (
          <div className="sv-conflict" role="alert">
            <p>
              “{snap.conflict.name}” is already in {snap.conflict.collectionName}. Replace it with this
              request, or keep both?
            </p>
            <div className="ui-dialog-actions">
              <button type="button" className="ui-btn" onClick={() => void resolve('cancel')}>
                Cancel
              </button>
              <button type="button" className="ui-btn" onClick={() => void resolve('keep-both')}>
                Keep both
              </button>
              <button type="button" className="ui-btn ui-btn-primary" onClick={() => void resolve('replace')}>
                Replace
              </button>
            </div>
          </div>
        ) : null}
        {shownError ? (
          <p role="alert" className="sv-error">
            {shownError}
          </p>
        ) : null}
        {snap.conflict ? null : (
          <div className="ui-dialog-actions">
            <button type="button" className="ui-btn" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="ui-btn ui-btn-primary" disabled={snap.busy || !state}>
              Save
            </button>
          </div>
        )}
      </form>
    </dialog>
  );
}
