/** The four capture parsers, format detection and their refusals of junk. */
import { describe, expect, it } from 'vitest';
import { decodeFormBody, type PayError } from '../../src/core/index.ts';
import {
  detectCaptureFormat,
  parseCapture,
  parseCurl,
  parseHar,
  parseLogLine,
  splitShellWords,
} from '../../src/capture/index.ts';

function parseError(f: () => unknown): PayError {
  try {
    f();
  } catch (e) {
    expect((e as PayError).code).toBe('HTTP_PARSE');
    return e as PayError;
  }
  throw new Error('expected an HTTP_PARSE error');
}

const URL_ = 'https://gw.example/paynet/api/v2/payout/55';

describe('splitShellWords (bash quoting as "Copy as cURL" writes it)', () => {
  it.each([
    [`curl 'a b' "c d"`, ['curl', 'a b', 'c d']],
    [`curl 'it'\\''s'`, ['curl', "it's"]],
    [`curl "say \\"hi\\" \\$HOME \\\\ \\x"`, ['curl', 'say "hi" $HOME \\ \\x']],
    [`curl a\\ b`, ['curl', 'a b']],
    ['curl \\\n  -X POST \\\r\n  x', ['curl', '-X', 'POST', 'x']],
    [
      `curl $'tab\\there\\nline \\'q\\' \\x41 \\u00e9 \\xc3\\xa9 \\101'`,
      ['curl', "tab\there\nline 'q' A é é A"],
    ],
    [`curl "a"'b'c$'d'`, ['curl', 'abcd']],
    [`curl x # a comment\n-d y`, ['curl', 'x', '-d', 'y']],
    [`curl ''`, ['curl', '']],
  ])('%j', (text, words) => {
    expect(splitShellWords(text)).toEqual(words);
  });

  it('refuses an unterminated quote with where it opened', () => {
    expect(parseError(() => splitShellWords(`curl 'abc`)).message).toMatch(/unterminated single quote/);
    expect(parseError(() => splitShellWords(`curl "abc`)).message).toMatch(/unterminated double quote/);
  });
});

