/**
 * The debugger page's model (src/features/debugger/run-diagnosis.ts): what the boxes hold goes to
 * the core's diagnose() as the corpus test gives it; "now" is read as the page explains; an RSA
 * capture checks out with a profile's private key that cannot be exported (the core re-signs:
 * PKCS#1 v1.5 is deterministic), and not with another merchant's.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secureNonceSource, webCryptoPort } from '../../src/core/index.ts';
import { importSigningKey } from '../../src/core/keys/key-containers.ts';
import { draftOf, EMPTY_FORM, parseNow, runDiagnosis } from '../../src/features/debugger/run-diagnosis.ts';
import { buildDraft, type Place } from '../../src/model/index.ts';

const crypto = webCryptoPort();
const CORPUS = resolve(import.meta.dirname, '../corpus');
const read = (f: string) => readFileSync(join(CORPUS, f), 'utf8');
const CAPTURED_AT = Date.UTC(2026, 0, 1, 0, 0, 30);
const clock = () => CAPTURED_AT;
const PLACE: Place = {
  origin: 'http://127.0.0.1:4451',
  inboxUrl: 'http://127.0.0.1:4451/callbacks/s-t',
  login: 'corpus-shop',
};

describe('"now" for the timestamp check', () => {
  it('is the clock when empty, epoch seconds or milliseconds, or a date and time', () => {
    expect(parseNow('', clock)).toBe(CAPTURED_AT);
    expect(parseNow('1767225600', clock)).toBe(1_767_225_600_000);
    expect(parseNow('1767225600123', clock)).toBe(1_767_225_600_123);
    expect(parseNow('2026-01-04T00:00:00Z', clock)).toBe(Date.UTC(2026, 0, 4));
    expect(parseNow('yesterday-ish', clock)).toMatch(/is not a time: write a date and time/);
  });
});

describe('runDiagnosis', () => {
  it('checks an RSA-SHA256 capture with a non-extractable private key, as a profile holds it', async () => {
    const own = (await importSigningKey(read('keys/merchant-a-private-pkcs8.pem'), crypto)).key;
    expect(own.extractable).toBe(false);
    const form = { ...EMPTY_FORM, capture: read('cases/ok-rsa-payout-check.har') };
    const ok = await runDiagnosis(form, { crypto, clock, profilePrivateKey: own });
    expect(ok.ok && ok.diagnosis.verdict).toBe('ok');
    expect(ok.ok && ok.diagnosis.signatureMatches).toBe(true);

    const other = (await importSigningKey(read('keys/merchant-b-private-pkcs8.pem'), crypto)).key;
    const bad = await runDiagnosis(form, { crypto, clock, profilePrivateKey: other });
    expect(bad.ok && bad.diagnosis.verdict).toBe('mismatch');
    expect(bad.ok && bad.diagnosis.likelyCauses[0]?.mistakeId).toBe('wrong-key');

    const none = await runDiagnosis(form, { crypto, clock });
    expect(none.ok && none.diagnosis.verdict).toBe('cannot-check');
  });

  it('takes the other keys and the merchant’s ids from their boxes', async () => {
    const form = {
      ...EMPTY_FORM,
      capture: read('cases/wrong-key-production.http'),
      controlKey: 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B',
      alternatives: [
        { label: '', controlKey: '' },
        { label: 'production', controlKey: 'CORPUS-PROD-ONLY-0A9B8C7D-6E5F-4A3B-2C1D-0E9F8A7B6C5D' },
      ],
    };
    const r = await runDiagnosis(form, { crypto, clock });
    expect(r.ok && r.diagnosis.likelyCauses[0]).toMatchObject({
      mistakeId: 'wrong-key',
      confidence: 'confirmed',
    });
    expect(r.ok && r.diagnosis.likelyCauses[0]?.evidence).toContain('"production"');
    expect(JSON.stringify(r)).not.toContain('CORPUS-PROD-ONLY');
  });

  it('says which box is wrong, in words that say what to do', async () => {
    const r1 = await runDiagnosis({ ...EMPTY_FORM, capture: 'hello' }, { crypto, clock });
    expect(r1).toMatchObject({ ok: false, field: 'capture' });
    const r2 = await runDiagnosis(
      { ...EMPTY_FORM, capture: read('cases/ok-rsa-payout-check.har'), publicKeyPem: 'not a key' },
      { crypto, clock },
    );
    expect(r2).toMatchObject({ ok: false, field: 'publicKeyPem' });
    const r3 = await runDiagnosis(
      { ...EMPTY_FORM, capture: read('cases/ok-control-sale.http'), now: 'soon' },
      { crypto, clock },
    );
    expect(r3).toMatchObject({ ok: false, field: 'now' });
  });

  it('opens the capture in the workbench with its values, control left out', async () => {
    const r = await runDiagnosis(
      { ...EMPTY_FORM, capture: read('cases/ok-control-sale.http') },
      { crypto, clock },
    );
    if (!r.ok) throw new Error(r.message);
    const draft = draftOf(r, PLACE);
    expect(draft.operation).toBe('v2/sale');
    expect(draft.endpoint).toEqual({ kind: 'endpoint', id: '4411' });
    expect(draft.values).toMatchObject({
      client_orderid: 'inv-2026-0001',
      amount: '10.42',
      email: 'jane.doe@example.com',
    });
    expect(draft.values).not.toHaveProperty('control');
  });

  it('opens an OAuth capture with its nonce and timestamp pinned: the workbench signs it to the captured signature', async () => {
    const r = await runDiagnosis(
      { ...EMPTY_FORM, capture: read('cases/ok-hmac-payout.curl') },
      { crypto, clock },
    );
    if (!r.ok) throw new Error(r.message);
    const draft = draftOf(r, PLACE);
    expect(draft.pinned).toEqual({ nonce: 'okHmacNonce0001', timestamp: '1767225600' });
    const built = await buildDraft(draft, {
      place: PLACE,
      baseUrl: 'https://sandbox.pay-gateway.test/paynet',
      endpoint: { kind: 'endpoint', id: '1' },
      credentials: {
        login: 'corpus-shop',
        controlKey: 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B',
      },
      // A clock and nonce source far from the capture's: the pinned values must win.
      runtime: { crypto, clock: () => 0, nonce: secureNonceSource() },
    });
    expect(built.signing.signature).toBe('DxV4MqbAy4c93YD8QauRoKpUoCc=');
  });
});
