/** The peers' file server (lib/peers.ts) in a bench child process, like the console's server. */
import { reportStartFailure, serveBenchParent } from './child-process.ts';
import { startPeerServer } from './peers.ts';

try {
  const peers = await startPeerServer();
  serveBenchParent(Number(new URL(peers.origin).port), () => peers.close());
} catch (err) {
  reportStartFailure(err);
}
