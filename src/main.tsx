import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { initTheme } from './app/theme.ts';
import { startProfilesPrefetch } from './features/profiles/index.ts';

// Ask for the targets, the demo merchant and the vault now, not after the first render.
const prefetch = startProfilesPrefetch();
initTheme();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App prefetch={prefetch} />
  </StrictMode>,
);
