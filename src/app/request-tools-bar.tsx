import { lazy, Suspense } from 'react';
import { RequestTools } from '../features/exports/index.ts';
import { listExchanges } from '../features/history/index.ts';
import type { Place, RequestDraft } from '../model/index.ts';
import type { SigningContext } from '../shared/contracts/contracts.ts';
import { useCurrentRequest } from './current-request.ts';
import { navigate } from './router.ts';
import { teachHref } from './routes.ts';

const ExportsPage = lazy(() =>
  import('../features/exports/exports-page.tsx').then((m) => ({ default: m.ExportsPage })),
);

/** Export code, share link, import and "Teach this" for the operation the workbench shows. */
export function WorkbenchTools({
  operationPath,
  context,
  place,
  onOpen,
}: {
  operationPath: string;
  context: SigningContext | null;
  place: Place;
  onOpen: (draft: RequestDraft) => void;
}) {
  const latest = useCurrentRequest();
  const current = latest?.operation === operationPath ? latest : null;
  return (
    <RequestTools current={current} context={context} place={place} onOpen={onOpen}>
      <button
        type="button"
        className="ui-btn ui-btn-small"
        onClick={() => navigate(teachHref(operationPath), current ? { draft: current } : null)}
      >
        Teach this
      </button>
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
