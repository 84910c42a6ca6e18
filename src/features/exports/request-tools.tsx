import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import type { Place, RequestDraft } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import './exports.css';

const SnippetPanel = lazy(() => import('./snippet-panel.tsx').then((m) => ({ default: m.SnippetPanel })));
const SharePanel = lazy(() => import('./share-panel.tsx').then((m) => ({ default: m.SharePanel })));
const CallbackVerifierPanel = lazy(() =>
  import('./callback-verifier-panel.tsx').then((m) => ({ default: m.CallbackVerifierPanel })),
);
const ImportPanel = lazy(() => import('./import-panel.tsx').then((m) => ({ default: m.ImportPanel })));

type Panel = 'code' | 'verify' | 'share' | 'import';

const TITLES: Record<Panel, string> = {
  code: 'Export code',
  verify: 'Verify a callback',
  share: 'Share link',
  import: 'Import',
};

export interface RequestToolsProps {
  /** The workbench's current request, as the model holds it. */
  current: RequestDraft | null;
  context: SigningContext | null;
  /** Where this console runs (for the snippet's values and an import's placeholders). */
  place: Place;
  onOpen: (draft: RequestDraft) => void;
  /** More buttons for the same bar (e.g. a link to another tool). */
  children?: ReactNode;
}

/** The workbench's bar of request tools: export code, share link, import. */
export function RequestTools({ current, context, place, onOpen, children }: RequestToolsProps) {
  const [open, setOpen] = useState<Panel | null>(null);
  const id = useId();
  const toggle = (p: Panel) => setOpen((o) => (o === p ? null : p));
  return (
    <div className="ex-tools">
      <div className="ex-toolbar" role="group" aria-label="Request tools">
        {(Object.keys(TITLES) as Panel[]).map((p) => (
          <button
            key={p}
            type="button"
            className="ui-btn ui-btn-small"
            aria-expanded={open === p}
            aria-controls={`${id}-${p}`}
            onClick={() => toggle(p)}
          >
            {TITLES[p]}
          </button>
        ))}
        {children}
      </div>
      {open ? (
        <section id={`${id}-${open}`} className="ex-panel" aria-label={TITLES[open]}>
          <div className="ex-panel-head">
            <h2>{TITLES[open]}</h2>
            <button
              type="button"
              className="ui-btn ui-btn-small"
              aria-label={`Close ${TITLES[open]}`}
              onClick={() => setOpen(null)}
            >
              ×
            </button>
          </div>
          <Suspense fallback={<p role="status">Loading…</p>}>
            {open === 'code' ? <SnippetPanel draft={current} context={context} place={place} /> : null}
            {open === 'verify' ? <CallbackVerifierPanel /> : null}
            {open === 'share' ? <SharePanel draft={current} /> : null}
            {open === 'import' ? (
              <ImportPanel context={context} place={place} current={current} onOpen={onOpen} />
            ) : null}
          </Suspense>
        </section>
      ) : null}
    </div>
  );
}
