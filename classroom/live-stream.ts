import type { FastifyReply } from 'fastify';
import { openEventStream } from '../proxy/event-stream.ts';

/**
 * A server-sent event stream of `event`: `snapshot()` at once, and again `delayMs` after a change
 * (changes in between fold into one send), until the browser goes. `subscribe` calls back on a
 * change that concerns this stream and answers how to stop listening.
 */
export function liveEvents(
  reply: FastifyReply,
  event: string,
  snapshot: () => unknown,
  delayMs: number,
  subscribe: (changed: () => void) => () => void,
): FastifyReply {
  const res = openEventStream(reply, 2000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = () => {
    timer = undefined;
    res.write(`event: ${event}\ndata: ${JSON.stringify(snapshot())}\n\n`);
  };
  send();
  const off = subscribe(() => {
    if (timer === undefined) timer = setTimeout(send, delayMs);
  });
  const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  res.on('close', () => {
    off();
    clearInterval(ping);
    if (timer) clearTimeout(timer);
  });
  return reply;
}
