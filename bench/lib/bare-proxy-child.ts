/**
 * The baseline: a bare pass-through proxy in node:http (keep-alive to the upstream, no checks, no
 * envelope), forwarding every request as it is to 127.0.0.1:<argv[2]>.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportStartFailure, serveBenchParent } from './child-process.ts';

const upstreamPort = Number(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const server = http.createServer((req, res) => {
  const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}` };
  const up = http.request(
    { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  up.on('error', () => res.writeHead(502).end());
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () =>
  serveBenchParent((server.address() as AddressInfo).port, async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }),
);
server.on('error', reportStartFailure);
