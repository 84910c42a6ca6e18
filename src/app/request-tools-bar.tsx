import { lazy, Suspense, useState } from 'react';
import { RequestTools } from '../features/exports/index.ts';
import { listExchanges } from '../features/history/index.ts';
import type { Place, RequestDraft } from '../model/index.ts';
import type { SigningContext } from '../model/signing-context.ts';
import { useCurrentRequest } from './current-request.ts';
import { navigate } from './router.ts';
import { teachHref } from './routes.ts';

const SavedRequestTools = lazy(() =>
  import('../features/saved/save-dialog.tsx').then((m) => ({ default: m.SavedRequestTools })),
);
const ExportsPage = lazy(() =>
  import('../features/exports/exports-page.tsx').then((m) => ({ default: m.ExportsPage })),
);

/** Export code, share link, import and "Teach this" for the operation the workbench shows. */
export function WorkbenchTools({
  operationPath,
  context,
  place,
  onOpen,
  savedId,
}: {
  operationPath: string;
  context: SigningContext | null;
  place: Place;
  onOpen: (draft: RequestDraft) => void;
  /** The saved request the workbench was opened from (an id from history state: looked up, never trusted). */
  savedId: string | undefined;
}) {
  const latest = useCurrentRequest();
  const current = latest?.operation === operationPath ? latest : null;
  // Clicks on "Save request"; the saved request's tools load with the first one or an opened request.
  const [asks, setAsks] = useState(0);
  // Set once the saved request is open (not merely named by the navigation: it may be gone).
  const [open, setOpen] = useState<string>();
  return (
    <RequestTools current={current} context={context} place={place} onOpen={onOpen}>
      {open ? null : (
        <button
          type="button"
          className="ui-btn ui-btn-small"
          aria-haspopup="dialog"
          disabled={!current}
          onClick={() => setAsks((n) => n + 1)}
        >
          Save request
        </button>
      )}
      <button
        type="button"
        className="ui-btn ui-btn-small"
        onClick={() => navigate(teachHref(operationPath), current ? { draft: current } : null)}
      >
        Teach this
      </button>
      {asks || savedId ? (
        <Suspense fallback={null}>
          <SavedRequestTools
            current={current}
            savedId={savedId}
            place={place}
            asks={asks}
            onOpened={setOpen}
            onShowSaved={() => navigate('/saved')}
          />
        </Suspense>
      ) : null}
    </RequestTools>
  );
}

export function ExportsRoute({
  context,
  place,
  onOpen,
}: {
  context: SigningContext | null;
  place: Place;
  onOpen: (draft: RequestDraft) => void;
}) {
  const current = useCurrentRequest();
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <ExportsPage
        current={current}
        context={context}
        place={place}
        loadExchanges={listExchanges}
        onOpen={onOpen}
      />
    </Suspense>
  );
}
