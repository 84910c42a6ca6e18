import { useEffect, useId, useRef, useState } from 'react';
import { findOperation } from '../../catalog/index.ts';
import type { RequestDraft } from '../../model/index.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import { prepareShareDraft } from '../../model/share-link.ts';
import { createCollection, saveRequest } from './saved-db.ts';
import { checkName } from './saved-schema.ts';
import { useSaved } from './use-saved.ts';
import './saved.css';

const NEW = '__new__';
const DEFAULT_COLLECTION = 'My requests';

function suggestedName(draft: RequestDraft): string {
  const title = findOperation(draft.operation)?.title ?? draft.operation;
  const order = draft.values.client_orderid ?? draft.values['client-order-id'];
  return typeof order === 'string' && order !== '' ? `${title} ${order}` : title;
}

/**
 * The workbench's "Save request" after its button: the dialog, then what was saved (with a link to
 * the Saved page). Loaded on the first click, so the first page carries only the button.
 */
export function SaveTool({ draft, onShowSaved }: { draft: RequestDraft; onShowSaved: () => void }) {
  const [saved, setSaved] = useState<string | null>(null);
  const [open, setOpen] = useState(true);
  return (
    <>
      {open ? (
        <SaveRequestDialog
          draft={draft}
          onClose={() => setOpen(false)}
          onSaved={(text) => {
            setOpen(false);
            setSaved(text);
          }}
        />
      ) : null}
      {saved ? (
        <span role="status">
          {saved}{' '}
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
        </span>
      ) : null}
    </>
  );
}

/** "Save request": a name and a collection (or a new one) for the workbench's current request. */
export function SaveRequestDialog({
  draft,
  onClose,
  onSaved,
}: {
  draft: RequestDraft;
  onClose: () => void;
  onSaved: (text: string) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const { state, error: loadError } = useSaved();
  const [name, setName] = useState(() => suggestedName(draft));
  const [collection, setCollection] = useState<string>('');
  const [newName, setNewName] = useState(DEFAULT_COLLECTION);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const left = prepareShareDraft(draft).dropped.filter((d) => d.reason !== 'signature');

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const collections = state?.collections ?? [];
  const chosen = collection || (collections[0]?.id ?? NEW);

  const save = async () => {
    const n = checkName(name);
    if ('error' in n) return setError(n.error);
    let collectionId = chosen;
    let collectionName = collections.find((c) => c.id === chosen)?.name ?? '';
    setBusy(true);
    try {
      if (chosen === NEW) {
        const cn = checkName(newName);
        if ('error' in cn) return setError(`Collection: ${cn.error}`);
        const c = await createCollection(cn.name);
        collectionId = c.id;
        collectionName = c.name;
      }
      await saveRequest({ name: n.name, collectionId, draft: maskDraft(draft) });
      onSaved(`Saved “${n.name}” in ${collectionName}.`);
    } catch (e) {
      setError(`Not saved: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

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
      <h2 id={`${id}-title`}>Save request</h2>
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
          {left.length > 0 ? `; left out: ${left.map((d) => d.name).join(', ')} (card data)` : ''}.
        </p>
        {error || loadError ? (
          <p role="alert" className="sv-error">
            {error ?? `Saved requests cannot be read: ${loadError}`}
          </p>
        ) : null}
        <div className="ui-dialog-actions">
          <button type="button" className="ui-btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="ui-btn ui-btn-primary" disabled={busy || !state}>
            Save
          </button>
        </div>
      </form>
    </dialog>
  );
}
