// `npm start` (after `vite build`): the console, the proxy, the callback inbox and the local sandbox.
import { startServer } from './start-server.ts';

await startServer('(npm start)');
