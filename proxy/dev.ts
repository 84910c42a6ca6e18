// `npm run dev`: the same server as `npm start`, with Vite's dev server mounted in it (middleware
// mode) for the console's pages and hot reload. One port: the proxy, the sandbox and the callback
// inbox are where they are in production, and the hot-reload WebSocket shares the HTTP server.
import type { createServer as CreateServer } from 'vite';
import { startServer } from './start-server.ts';

// Loaded by name at run time: Vite is a development dependency that `npm start` never loads, and
// eslint-plugin-import-x's no-cycle crashes when it follows a value import into vite/dist/node.
const vitePackage = 'vite';
const { createServer } = (await import(vitePackage)) as { createServer: typeof CreateServer };

await startServer('(npm run dev, hot reload)', () => ({
  vite: (httpServer) =>
    createServer({
      appType: 'spa',
      server: { middlewareMode: true, hmr: { server: httpServer } },
    }),
}));
