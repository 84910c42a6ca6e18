/** The one decision of what a failed exchange means: "not sent" or "unknown outcome". */
import { describe, expect, it } from 'vitest';
import { DRAFT_VERSION, draftKey, type RequestDraft } from '../../src/model/index.ts';
import { prepareExchange, type ExchangeRecord, type Transport } from '../../src/model/exchange.ts';
import {
  sendCertainty,
  unknownOutcome,
  unknownOutcomeSentence,
  UNKNOWN_OUTCOME_RULE,
} from '../../src/model/send-certainty.ts';
import { SendSession } from '../../src/features/console/send/send-session.ts';
import { SendAborted } from '../../src/features/console/send/send-lifecycle.ts';
import { signingEnv } from './signing-env.ts';
import { readFileSync } from 'node:fs';

const coded = (code: string) => Object.assign(new Error(code), { code });
const sent = [
  { name: 'login', value: 'm' },
  { name: 'client_orderid', value: 'inv-7' },
  { name: 'amount', value: '10.00' },
];

describe('sendCertainty', () => {
  it.each([
    'UPSTREAM_DNS',
    'UPSTREAM_REFUSED',
    'UPSTREAM_TLS',
    'UPSTREAM_CERT_UNTRUSTED',
    'PROXY_REFUSED',
    'PROXY_TUNNEL_FAILED',
    'TARGET_UNKNOWN',
  ])('%s failed before the body left: not sent', (code) =>
    expect(sendCertainty('v2/sale', { ok: false, error: coded(code) })).toBe('not-sent'),
  );
  it.each(['UPSTREAM_RESET', 'UPSTREAM_TIMEOUT', 'UPSTREAM_FAILED', 'SEND_CANCELLED', 'SEND_TIMEOUT'])(
    '%s may have reached the gateway: unknown',
    (code) => expect(sendCertainty('v2/sale', { ok: false, error: coded(code) })).toBe('unknown'),
  );
  it('an error without a code is unknown (nothing proves the body stayed)', () => {
    expect(sendCertainty('v2/sale', { ok: false, error: new TypeError('x') })).toBe('unknown');
  });
  it('a 5xx is unknown, a 4xx or 200 answered', () => {
    expect(sendCertainty('v2/sale', { ok: true, status: 500 })).toBe('unknown');
    expect(sendCertainty('v2/sale', { ok: true, status: 503 })).toBe('unknown');
    expect(sendCertainty('v2/sale', { ok: true, status: 400 })).toBe('answered');
    expect(sendCertainty('v2/sale', { ok: true, status: 200 })).toBe('answered');
  });
  it('a read (status) sent twice changes nothing: its failure is not an open question', () => {
    expect(sendCertainty('v2/status', { ok: false, error: coded('UPSTREAM_RESET') })).toBe('not-sent');
    expect(sendCertainty('v2/status', { ok: true, status: 500 })).toBe('answered');
  });
});

describe('unknownOutcome', () => {
  it('names the client_orderid to check by when no orderid came back', () => {
    const u = unknownOutcome('v2/sale', sent, { ok: false, error: coded('UPSTREAM_RESET') });
    expect(u).toMatchObject({ clientOrderId: 'inv-7', operationPath: 'v2/sale' });
    expect(u?.orderId).toBeUndefined();
    expect(unknownOutcomeSentence(u!)).toContain('Check with status by client_orderid inv-7');
    expect(unknownOutcomeSentence(u!)).toContain('never retry with a new client_orderid');
  });
  it('prefers an orderid the 5xx answer carried', () => {
    const u = unknownOutcome('v2/sale', sent, { ok: true, status: 500 }, { 'paynet-order-id': 42 });
    expect(u?.orderId).toBe('42');
  });
  it('is null when the exchange was answered or not sent', () => {
    expect(unknownOutcome('v2/sale', sent, { ok: true, status: 200 })).toBeNull();
    expect(unknownOutcome('v2/sale', sent, { ok: false, error: coded('UPSTREAM_DNS') })).toBeNull();
  });
  it('quotes the description verbatim', () => {
    const description = readFileSync(new URL('../../docs/spec/api-description.md', import.meta.url), 'utf8');
    expect(description).toContain(UNKNOWN_OUTCOME_RULE.quote);
  });
});

const draft: RequestDraft = {
  v: DRAFT_VERSION,
  operation: 'v2/sale',
  values: { login: { place: 'login' }, client_orderid: 'inv-1', amount: '10.00', currency: 'EUR' },
  extras: [],
};

describe('the record and the workbench send read the same decision', () => {
  function session(transport: Transport, records: ExchangeRecord[]) {
    const s = new SendSession({
      prepare: prepareExchange,
      lifecycle: () =>
        Promise.resolve({
          signal: new AbortController().signal,
          aborted: null,
          cancel: () => undefined,
          settle: () => undefined,
          explain: (e: unknown) => e,
        }),
      onExchange: (r) => records.push(r),
    });
    const job = {
      draft,
      key: draftKey(draft),
      env: signingEnv(),
      party: { profileName: 'demo', targetName: 'local' },
      transport,
      timeoutSeconds: 30,
    };
    return { s, job };
  }

  it('a reset after the send: unknown, recorded as such, and the identical request resends', async () => {
    const records: ExchangeRecord[] = [];
    let calls = 0;
    const bodies: string[] = [];
    const { s, job } = session((built) => {
      calls++;
      bodies.push(built.bodyText);
      return calls === 1
        ? Promise.reject(coded('UPSTREAM_RESET'))
        : Promise.resolve({
            status: 200,
            headers: {},
            body: '{"type":"async-response","paynet-order-id":"5"}',
            elapsedMs: 1,
          });
    }, records);
    await s.send(() => job);
    expect(s.getSnapshot().unknown).toMatchObject({ clientOrderId: 'inv-1' });
    expect(records[0]!.certainty).toBe('unknown');
    await s.resend();
    expect(s.getSnapshot().unknown).toBeNull();
    expect(s.getSnapshot().outcome?.envelope.status).toBe(200);
    expect(bodies[1]).toBe(bodies[0]);
  });

  it('a refused connection: not sent, no unknown outcome', async () => {
    const records: ExchangeRecord[] = [];
    const { s, job } = session(() => Promise.reject(coded('UPSTREAM_REFUSED')), records);
    await s.send(() => job);
    expect(s.getSnapshot().unknown).toBeNull();
    expect(records[0]!.certainty).toBe('not-sent');
  });

  it('a 500: the answer is shown and its outcome is unknown', async () => {
    const records: ExchangeRecord[] = [];
    const { s, job } = session(
      () => Promise.resolve({ status: 500, headers: {}, body: '{"type":"error"}', elapsedMs: 1 }),
      records,
    );
    await s.send(() => job);
    expect(s.getSnapshot().outcome?.unknown).toMatchObject({ clientOrderId: 'inv-1' });
    expect(records[0]!.certainty).toBe('unknown');
  });

  it('a cancel names the unknown outcome too', () => {
    expect(sendCertainty('v2/sale', { ok: false, error: new SendAborted('cancelled', 30, sent) })).toBe(
      'unknown',
    );
  });
});
