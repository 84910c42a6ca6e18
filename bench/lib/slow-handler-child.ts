/**
 * A merchant's callback handler for the bench, in its own process: answers every callback 200
 * after `--delay-ms` (a timer, no thread), and `GET /count` with how many arrived, when the first
 * and last did and over how many connections (the relay should reuse them). Prints `listening <port>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const delayMs = Number(process.argv[2] ?? 50);
let count = 0;
let first = 0;
let last = 0;
let connections = 0;
const server = createServer((req, res) => {
  if (req.url === '/count') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ count, first, last, connections }));
    return;
  }
  const now = performance.now() + performance.timeOrigin;
  if (count === 0) first = now;
  count++;
  last = now;
  setTimeout(() => res.end('OK'), delayMs);
});
server.on('connection', () => connections++);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
