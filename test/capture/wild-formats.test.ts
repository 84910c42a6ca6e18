/**
 * Issue 31: the capture formats merchants' logs come in, told apart by their content (never the
 * first character: a Monolog line starts with `[` and is no JSON), each read into the request that
 * went out; what else the text reads as is named.
 */
import { describe, expect, it } from 'vitest';
import { decodeFormBody } from '../../src/core/index.ts';
import { parseCapture, rankCaptureFormats, type CaptureFormat } from '../../src/capture/index.ts';

const U = 'https://sandbox.pay.test/paynet/api/v2/sale/1111';
const BODY = [
  { name: 'client_orderid', value: 'inv 1' },
  { name: 'amount', value: '10.42' },
];

const samples: Array<[string, CaptureFormat, string]> = [
  [
    'Monolog, the body as context',
    'app-log',
    `[2026-12-06 01:02:03] payment.INFO: POST ${U} {"client_orderid":"inv 1","amount":"10.42"} []`,
  ],
  [
    'Monolog, key=value pairs in the message',
    'app-log',
    `[2026-12-06 01:02:03] payment.INFO: POST ${U} client_orderid="inv 1" amount=10.42 [] []`,
  ],
  [
    'Laravel, URL and encoded body in the context',
    'app-log',
    `[2026-12-06 01:02:03] production.INFO: Gateway request {"method":"POST","url":"${U}","body":"client_orderid=inv%201&amount=10.42"} []`,
  ],
  [
    'Symfony, Guzzle form_params and extra',
    'app-log',
    `[2026-12-06T01:02:03.123456+00:00] app.INFO: Sending {"method":"POST","uri":"${U}","form_params":{"client_orderid":"inv 1","amount":"10.42"}} {"uid":"7f"}`,
  ],
  [
    'logback',
    'app-log',
    `2026-12-06 01:02:03.456 INFO [http-nio-8080-exec-1] c.m.PaymentClient - Request: POST ${U} body: client_orderid=inv%201&amount=10.42`,
  ],
  [
    'pino',
    'json-log',
    `{"level":30,"time":1765000000000,"msg":"start"}\n{"level":30,"req":{"method":"POST","url":"${U}","body":"client_orderid=inv%201&amount=10.42"},"msg":"gateway request"}`,
  ],
  [
    'Python http.client debug output',
    'python-debug',
    `send: b'POST /paynet/api/v2/sale/1111 HTTP/1.1\\r\\nHost: sandbox.pay.test\\r\\nContent-Type: application/x-www-form-urlencoded\\r\\n\\r\\n'\nsend: b'client_orderid=inv%201&amount=10.42'\nreply: 'HTTP/1.1 200 OK\\r\\n'`,
  ],
  [
    'curl with --data-urlencode pieces',
    'curl',
    `curl ${U} --data-urlencode 'client_orderid=inv 1' --data-urlencode amount=10.42`,
  ],
  [
    'curl -d @- from a here-document',
    'curl',
    `curl -X POST ${U} -d @- <<'EOF'\nclient_orderid=inv%201&amount=10.42\nEOF\n`,
  ],
  ['curl -d @- from echo', 'curl', `echo 'client_orderid=inv%201&amount=10.42' | curl ${U} -d @-`],
  [
    'Chrome HAR, postData.params',
    'har',
    JSON.stringify({
      log: {
        entries: [
          {
            request: {
              method: 'POST',
              url: U,
              headers: [],
              postData: {
                mimeType: 'application/x-www-form-urlencoded',
                params: [
                  { name: 'client_orderid', value: 'inv%201' },
                  { name: 'amount', value: '10.42' },
                ],
              },
            },
          },
        ],
      },
    }),
  ],
  [
    'raw HTTP, chunked',
    'raw-http',
    `POST /paynet/api/v2/sale/1111 HTTP/1.1\r\nHost: sandbox.pay.test\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n9\r\nclient_or\r\n10\r\nderid=inv%201&am\r\na\r\nount=10.42\r\n0\r\n\r\n`,
  ],
];

describe('captures from the wild', () => {
  it.each(samples)('%s: read as %s, the body as sent', (_, format, text) => {
    const p = parseCapture(text);
    expect(p.format).toBe(format);
    expect(p.request.url).toBe(U);
    expect(p.request.method).toBe('POST');
    expect(decodeFormBody(p.request.body)).toEqual(BODY);
  });

  it('an nginx access-log line of a GET callback: the query, a GET, no host claimed', () => {
    const p = parseCapture(
      '198.51.100.23 - - [06/Dec/2026:01:02:03 +0000] "GET /cb?status=approved&orderid=91&client_orderid=inv-1&control=ab HTTP/1.1" 200 2 "-" "Paynet"',
    );
    expect(p.format).toBe('access-log');
    expect(p.request.method).toBe('GET');
    expect(new URL(p.request.url).searchParams.get('status')).toBe('approved');
    expect(p.notes.join(' ')).toMatch(/no host unless the format logs it/);
  });

  it('a line that starts with [ is not a HAR: "[pay] POST …" is a key=value log line', () => {
    const text = `[pay] POST ${U} client_orderid=inv-1 amount=10.42`;
    expect(rankCaptureFormats(text).map((c) => c.format)).not.toContain('har');
    expect(parseCapture(text).format).toBe('log-line');
  });

  it('names what else the text reads as, most likely first', () => {
    const p = parseCapture(samples[1]![2]);
    expect(p.format).toBe('app-log');
    expect(p.alternatives).toEqual(['log-line']);
  });

  it('Python output with urllib3 saying HTTPS: the scheme is known', () => {
    const p = parseCapture(
      `DEBUG:urllib3.connectionpool:Starting new HTTPS connection (1): sandbox.pay.test:443\n${samples[6]![2]}`,
    );
    expect(p.schemeKnown).toBe(true);
    expect(parseCapture(samples[6]![2]).schemeKnown).toBe(false);
  });
});
