import type { Exchange, FormPreset, SigningContext } from '../../shared/contracts/contracts.ts';
import { DownloadsPanel } from './downloads-panel.tsx';
import { ImportPanel } from './import-panel.tsx';
import { SharePanel } from './share-panel.tsx';
import { SnippetPanel } from './snippet-panel.tsx';
import './exports.css';

export interface ExportsPageProps {
  /** The last request the workbench held, if any. */
  current: FormPreset | null;
  context: SigningContext | null;
  /** History's exchanges (already masked), for the HAR export. */
  loadExchanges: () => Promise<Exchange[]>;
  onOpen: (preset: FormPreset) => void;
}

export function ExportsPage({ current, context, loadExchanges, onOpen }: ExportsPageProps) {
  return (
    <div className="ex-page">
      <h1>Imports and exports</h1>
      <p className="ex-lead">
        Nothing here carries a secret unless you ask for it: snippets read the keys from the environment, the
        collection's key variables stay empty, share links hold values only, and HAR files are masked.
      </p>
      <section className="ex-section" aria-labelledby="ex-import-title">
        <h2 id="ex-import-title">Import a request</h2>
        <ImportPanel context={context} onOpen={onOpen} />
      </section>
      <section className="ex-section" aria-labelledby="ex-dl-title">
        <h2 id="ex-dl-title">Downloads</h2>
        <DownloadsPanel context={context} loadExchanges={loadExchanges} />
      </section>
      <section className="ex-section" aria-labelledby="ex-code-title">
        <h2 id="ex-code-title">
          Code for the current request
          {current ? <code className="ex-op">{current.operationPath}</code> : null}
        </h2>
        <SnippetPanel preset={current} context={context} />
      </section>
      <section className="ex-section" aria-labelledby="ex-share-title">
        <h2 id="ex-share-title">Share the current request</h2>
        <SharePanel preset={current} />
      </section>
    </div>
  );
}