describe('parseCurl', () => {
  it('reads -X, -H, --data-raw, a backslash-newline command and the URL anywhere', () => {
    const r = parseCurl(
      `curl -sS \\\n  -H 'Accept: application/vnd.pay+json' \\\n  --data-raw 'a=1&b=x%20y' \\\n  -X POST '${URL_}' -H "Authorization: OAuth oauth_consumer_key=\\"demo\\""\n`,
    );
    expect(r).toEqual({
      method: 'POST',
      url: URL_,
      headers: {
        accept: 'application/vnd.pay+json',
        authorization: 'OAuth oauth_consumer_key="demo"',
        host: 'gw.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'a=1&b=x%20y',
    });
  });

  it('joins several -d with & and encodes --data-urlencode like curl', () => {
    const r = parseCurl(
      `curl ${URL_} -d a=1 --data b=2 --data-binary c=3 --data-urlencode 'order_desc=two words & more' --data-urlencode '=raw!' --data-ascii=e=5 -dz=9`,
    );
    expect(r.body).toBe('a=1&b=2&c=3&order_desc=two%20words%20%26%20more&raw%21&e=5&z=9');
    expect(decodeFormBody(r.body).find((p) => p.name === 'order_desc')?.value).toBe('two words & more');
    expect(r.method).toBe('POST');
  });

  it('adds what curl adds: POST for data, form content type, Accept */*; -XPOST attached; scheme-less URL is http', () => {
    const r = parseCurl(`curl -XPOST gw.example/paynet/api/v2/sale/1 -d x=1`);
    expect(r.method).toBe('POST');
    expect(r.url).toBe('http://gw.example/paynet/api/v2/sale/1');
    expect(r.headers.accept).toBe('*/*');
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(parseCurl(`curl ${URL_}`).method).toBe('GET');
    expect(parseCurl(`curl -H 'Accept:' ${URL_} -d a=1`).headers.accept).toBeUndefined();
  });

  it('-G moves the data to the query; Windows curl.exe and a $ prompt are accepted', () => {
    const r = parseCurl(`$ curl.exe -G ${URL_} -d a=1 -d b=2`);
    expect(r.method).toBe('GET');
    expect(r.url).toBe(`${URL_}?a=1&b=2`);
    expect(r.body).toBe('');
  });

  it('skips the values of options it does not use (-o, -m, -u gives Basic auth, --user-agent)', () => {
    const r = parseCurl(
      `curl -o out.json -m 30 -u demo:pw --user-agent 'tool/1' --compressed -k ${URL_} -d a=1`,
    );
    expect(r.url).toBe(URL_);
    expect(r.headers.authorization).toBe(`Basic ${btoa('demo:pw')}`);
    expect(r.headers['user-agent']).toBe('tool/1');
  });

  it('refuses a body read from a file, a multipart form, a missing URL, a missing option value', () => {
    expect(parseError(() => parseCurl(`curl ${URL_} -d @body.txt`)).message).toMatch(
      /reads the body from the file "body.txt"/,
    );
    expect(parseError(() => parseCurl(`curl ${URL_} -F a=1`)).message).toMatch(/multipart/);
    expect(parseError(() => parseCurl(`curl -d a=1`)).message).toMatch(/has no URL/);
    expect(parseError(() => parseCurl(`curl ${URL_} -H`)).message).toMatch(/-H has no value/);
    expect(parseError(() => parseCurl(`wget ${URL_}`)).message).toMatch(/not a curl command/);
  });
});

const harRequest = {
  method: 'POST',
  url: URL_,
  headers: [
    { name: ':authority', value: 'gw.example' },
    { name: 'Accept', value: 'application/vnd.pay+json' },
    { name: 'Authorization', value: 'OAuth oauth_nonce="n"' },
  ],
  postData: { mimeType: 'application/x-www-form-urlencoded', text: 'a=1&b=two%20words' },
};

describe('parseHar', () => {
  it('reads a whole HAR file, choosing the first POST to /api/, and says which entry', () => {
    const file = {
      log: {
        version: '1.2',
        entries: [
          { request: { method: 'GET', url: 'https://gw.example/', headers: [] } },
          { request: harRequest },
        ],
      },
    };
    const r = parseHar(JSON.stringify(file));
    expect(r.entry).toEqual({ index: 1, of: 2 });
    expect(r.request).toEqual({
      method: 'POST',
      url: URL_,
      headers: {
        host: 'gw.example',
        accept: 'application/vnd.pay+json',
        authorization: 'OAuth oauth_nonce="n"',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'a=1&b=two%20words',
    });
    expect(parseHar(JSON.stringify(file), 0).request.method).toBe('GET');
  });

  it('reads one entry, or a bare request with headers as an object', () => {
    expect(parseHar(JSON.stringify({ request: harRequest })).request.body).toBe('a=1&b=two%20words');
    const bare = parseHar(
      JSON.stringify({ method: 'post', url: URL_, headers: { Accept: 'x' }, body: 'k=v' }),
    );
    expect(bare.request).toMatchObject({ method: 'POST', headers: { accept: 'x' }, body: 'k=v' });
  });

  it('builds the body from postData.params: encoded values kept, raw ones encoded', () => {
    const r = parseHar(
      JSON.stringify({
        request: {
          ...harRequest,
          postData: {
            mimeType: 'application/x-www-form-urlencoded',
            params: [
              { name: 'a', value: 'x%20y' },
              { name: 'b', value: 'two words & more' },
              { name: 'c', value: 'é' },
            ],
          },
        },
      }),
    );
    expect(decodeFormBody(r.request.body)).toEqual([
      { name: 'a', value: 'x y' },
      { name: 'b', value: 'two words & more' },
      { name: 'c', value: 'é' },
    ]);
  });

  it('refuses broken JSON, JSON that is no capture, an empty file, a multipart body', () => {
    expect(parseError(() => parseHar('{"log": ')).message).toMatch(/does not parse/);
    expect(parseError(() => parseHar('{"hello": 1}')).message).toMatch(/not a HAR capture/);
    expect(parseError(() => parseHar('{"log": {"entries": []}}')).message).toMatch(/no entries/);
    expect(
      parseError(() =>
        parseHar(
          JSON.stringify({
            request: { ...harRequest, postData: { mimeType: 'multipart/form-data; boundary=x' } },
          }),
        ),
      ).message,
    ).toMatch(/multipart/);
  });
});

describe('parseLogLine', () => {
  it('reads METHOD URL key=value pairs with quoted values and the Authorization header', () => {
    const r = parseLogLine(
      `2026-01-01T10:00:00Z INFO pay level=info POST ${URL_} client_orderid=p-1 order_desc="Two \\"quoted\\" words" amount=10.42 Accept='application/vnd.pay+json' Authorization="OAuth oauth_consumer_key=\\"demo\\", oauth_signature=\\"a%2Bb%3D\\""`,
    );
    expect(r.method).toBe('POST');
    expect(r.url).toBe(URL_);
    expect(decodeFormBody(r.body)).toEqual([
      { name: 'client_orderid', value: 'p-1' },
      { name: 'order_desc', value: 'Two "quoted" words' },
      { name: 'amount', value: '10.42' },
    ]);
    expect(r.headers.accept).toBe('application/vnd.pay+json');
    expect(r.headers.authorization).toBe('OAuth oauth_consumer_key="demo", oauth_signature="a%2Bb%3D"');
    // `level=info` came before the URL: the logger's own, not the request's.
    expect(r.body).not.toContain('level');
  });

  it('gathers oauth_* pairs into an Authorization header; values are plain text; a trailing comma is dropped', () => {
    const r = parseLogLine(
      `POST ${URL_} amount=1.00, note=a+b oauth_consumer_key=demo, oauth_signature=ab+/cd= oauth_nonce=n1`,
    );
    expect(decodeFormBody(r.body)).toEqual([
      { name: 'amount', value: '1.00' },
      { name: 'note', value: 'a+b' },
    ]);
    expect(r.headers.authorization).toBe(
      'OAuth oauth_consumer_key="demo", oauth_signature="ab%2B%2Fcd%3D", oauth_nonce="n1"',
    );
  });

  it('takes a raw encoded fragment (a=1&b=2, or body=…) as it is, and logfmt url=/method=/host=', () => {
    const r = parseLogLine(
      `ts=1 method=post url=/paynet/api/v2/sale/1 host=gw.example body="a=1&b=x%20y" c=3`,
    );
    expect(r.url).toBe('https://gw.example/paynet/api/v2/sale/1');
    expect(r.method).toBe('POST');
    expect(r.body).toBe('a=1&b=x%20y&c=3');
    expect(parseLogLine(`POST ${URL_} a=1&b=2`).body).toBe('a=1&b=2');
  });

  it('reads a wrapped entry: the line with the URL and the pair lines after it', () => {
    const r = parseLogLine(`noise without url\nPOST ${URL_} a=1\n  b=2 c="x y"\nPOST ${URL_} other=1`);
    expect(decodeFormBody(r.body).map((p) => p.name)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a line without URL, or with a path but no host', () => {
    expect(parseError(() => parseLogLine('amount=1 currency=EUR')).message).toMatch(/no request URL/);
    expect(parseError(() => parseLogLine('POST /paynet/api/v2/sale/1 amount=1')).message).toMatch(/no host/);
  });
});

describe('detectCaptureFormat and parseCapture', () => {
  const raw = `POST /paynet/api/v2/sale/1 HTTP/1.1\r\nHost: gw.example\r\n\r\na=1`;
  it.each([
    [raw, 'raw-http'],
    [`POST ${URL_} HTTP/1.1\nHost: gw.example\n\na=1`, 'raw-http'],
    [`curl ${URL_} -d a=1`, 'curl'],
    [`  $ curl ${URL_}`, 'curl'],
    [`/usr/bin/curl ${URL_}`, 'curl'],
    [JSON.stringify({ request: harRequest }), 'har'],
    [`\uFEFF[{"request": {}}]`, 'har'],
    [`POST ${URL_} amount=1`, 'log-line'],
    [`2026 INFO ${URL_} a=1`, 'log-line'],
    ['hello world', undefined],
    ['', undefined],
    ['a=1&b=2', undefined],
  ])('%j → %s', (text, format) => {
    expect(detectCaptureFormat(text)).toBe(format);
  });

  it('raw HTTP: the scheme is a guess unless the request line is absolute', () => {
    const p = parseCapture(raw);
    expect(p).toMatchObject({ format: 'raw-http', schemeKnown: false, headersComplete: true });
    expect(p.request.url).toBe('https://gw.example/paynet/api/v2/sale/1');
    expect(parseCapture(raw, { scheme: 'http' }).request.url).toBe('http://gw.example/paynet/api/v2/sale/1');
    expect(
      parseCapture(`POST http://gw.example/paynet/api/v2/sale/1 HTTP/1.1\nHost: gw.example\n\na=1`)
        .schemeKnown,
    ).toBe(true);
  });

  it('the same request in the four formats reads the same', () => {
    const body = 'client_orderid=p-1&order_desc=two%20words&amount=10.42';
    const auth = 'OAuth oauth_consumer_key="demo", oauth_signature="s%2B%3D"';
    const texts = [
      `POST /paynet/api/v2/payout/55 HTTP/1.1\r\nHost: gw.example\r\nAccept: application/vnd.pay+json\r\nContent-Type: application/x-www-form-urlencoded\r\nAuthorization: ${auth}\r\n\r\n${body}`,
      `curl -X POST '${URL_}' -H 'Accept: application/vnd.pay+json' -H 'Authorization: ${auth}' --data-raw '${body}'`,
      JSON.stringify({
        request: {
          method: 'POST',
          url: URL_,
          headers: [
            { name: 'Accept', value: 'application/vnd.pay+json' },
            { name: 'Authorization', value: auth },
          ],
          postData: { mimeType: 'application/x-www-form-urlencoded', text: body },
        },
      }),
      `POST ${URL_} client_orderid=p-1 order_desc="two words" amount=10.42 Accept=application/vnd.pay+json Authorization='${auth}'`,
    ];
    const parsed = texts.map((t) => parseCapture(t).request);
    for (const r of parsed) {
      expect(r.method).toBe('POST');
      expect(r.url).toBe(URL_);
      expect(decodeFormBody(r.body)).toEqual(decodeFormBody(body));
      expect(r.headers.authorization).toBe(auth);
      expect(r.headers.accept).toBe('application/vnd.pay+json');
    }
  });

  it('junk: one clear message that says what to paste', () => {
    const e = parseError(() => parseCapture('GARBAGE\x00 not http\n'));
    expect(e.message).toMatch(/^The first line "GARBAGE/);
    expect(e.message).toMatch(/not a curl command, a HAR entry or a log line/);
    expect(parseError(() => parseCapture('   \n')).message).toMatch(/capture is empty/);
    expect(parseError(() => parseCapture('{ not json')).message).toMatch(/does not parse/);
  });
});
