import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { takeOverFirstForm } from './app/first-form-takeover.ts';
import { initTheme } from './app/theme.ts';
import { settleProfilesPrefetch, startProfilesPrefetch } from './features/profiles/index.ts';

// Ask for the targets, the demo merchant and the vault now, not after the first render.
const started = startProfilesPrefetch();
initTheme();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
// A pre-rendered operation page: its form stays live until the app's own form takes its values over.
takeOverFirstForm(root);
// index.html preloaded the two answers, so this wait is usually nothing; with them in hand the
// first render shows the profile and a signed form, not a "waiting" state and a second render. A
// slow server delays the first paint by the cap at the most; what arrives later is used as it comes.
// (Not a top-level await: that would make the bundler split the first load into many more chunks.)
void settleProfilesPrefetch(started, 400).then((prefetch) =>
  createRoot(root).render(
    <StrictMode>
      <App prefetch={prefetch} />
    </StrictMode>,
  ),
);
