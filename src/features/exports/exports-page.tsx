import type { Place, RequestDraft } from '../../model/index.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { DownloadsPanel } from './downloads-panel.tsx';
import { ImportPanel } from './import-panel.tsx';
import { SharePanel } from './share-panel.tsx';
import { SnippetPanel } from './snippet-panel.tsx';
import './exports.css';

export interface ExportsPageProps {
  /** The last request the workbench held, if any. */
  current: RequestDraft | null;
  context: SigningContext | null;
  place: Place;
  /** History's exchanges (already masked), for the HAR export. */
  loadExchanges: () => Promise<Exchange[]>;
  onOpen: (draft: RequestDraft) => void;
}

export function ExportsPage({ current, context, place, loadExchanges, onOpen }: ExportsPageProps) {
  return (
    <div className="ex-page">
      <h1>Imports and exports</h1>
      <p className="ex-lead">
        Nothing here carries a secret unless you ask for it: snippets read the keys from the environment, the
        collection's key variables stay empty, share links hold values only, and HAR files are masked.
      </p>
      <section className="ex-section" aria-labelledby="ex-import-title">
        <h2 id="ex-import-title">Import a request</h2>
        <ImportPanel context={context} place={place} current={current} onOpen={onOpen} />
      </section>
      <section className="ex-section" aria-labelledby="ex-dl-title">
        <h2 id="ex-dl-title">Downloads</h2>
        <DownloadsPanel context={context} place={place} loadExchanges={loadExchanges} />
      </section>
      <section className="ex-section" aria-labelledby="ex-code-title">
        <h2 id="ex-code-title">
          Code for the current request
          {current ? <code className="ex-op">{current.operation}</code> : null}
        </h2>
        <SnippetPanel draft={current} context={context} place={place} />
      </section>
      <section className="ex-section" aria-labelledby="ex-share-title">
        <h2 id="ex-share-title">Share the current request</h2>
        <SharePanel draft={current} />
      </section>
    </div>
  );
}
