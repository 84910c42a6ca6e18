/** History as HAR 1.2: the required fields of the format, and masking that does not trust its input. */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { exchangesToHar } from '../../src/exports/index.ts';
import type { Exchange } from '../../src/model/exchange.ts';

/** HAR 1.2 (softwareishard.com/blog/har-12-spec): the objects and fields the format requires. */
const nameValue = z.object({ name: z.string(), value: z.string() }).loose();
const harSchema = z.object({
  log: z
    .object({
      version: z.literal('1.2'),
      creator: z.object({ name: z.string().min(1), version: z.string() }).loose(),
      entries: z.array(
        z
          .object({
            startedDateTime: z.iso.datetime({ offset: true }),
            time: z.number().nonnegative(),
            request: z
              .object({
                method: z.string().min(1),
                url: z.url(),
                httpVersion: z.string().min(1),
                cookies: z.array(nameValue),
                headers: z.array(nameValue),
                queryString: z.array(nameValue),
                postData: z
                  .object({ mimeType: z.string(), params: z.array(nameValue), text: z.string() })
                  .loose()
                  .optional(),
                headersSize: z.number().int(),
                bodySize: z.number().int(),
              })
              .loose(),
            response: z
              .object({
                status: z.number().int(),
                statusText: z.string(),
                httpVersion: z.string(),
                cookies: z.array(nameValue),
                headers: z.array(nameValue),
                content: z
                  .object({ size: z.number().int(), mimeType: z.string(), text: z.string().optional() })
                  .loose(),
                redirectURL: z.string(),
                headersSize: z.number().int(),
                bodySize: z.number().int(),
              })
              .loose(),
            cache: z.object({}).loose(),
            timings: z
              .object({ send: z.number().min(-1), wait: z.number().min(-1), receive: z.number().min(-1) })
              .loose(),
          })
          .loose(),
      ),
    })
    .loose(),
});

const PAN = '4444444444444448';
const OTHER_PAN = '4111 1111 1111 1111';

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    operationPath: 'v2/sale',
    profileName: 'Demo',
    targetName: 'local sandbox',
    sentAt: '2026-11-22T10:00:00.000Z',
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4174/sandbox/paynet/api/v2/sale/1111',
      headers: [
        { name: 'Accept', value: 'application/vnd.pay+json' },
        { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
        { name: 'X-Merchant-Control-Key', value: 'B17F59B4-A7DC' },
      ],
      body: [
        { name: 'client_orderid', value: 'inv-1' },
        { name: 'amount', value: '10.42' },
        { name: 'credit_card_number', value: PAN },
        { name: 'cvv2', value: '123' },
        { name: 'order_desc', value: `paid with ${OTHER_PAN}` },
        { name: 'control', value: 'c6bdd88a78834ef4b863b088827a459f039e8257' },
      ],
      pinned: { nonce: 'abc', timestamp: '1700000000' },
    },
    response: {
      status: 200,
      elapsedMs: 42,
      headers: { 'content-type': 'application/vnd.pay+json', 'set-cookie': 'session=secret' },
      body: `{"type":"status-response","card-number":"${PAN}","cvv2":"123","status":"approved"}`,
    },
    ...over,
  };
}

describe('HAR export', () => {
  test('the log has every field HAR 1.2 requires', () => {
    const har = exchangesToHar([
      exchange(),
      exchange({ response: undefined, error: `network down for ${PAN}` }),
    ]);
    const parsed = harSchema.safeParse(har);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(har.log.entries).toHaveLength(2);
    const [ok, failed] = har.log.entries;
    expect(ok!.time).toBe(42);
    expect(ok!.response).toMatchObject({
      status: 200,
      statusText: 'OK',
      content: { mimeType: 'application/vnd.pay+json' },
    });
    expect(ok!.request.postData?.mimeType).toBe('application/x-www-form-urlencoded');
    expect(ok!._operationPath).toBe('v2/sale');
    expect(failed!.response.status).toBe(0);
    expect(failed!.response._error).toContain('network down');
  });

  test('card numbers are masked, CVVs, secret headers and cookies dropped, wherever they are', () => {
    const har = exchangesToHar([
      exchange(),
      exchange({ response: undefined, error: `network down for ${PAN}` }),
    ]);
    const text = JSON.stringify(har);
    expect(text).not.toContain(PAN);
    expect(text).not.toContain(OTHER_PAN);
    expect(text).not.toMatch(/cvv2[^-]/);
    expect(text).not.toContain('B17F59B4');
    expect(text).not.toContain('session=secret');
    const entry = har.log.entries[0]!;
    expect(entry.request.postData!.params).toContainEqual({
      name: 'credit_card_number',
      value: '444444******4448',
    });
    expect(entry.request.postData!.params).toContainEqual({
      name: 'order_desc',
      value: 'paid with 4111 11** **** 1111',
    });
    expect(entry.request.postData!.params.map((p) => p.name)).not.toContain('cvv2');
    expect(entry.request.postData!.text).toContain('credit_card_number=444444%2A%2A%2A%2A%2A%2A4448');
    expect(entry.request.postData!.text).not.toContain('cvv2');
    expect(entry.request.headers.map((h) => h.name)).toEqual(['Accept', 'Content-Type']);
    expect(entry.response.content.text).toContain('444444******4448');
    // The signature is not a secret: it stays, so support can re-check the request.
    expect(entry.request.postData!.params).toContainEqual({
      name: 'control',
      value: 'c6bdd88a78834ef4b863b088827a459f039e8257',
    });
  });

  test('already-masked history passes through unchanged', () => {
    const masked = exchange();
    masked.request.body = masked.request.body
      .map((p) => (p.name === 'credit_card_number' ? { ...p, value: '444444******4448' } : p))
      .filter((p) => p.name !== 'cvv2');
    const entry = exchangesToHar([masked]).log.entries[0]!;
    expect(entry.request.postData!.params.find((p) => p.name === 'credit_card_number')?.value).toBe(
      '444444******4448',
    );
  });
});
