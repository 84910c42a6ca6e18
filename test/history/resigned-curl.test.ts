/**
 * History's two curls: the stored one is the record byte for byte; the re-signed one has a fresh
 * nonce and timestamp and an OAuth signature that an independent HMAC-SHA1 (node:crypto) accepts,
 * with withheld card fields left as placeholders to fill in.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCurl } from '../../src/capture/parse-curl.ts';
import { renderCurl } from '../../src/core/index.ts';
import { buildEntry, draftOfEntry } from '../../src/features/history/build-entry.ts';
import { curlOfEntry } from '../../src/features/history/entry-tools.ts';
import { DRAFT_VERSION, type RequestDraft } from '../../src/model/index.ts';
import { prepareExchange } from '../../src/model/exchange.ts';
import { fillInPlaceholder, resignDraft } from '../../src/model/resign-draft.ts';
import { CONTROL_KEY, signingEnv } from '../model/signing-env.ts';

const PAN = '4444444444444448';

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** RFC 5849 HMAC-SHA1 over a captured request, written here without the console's core. */
function independentlyVerifies(req: { url: string; headers: Record<string, string>; body: string }): boolean {
  const auth = req.headers.authorization ?? '';
  const oauth = Object.fromEntries(
    [...auth.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k!, decodeURIComponent(v!)]),
  );
  const body = new URLSearchParams(req.body);
  const pairs: Array<[string, string]> = [
    ...[...body.entries()],
    ...Object.entries(oauth).filter(([k]) => k !== 'oauth_signature' && k !== 'realm'),
  ].map(([k, v]) => [enc(k), enc(v)]);
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const u = new URL(req.url);
  const base = [
    'POST',
    enc(`${u.protocol}//${u.host}${u.pathname}`),
    enc(pairs.map((p) => p.join('=')).join('&')),
  ].join('&');
  const expected = createHmac('sha1', `${enc(CONTROL_KEY)}&`)
    .update(base)
    .digest('base64');
  return expected === oauth.oauth_signature;
}

async function entryOf(draft: RequestDraft) {
  const env = signingEnv(1_700_000_000_000);
  const prepared = await prepareExchange(draft, env);
  const outcome = await prepared.send(() =>
    Promise.resolve({ status: 200, headers: {}, body: '{"type":"async-response"}', elapsedMs: 1 }),
  );
  const record = prepared.record({ profileName: 'demo', targetName: 'local' }, outcome);
  return { built: prepared.built, entry: buildEntry(record, 'e1') };
}

const payout = (values: RequestDraft['values']): RequestDraft => ({
  v: DRAFT_VERSION,
  operation: 'v2/payout',
  values: { client_orderid: 'po-1', amount: '10.00', currency: 'EUR', ...values },
  extras: [],
  pinned: { nonce: 'used-nonce-1', timestamp: '1700000000' },
});

function nonceOf(curl: string): string | undefined {
  return /oauth_nonce="([^"]+)"/.exec(curl)?.[1];
}

describe('history: Copy as curl', () => {
  it('the stored curl is the record byte for byte', async () => {
    const { built, entry } = await entryOf(payout({ order_desc: "it's ok" }));
    expect(curlOfEntry(entry)).toBe(renderCurl(built));
    const parsed = parseCurl(curlOfEntry(entry));
    expect(parsed.url).toBe(entry.request.url);
    expect(parsed.body).toBe(built.bodyText);
  });

  it('the re-signed curl has a fresh nonce and timestamp and verifies', async () => {
    const { entry } = await entryOf(payout({ order_desc: 'replay me' }));
    const stored = curlOfEntry(entry);
    expect(nonceOf(stored)).toBe('used-nonce-1');
    const env = signingEnv(1_800_000_000_000);
    const again = await resignDraft(draftOfEntry(entry), env);
    expect(again.placeholders).toEqual([]);
    expect(nonceOf(again.curl)).toBeDefined();
    expect(nonceOf(again.curl)).not.toBe('used-nonce-1');
    expect(again.curl).toContain('oauth_timestamp="1800000000"');
    expect(independentlyVerifies(parseCurl(again.curl))).toBe(true);
    expect(independentlyVerifies(parseCurl(stored))).toBe(true);
    // A changed byte no longer verifies: the check can fail.
    expect(independentlyVerifies(parseCurl(again.curl.replace('replay', 'REPLAY')))).toBe(false);
  });

  it('a masked card comes back as a placeholder to fill in, never as the stored mask', async () => {
    const { entry } = await entryOf(payout({ 'destination-card-no': PAN }));
    expect(curlOfEntry(entry)).not.toContain(PAN);
    const again = await resignDraft(draftOfEntry(entry), signingEnv());
    expect(again.placeholders).toEqual(['destination-card-no']);
    expect(again.curl).toContain(`destination-card-no=${fillInPlaceholder('destination-card-no')}`);
    expect(again.curl).not.toContain(PAN);
    expect(again.curl).not.toMatch(/444444\*+4448/);
  });
});
