import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { consoleHeaders } from './security-headers.ts';

/**
 * Takes the reply over as a server-sent event stream and writes the reconnect delay. The caller
 * owns the socket from here on: fastify no longer answers for it.
 */
export function openEventStream(reply: FastifyReply, retryMs: number): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    // The stream holds the connection; when it ends (server shutdown), the socket goes too.
    connection: 'close',
    // Proxies in front (nginx) must not buffer the events.
    'x-accel-buffering': 'no',
    ...consoleHeaders(),
  });
  res.write(`retry: ${retryMs}\n\n`);
  return res;
}
