import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, sendCallback } from '../../../sandbox/relay/send-callback.ts';

/** A handler with one behaviour per path; `/hang` never answers. */
let server: Server;
let base: string;
beforeEach(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/long':
        res.end('x'.repeat(150) + 'é'.repeat(100));
        return;
      case '/empty':
        res.writeHead(204).end();
        return;
      case '/chunks':
        res.write('a'.repeat(120));
        setTimeout(() => res.end('b'.repeat(120)), 10);
        return;
      case '/cut':
        res.writeHead(200, { 'content-length': '1000' });
        res.write('partial');
        setTimeout(() => res.destroy(), 10);
        return;
      case '/hang':
        return;
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('sendCallback', () => {
  const running = new AbortController().signal;

  it('keeps the first characters of the answer, across chunks, and what arrived of a body cut short', async () => {
    const long = await sendCallback(new URL(`${base}/long`), 2_000, running);
    expect(long).toMatchObject({ httpStatus: 200, result: 'HTTP 200' });
    expect(long.bodyExcerpt).toBe(`${'x'.repeat(150)}${'é'.repeat(EXCERPT_CHARS - 150)}…`);
    expect((await sendCallback(new URL(`${base}/chunks`), 2_000, running)).bodyExcerpt).toBe(
      `${'a'.repeat(120)}${'b'.repeat(80)}…`,
    );
    expect((await sendCallback(new URL(`${base}/empty`), 2_000, running)).bodyExcerpt).toBeNull();
    expect(await sendCallback(new URL(`${base}/cut`), 2_000, running)).toMatchObject({
      httpStatus: 200,
      bodyExcerpt: 'partial',
    });
  });

  it('times out a handler that does not answer', async () => {
    expect(await sendCallback(new URL(`${base}/hang`), 100, running)).toMatchObject({
      httpStatus: null,
      result: 'timeout',
      bodyExcerpt: null,
    });
  });

  it('aborts every send in flight under a stop signal at once, and only those', async () => {
    const stop = new AbortController();
    const other = new AbortController();
    const stopped = Array.from({ length: 20 }, () =>
      sendCallback(new URL(`${base}/hang`), 10_000, stop.signal),
    );
    const elsewhere = sendCallback(new URL(`${base}/hang`), 300, other.signal);
    const done = sendCallback(new URL(`${base}/empty`), 10_000, stop.signal);
    expect((await done).httpStatus).toBe(204);
    stop.abort(new Error('sandbox stopped'));
    for (const answer of await Promise.all(stopped))
      expect(answer).toMatchObject({ httpStatus: null, result: 'network error: sandbox stopped' });
    // Not stopped: its own timeout ends it.
    expect(await elsewhere).toMatchObject({ httpStatus: null, result: 'timeout' });
  });
});
