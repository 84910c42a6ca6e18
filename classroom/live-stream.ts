import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { openEventStream } from '../proxy/event-stream.ts';

/**
 * The stream under every live view: `write(res, true)` at once, then `write(res, false)` `delayMs`
 * after a change (changes in between fold into one write), a keep-alive comment every 15 s, until
 * the browser goes. `subscribe` calls back on a change that concerns this stream and answers how to
 * stop listening.
 */
export function foldedEvents(
  reply: FastifyReply,
  delayMs: number,
  subscribe: (changed: () => void) => () => void,
  write: (res: ServerResponse, first: boolean) => void,
): FastifyReply {
  const res = openEventStream(reply, 2000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  write(res, true);
  const off = subscribe(() => {
    timer ??= setTimeout(() => {
      timer = undefined;
      write(res, false);
    }, delayMs);
  });
  const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  res.on('close', () => {
    off();
    clearInterval(ping);
    if (timer) clearTimeout(timer);
  });
  return reply;
}

/** A stream of `event`: the whole of `snapshot()` at once and after each (folded) change. */
export function liveEvents(
  reply: FastifyReply,
  event: string,
  snapshot: () => unknown,
  delayMs: number,
  subscribe: (changed: () => void) => () => void,
): FastifyReply {
  return foldedEvents(reply, delayMs, subscribe, (res) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(snapshot())}\n\n`),
  );
}
