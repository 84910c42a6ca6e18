/// <reference lib="webworker" />
// The RSA signing worker: RSA-SHA256 takes 0.5 ms (2048 bits) to 4 ms (4096 bits) of the thread
// that calls Web Crypto in Chromium, which would otherwise be the page's on every keystroke.
import { webCryptoPort } from '../core/index.ts';
import { signerEndpoint, type SignerAnswer } from './rsa-signer-protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const endpoint = signerEndpoint(webCryptoPort());
let channel: BroadcastChannel | null = null;
const send = (answer: SignerAnswer) => channel?.postMessage(answer);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  void endpoint.handle(event.data).then((answer) => {
    if (!answer) return;
    if (answer.type === 'init') {
      channel = new BroadcastChannel(answer.channel);
      send({ type: 'ready' });
    } else send(answer);
  });
});
