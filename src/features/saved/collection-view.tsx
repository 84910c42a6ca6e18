import { useId, useState, type ReactNode } from 'react';
import { findOperation } from '../../catalog/index.ts';
import { missingValues, type RequestDraft } from '../../model/index.ts';
import { deleteRequest, duplicateRequest, renameCollection, updateRequest } from './saved-db.ts';
import { checkName, type Collection, type SavedRequest } from './saved-schema.ts';
import { errorText } from '../../core/errors.ts';

const text = (e: unknown) => errorText(e);

/** An inline name editor: Enter or Save keeps it, Escape or Cancel leaves it. */
function RenameForm({
  label,
  initial,
  onDone,
  onCancel,
  taken,
  takenBy,
}: {
  label: string;
  initial: string;
  onDone: (name: string) => Promise<void>;
  onCancel: () => void;
  /** Names already in use beside this one: a rename to one of them is refused, as Save asks. */
  taken: ReadonlySet<string>;
  /** What holds those names, for the message ("a request of this collection"). */
  takenBy: string;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="sv-inline"
      onSubmit={(e) => {
        e.preventDefault();
        const n = checkName(value);
        if ('error' in n) return setError(n.error);
        if (n.name !== initial && taken.has(n.name))
          return setError(
            `“${n.name}” is already ${takenBy}: choose another name (or delete or rename that one first).`,
          );
        onDone(n.name).catch((err: unknown) => setError(text(err)));
      }}
    >
      <input
        aria-label={label}
        value={value}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onCancel();
          }
        }}
      />
      <button type="submit" className="ui-btn ui-btn-small">
        Save name
      </button>
      <button type="button" className="ui-btn ui-btn-small" onClick={onCancel}>
        Cancel
      </button>
      {error ? (
        <span role="alert" className="sv-error">
          {error}
        </span>
      ) : null}
    </form>
  );
}

/** What Send asks for first: the values not kept with the request. */
function MissingNote({ draft }: { draft: RequestDraft }) {
  const missing = missingValues(draft);
  return missing.length > 0 ? (
    <div className="sv-muted">Send asks first for: {missing.map((m) => m.name).join(', ')}</div>
  ) : null;
}

function endpointText(draft: RequestDraft): string {
  if (!draft.endpoint) return 'profile’s';
  return draft.endpoint.kind === 'group' ? `group ${draft.endpoint.id}` : draft.endpoint.id;
}

/** Rows shown at first, and added by "Show more": an imported collection may hold 100,000. */
const PAGE_ROWS = 200;

/** One collection: its name (renamed in place) and its saved requests with their actions. */
export function CollectionView({
  collection: c,
  requests,
  all,
  collectionNames,
  renaming,
  setRenaming,
  act,
  onOpen,
  onSend,
  onDelete,
  onRun,
}: {
  collection: Collection;
  requests: SavedRequest[];
  all: SavedRequest[];
  /** The other collections' names (a rename to one of them is refused). */
  collectionNames: readonly string[];
  renaming: string | null;
  setRenaming: (id: string | null) => void;
  act: (p: Promise<unknown>, done?: string) => void;
  onOpen: (d: RequestDraft, savedId: string) => void;
  onSend: (d: RequestDraft, savedId: string) => void;
  onDelete: () => void;
  /** Opens the collection in the runner. */
  onRun: () => void;
}) {
  const titleId = useId();
  const [shown, setShown] = useState(PAGE_ROWS);
  const button = (label: string, aria: string, onClick: () => void, extra = ''): ReactNode => (
    <button type="button" className={`ui-btn ui-btn-small ${extra}`} aria-label={aria} onClick={onClick}>
      {label}
    </button>
  );
  return (
    <section className="sv-collection" aria-labelledby={titleId}>
      <div className="sv-collection-head">
        {renaming === c.id ? (
          <>
            <h2 id={titleId} className="ui-visually-hidden">
              {c.name}
            </h2>
            <RenameForm
              label={`New name for the collection ${c.name}`}
              initial={c.name}
              taken={new Set(collectionNames)}
              takenBy="the name of another collection"
              onCancel={() => setRenaming(null)}
              onDone={async (name) => {
                await renameCollection(c, name);
                setRenaming(null);
              }}
            />
          </>
        ) : (
          <>
            <h2 id={titleId}>{c.name}</h2>
            <span className="sv-muted">
              {requests.length} request{requests.length === 1 ? '' : 's'}
            </span>
            {requests.length > 0
              ? button('Run', `Run the collection ${c.name}`, onRun, 'ui-btn-primary')
              : null}
            {button('Rename', `Rename the collection ${c.name}`, () => setRenaming(c.id))}
            {button('Delete', `Delete the collection ${c.name}`, onDelete)}
          </>
        )}
      </div>
      {requests.length === 0 ? (
        <p className="sv-note">No requests in this collection yet.</p>
      ) : (
        <div className="ui-scroll-x" role="group" aria-label={`${c.name}, scrolls sideways`} tabIndex={0}>
          <table className="sv-table">
            <caption className="ui-visually-hidden">Requests saved in {c.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Operation</th>
                <th scope="col">Endpoint</th>
                <th scope="col">
                  <span className="ui-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.slice(0, shown).map((r) => (
                <tr key={r.id}>
                  <td>
                    {renaming === r.id ? (
                      <RenameForm
                        label={`New name for ${r.name}`}
                        initial={r.name}
                        taken={new Set(requests.filter((o) => o.id !== r.id).map((o) => o.name))}
                        takenBy="a request of this collection"
                        onCancel={() => setRenaming(null)}
                        onDone={async (name) => {
                          await updateRequest(r, { name });
                          setRenaming(null);
                        }}
                      />
                    ) : (
                      r.name
                    )}
                  </td>
                  <td>
                    <span className="sv-mono">{r.draft.operation}</span>
                    <span className="sv-muted">
                      {' '}
                      · {findOperation(r.draft.operation)?.title ?? 'unknown'}
                    </span>
                    <MissingNote draft={r.draft} />
                  </td>
                  <td className="sv-mono">{endpointText(r.draft)}</td>
                  <td>
                    <div className="sv-actions">
                      {button('Open', `Open ${r.name}`, () => onOpen(r.draft, r.id))}
                      {button('Send', `Send ${r.name}`, () => onSend(r.draft, r.id), 'ui-btn-primary')}
                      {button('Rename', `Rename ${r.name}`, () => setRenaming(r.id))}
                      {button('Duplicate', `Duplicate ${r.name}`, () =>
                        act(duplicateRequest(r, all), `Duplicated ${r.name}.`),
                      )}
                      {button('Delete', `Delete ${r.name}`, () =>
                        act(deleteRequest(r.id), `Deleted ${r.name}.`),
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {requests.length > shown ? (
        <p className="sv-note">
          Showing {shown.toLocaleString('en-US')} of {requests.length.toLocaleString('en-US')} requests.{' '}
          {button('Show more', `Show more requests of ${c.name}`, () => setShown((n) => n + PAGE_ROWS * 5))}
        </p>
      ) : null}
    </section>
  );
}
