/**
 * Issue 20: `paysign verify` names a missing or wrong Accept as a finding against the description
 * (it requires the header; the gateway answers in its default dialect without it), never as a
 * cause of a signature mismatch: the signature does not cover it.
 */
import { describe, expect, it } from 'vitest';
import { formBody, paysign, sha1Hex } from './run-cli.ts';

const KEY = 'accept-control-key-1';

function capture(acceptLine: string): string {
  const control = sha1Hex(`4321ord-a1999a@b.example${KEY}`);
  const body = formBody([
    ['client_orderid', 'ord-a'],
    ['amount', '19.99'],
    ['email', 'a@b.example'],
    ['control', control],
  ]);
  return `POST /paynet/api/v2/sale/4321 HTTP/1.1\r\nHost: gate.gw.example\r\n${acceptLine}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
}

describe('paysign verify and the Accept header', () => {
  it('a capture without Accept verifies (exit 0) and gets the finding, with the description’s rule', async () => {
    const r = await paysign(['verify', '--control-key', KEY], { input: capture('') });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('signature OK');
    expect(r.stdout).toContain('Against the description: the request has no Accept header');
    expect(r.stdout).toContain('default dialect (text/html, form-encoded key=value lines');
    expect(r.stdout).toContain(
      'api-description.md › Errors: "Rule: when the `Accept` header is not `application/vnd.pay+json`, the request is outside the contract (the header is required)."',
    );
  });

  it('libcurl’s */* is named as wrong, with the same rule; the JSON Accept gives no finding', async () => {
    const wrong = await paysign(['verify', '--control-key', KEY], { input: capture('Accept: */*\r\n') });
    expect(wrong.code).toBe(0);
    expect(wrong.stdout).toContain('Against the description: Accept is "*/*"');
    expect(wrong.stdout).toContain('api-description.md › Errors');
    const right = await paysign(['verify', '--control-key', KEY], {
      input: capture('Accept: application/vnd.pay+json\r\n'),
    });
    expect(right.code).toBe(0);
    expect(right.stdout).not.toContain('Accept');
  });
});
