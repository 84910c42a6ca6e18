import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackStore, INBOX_LIMITS } from '../../proxy/callback-inbox.ts';
import { json, send, startConsole, type ErrorAnswer, type Running } from './helpers.ts';

interface Event {
  id: number;
  query: Record<string, string>;
}

/** The bytes the store counts for one kept callback: its JSON. */
const sizeOf = (e: unknown) => Buffer.byteLength(JSON.stringify(e));

describe('callback inbox: byte bounds (issue 9 §3.2)', () => {
  it('has bounds that keep the worst case small', () => {
    expect(INBOX_LIMITS.maxCallbackBytes).toBe(16 * 1024);
    expect(INBOX_LIMITS.maxInboxBytes).toBe(512 * 1024);
    expect(INBOX_LIMITS.maxTotalBytes).toBe(16 * 1024 * 1024);
  });

  it('refuses one callback larger than the per-callback bound, keeping nothing of it', () => {
    const store = new CallbackStore({ maxCallbackBytes: 1000 });
    expect(() => store.add('a', 'GET', { big: 'x'.repeat(1200) }, 'query')).toThrow(/1000 bytes/);
    expect(store.list('a')).toEqual([]);
    expect(store.totalBytes).toBe(0);
    expect(store.add('a', 'GET', { small: 'x'.repeat(100) }, 'query').id).toBeGreaterThan(0);
  });

  it('keeps an inbox under its byte bound by dropping its oldest callbacks', () => {
    const store = new CallbackStore({ maxInboxBytes: 5000, maxCallbackBytes: 2000 });
    for (let i = 0; i < 20; i++) store.add('a', 'GET', { n: String(i), pad: 'y'.repeat(900) }, 'query');
    const kept = store.list('a');
    const bytes = kept.reduce((s, e) => s + sizeOf(e), 0);
    expect(bytes).toBeLessThanOrEqual(5000);
    expect(kept.length).toBeGreaterThanOrEqual(4);
    // The newest are the ones kept, in order.
    expect(kept.map((e) => e.query.n)).toEqual(
      Array.from({ length: kept.length }, (_, i) => String(20 - kept.length + i)),
    );
    expect(store.totalBytes).toBe(bytes);
  });

  it('keeps all inboxes together under the total bound, dropping the oldest callbacks first', () => {
    const store = new CallbackStore({
      maxInboxBytes: 100_000,
      maxTotalBytes: 10_000,
      maxCallbackBytes: 2000,
    });
    for (let i = 0; i < 30; i++)
      store.add(`box-${i % 3}`, 'GET', { n: String(i), pad: 'z'.repeat(900) }, 'query');
    const all = ['box-0', 'box-1', 'box-2'].flatMap((b) => store.list(b));
    expect(all.reduce((s, e) => s + sizeOf(e), 0)).toBeLessThanOrEqual(10_000);
    expect(store.totalBytes).toBeLessThanOrEqual(10_000);
    const kept = all.map((e) => Number(e.query.n)).sort((a, b) => a - b);
    expect(kept.length).toBeGreaterThanOrEqual(8);
    // Exactly the newest survive, across inboxes.
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 30 - kept.length + i));
  });

  it('frees the bytes of a cleared inbox', () => {
    const store = new CallbackStore();
    store.add('a', 'GET', { n: '1' }, 'query');
    expect(store.totalBytes).toBeGreaterThan(0);
    store.clear('a');
    expect(store.totalBytes).toBe(0);
  });

  describe('over HTTP', () => {
    let server: Running;
    beforeAll(async () => {
      server = await startConsole();
    });
    afterAll(async () => {
      await server.close();
    });

    it('answers 413 CALLBACK_TOO_LARGE to a GET callback over 16 KiB, and keeps nothing', async () => {
      // 12 KB of URL that JSON writes as 24 KB (\u0001 escapes): within Node's header limit, over ours.
      const q = `status=approved&pad=${'%01'.repeat(4_000)}`;
      const answer = await send(server.port, 'GET', `/callbacks/huge?${q}`);
      expect(answer.status).toBe(413);
      expect(json<ErrorAnswer>(answer).error.code).toBe('CALLBACK_TOO_LARGE');
      expect(json<ErrorAnswer>(answer).error.message).toContain('16384');
      expect(json<Event[]>(await send(server.port, 'GET', '/callbacks/huge/list'))).toEqual([]);
    });

    it('answers 413 to a form body over 16 KiB', async () => {
      const answer = await send(
        server.port,
        'POST',
        '/callbacks/huge-form',
        { 'content-type': 'application/x-www-form-urlencoded' },
        `status=approved&pad=${'p'.repeat(17_000)}`,
      );
      expect(answer.status).toBe(413);
      expect(json<Event[]>(await send(server.port, 'GET', '/callbacks/huge-form/list'))).toEqual([]);
    });
  });
});

describe('callback inbox: foreign Origin (issue 9 §3.3)', () => {
  let server: Running;
  beforeAll(async () => {
    server = await startConsole();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['GET', 'POST'])('refuses a %s callback sent by a foreign web page', async (method) => {
    const answer = await send(server.port, method, '/callbacks/victim?status=approved&orderid=1', {
      origin: 'http://evil.example',
    });
    expect(answer.status).toBe(403);
    expect(json<ErrorAnswer>(answer).error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(json<Event[]>(await send(server.port, 'GET', '/callbacks/victim/list'))).toEqual([]);
  });

  it.each(['null', 'http://127.0.0.1:1', 'https://127.0.0.1'])('refuses Origin %j', async (origin) => {
    const answer = await send(server.port, 'GET', '/callbacks/victim?status=approved', { origin });
    expect(answer.status).toBe(403);
  });

  it('refuses reading and streaming an inbox from a foreign page', async () => {
    for (const path of ['/callbacks/victim/list', '/callbacks/victim/events']) {
      const answer = await send(server.port, 'GET', path, { origin: 'http://evil.example' });
      expect(answer.status).toBe(403);
    }
  });

  it("accepts callbacks without Origin (gateways send none) and from the console's own origin", async () => {
    expect((await send(server.port, 'GET', '/callbacks/mine?status=approved')).status).toBe(200);
    expect(
      (await send(server.port, 'GET', '/callbacks/mine?status=declined', { origin: server.origin })).status,
    ).toBe(200);
    expect(json<Event[]>(await send(server.port, 'GET', '/callbacks/mine/list'))).toHaveLength(2);
  });
});
