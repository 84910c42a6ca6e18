import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskCallbackFields } from '../../proxy/callback-inbox.ts';
import { json, send, startConsole, type ErrorAnswer, type Running } from './helpers.ts';

interface Event {
  id: number;
  inbox: string;
  receivedAt: string;
  method: string;
  source: string;
  query: Record<string, string>;
}

let server: Running;

beforeAll(async () => {
  server = await startConsole({ CALLBACK_KEEPALIVE_MS: '50' });
});
afterAll(async () => {
  await server.close();
});

/** Reads server-sent events until `until` says stop; returns the raw text. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  until: (text: string) => boolean,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

function dataLines(text: string): Event[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Event);
}

describe('callback inbox', () => {
  it('receives a GET callback with its query, answers 200 OK, and lists it', async () => {
    const q =
      'status=approved&orderid=1234567&merchant_order=hf-abc&client_orderid=hf-abc&amount=10.42&type=sale&control=652ace404c4dfe8bba069ecee594ec23a89340e1';
    const answer = await send(server.port, 'GET', `/callbacks/shop-1?${q}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('OK');
    const list = json<Event[]>(await send(server.port, 'GET', '/callbacks/shop-1/list'));
    expect(list).toHaveLength(1);
    const e = list[0]!;
    expect(e.method).toBe('GET');
    expect(e.inbox).toBe('shop-1');
    expect(e.source).toBe('query');
    expect(Number.isNaN(Date.parse(e.receivedAt))).toBe(false);
    expect(e.query).toEqual(Object.fromEntries(new URLSearchParams(q)));
  });

  it('answers a customer’s browser with a page saying the tab can be closed, and records the return', async () => {
    const q = 'cres=eyJ0cmFuc1N0YXR1cyI6IlkifQ&orderid=77&client_orderid=tds-1';
    const answer = await send(server.port, 'GET', `/callbacks/shop-3?${q}`, {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'");
    expect(answer.body).toContain('<h1>Authentication done, you can close this tab</h1>');
    expect(answer.body).not.toContain('eyJ0cmFuc1N0YXR1cyI6IlkifQ');
    const [e] = json<Event[]>(await send(server.port, 'GET', '/callbacks/shop-3/list'));
    expect(e?.query.cres).toBe('eyJ0cmFuc1N0YXR1cyI6IlkifQ');
    // A server callback (no text/html) keeps its plain OK.
    expect((await send(server.port, 'GET', `/callbacks/shop-3?${q}`, { accept: '*/*' })).body).toBe('OK');
  });

  it('receives a POST form callback, merging the query and the body', async () => {
    const answer = await send(
      server.port,
      'POST',
      '/callbacks/shop-2?status=declined',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'orderid=99&merchant_order=a%20b&error_message=Insufficient+funds',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('OK');
    const [e] = json<Event[]>(await send(server.port, 'GET', '/callbacks/shop-2/list'));
    expect(e?.method).toBe('POST');
    expect(e?.source).toBe('query+body');
    expect(e?.query).toEqual({
      status: 'declined',
      orderid: '99',
      merchant_order: 'a b',
      error_message: 'Insufficient funds',
    });
  });

  it('masks a full card number and drops a CVV, but keeps the signed fields and ids', async () => {
    await send(
      server.port,
      'GET',
      '/callbacks/mask?orderid=4444444444444448&card=4444%204444%204444%204448&cvv2=123&status=approved&card-ref-id=4444444444444448&note=12345',
    );
    const [e] = json<Event[]>(await send(server.port, 'GET', '/callbacks/mask/list'));
    expect(e?.query.card).toBe('444444******4448');
    expect(e?.query.cvv2).toBe('***');
    expect(e?.query.orderid).toBe('4444444444444448');
    expect(e?.query['card-ref-id']).toBe('4444444444444448');
    expect(e?.query.note).toBe('12345');
    expect(JSON.stringify(e)).not.toContain('4444 4444');
  });

  it('leaves a Luhn-invalid long number alone', () => {
    expect(maskCallbackFields({ ref: '4444444444444449', pan: '5555555555554444' })).toEqual({
      ref: '4444444444444449',
      pan: '555555******4444',
    });
  });

  it('keeps the last 200 callbacks per inbox', async () => {
    for (let i = 0; i < 205; i++) server.app.callbackStore.add('many', 'GET', { n: String(i) }, 'query');
    const list = json<Event[]>(await send(server.port, 'GET', '/callbacks/many/list'));
    expect(list).toHaveLength(200);
    expect(list[0]?.query.n).toBe('5');
    expect(list[199]?.query.n).toBe('204');
  });

  it('streams a callback received after the stream opened, with keep-alive comments', async () => {
    const res = await fetch(`${server.origin}/callbacks/live/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const reading = readStream(res.body!, (t) => t.includes('data: ') && t.includes(': keep-alive'));
    const sent = await send(server.port, 'GET', '/callbacks/live?status=approved&orderid=77');
    expect(sent.body).toBe('OK');
    const text = await reading;
    const events = dataLines(text);
    expect(events).toHaveLength(1);
    expect(events[0]?.query).toEqual({ status: 'approved', orderid: '77' });
    expect(text).toMatch(new RegExp(`^id: ${events[0]?.id}$`, 'm'));
  });

  it('replays the callbacks after Last-Event-ID', async () => {
    await send(server.port, 'GET', '/callbacks/replay?n=1');
    const [first] = json<Event[]>(await send(server.port, 'GET', '/callbacks/replay/list'));
    await send(server.port, 'GET', '/callbacks/replay?n=2');
    const res = await fetch(`${server.origin}/callbacks/replay/events`, {
      headers: { 'last-event-id': String(first?.id) },
    });
    const events = dataLines(await readStream(res.body!, (t) => t.includes('data: ')));
    expect(events.map((e) => e.query.n)).toEqual(['2']);
  });

  it('refuses a bad inbox name and unknown addresses with JSON errors', async () => {
    const bad = await send(server.port, 'GET', `/callbacks/${'x'.repeat(65)}`);
    expect(bad.status).toBe(400);
    expect(json<ErrorAnswer>(bad).error.code).toBe('INBOX_INVALID');
    const dotted = await send(server.port, 'GET', '/callbacks/a.b');
    expect(dotted.status).toBe(400);
    const deep = await send(server.port, 'GET', '/callbacks/a/b/c');
    expect(deep.status).toBe(404);
    expect(json<ErrorAnswer>(deep).error.code).toBe('NOT_FOUND');
  });

  it('clears an inbox with DELETE', async () => {
    await send(server.port, 'GET', '/callbacks/clear-me?x=1');
    expect((await send(server.port, 'DELETE', '/callbacks/clear-me')).status).toBe(204);
    expect(json<Event[]>(await send(server.port, 'GET', '/callbacks/clear-me/list'))).toEqual([]);
  });
});
