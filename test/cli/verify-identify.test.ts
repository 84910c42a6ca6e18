/**
 * Issue 29: `paysign verify` identifies a capture with `identifyCapture`, as the debugger does, so
 * the scheme it reports on is the one the capture is signed with among those the operation allows,
 * not the operation's default. v2/payout-form is HMAC-SHA1 by default and allows control.
 */
import { describe, expect, it } from 'vitest';
import { formBody, paysign, sha1Hex } from './run-cli.ts';

const KEY = 'identify-control-key-1';

function payoutFormCapture(extraHeader = ''): string {
  const control = sha1Hex(`1111pf-11234a@b.example${KEY}`);
  const body = formBody([
    ['client_orderid', 'pf-1'],
    ['amount', '12.34'],
    ['email', 'a@b.example'],
    ['control', control],
  ]);
  return `POST /paynet/api/v2/payout-form/1111 HTTP/1.1\r\nHost: gate.gw.example\r\nAccept: application/vnd.pay+json\r\n${extraHeader}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
}

describe('paysign verify identifies the capture as the debugger does', () => {
  it('a control-signed v2/payout-form verifies with control (SHA-1 by node:crypto)', async () => {
    const r = await paysign(['verify', '--control-key', KEY, '--json'], { input: payoutFormCapture() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { scheme: string; verdict: string };
    expect(j.scheme).toBe('control');
    expect(j.verdict).toBe('OK');
  });

  it('a stray OAuth consumer key on a control-signed capture is not taken for the body’s login', async () => {
    const r = await paysign(['verify', '--control-key', KEY], {
      input: payoutFormCapture('Authorization: OAuth oauth_consumer_key="stray"\r\n'),
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('signature OK');
    expect(r.stdout).not.toContain("stray (from the body's login field)");
    expect(r.stdout).not.toMatch(/^ {2}login /m);
  });
});
