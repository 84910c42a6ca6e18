import { lazy, Suspense, useState } from 'react';
import { RequestTools } from '../features/exports/index.ts';
import { listExchanges } from '../features/history/index.ts';
import type { Place, RequestDraft } from '../model/index.ts';
import type { SigningContext } from '../shared/contracts/contracts.ts';
import { useCurrentRequest } from './current-request.ts';
import { navigate } from './router.ts';
import { teachHref } from './routes.ts';

const SaveTool = lazy(() =>
  import('../features/saved/save-dialog.tsx').then((m) => ({ default: m.SaveTool })),
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
}: {
  operationPath: string;
  context: SigningContext | null;
  place: Place;
  onOpen: (draft: RequestDraft) => void;
}) {
  const latest = useCurrentRequest();
  const current = latest?.operation === operationPath ? latest : null;
  // Each click opens a fresh dialog (the key), which then shows what was saved.
  const [saving, setSaving] = useState<{ draft: RequestDraft; n: number } | null>(null);
  return (
    <RequestTools current={current} context={context} place={place} onOpen={onOpen}>
      <button
        type="button"
        className="ui-btn ui-btn-small"
        aria-haspopup="dialog"
        disabled={!current}
        onClick={() => current && setSaving((s) => ({ draft: current, n: (s?.n ?? 0) + 1 }))}
      >
        Save request
      </button>
      <button
        type="button"
        className="ui-btn ui-btn-small"
        onClick={() => navigate(teachHref(operationPath), current ? { draft: current } : null)}
      >
        Teach this
      </button>
      {saving ? (
        <Suspense fallback={null}>
          <SaveTool key={saving.n} draft={saving.draft} onShowSaved={() => navigate('/saved')} />
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
