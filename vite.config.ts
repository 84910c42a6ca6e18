import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { firstLoadChunks } from './scripts/first-load-chunks.ts';
import { FIRST_FORM_ENTRY, prerenderOps } from './scripts/prerender-ops.ts';

export default defineConfig({
  plugins: [react(), prerenderOps(), firstLoadChunks()],
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 4096,
    // Chromium preloads modules itself; the polyfill would only add bytes to the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The app, and the first-form module of the pre-rendered operation pages (scripts/prerender-ops.ts).
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        'first-form': resolve(import.meta.dirname, FIRST_FORM_ENTRY),
      },
      // Seven hash characters, not eight: the entry lists every lazy chunk's file name (the preload
      // map), where the hashes are the bytes gzip cannot shrink; seven is the fewest rolldown allows for this many chunks.
      output: { chunkFileNames: 'assets/[name]-[hash:7].js' },
    },
  },
  worker: { format: 'es' },
});
