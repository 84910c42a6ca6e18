/** The workbench's Send, headless: the model's exchange with fake ports, no React, no timers. */
import { describe, expect, it } from 'vitest';
import { DRAFT_VERSION, draftKey, type RequestDraft } from '../../src/model/index.ts';
import { prepareExchange, type ExchangeRecord, type Transport } from '../../src/model/exchange.ts';
import { SendSession, type Lifecycle, type SendJob } from '../../src/features/console/send/send-session.ts';
import { SendAborted, type AbortKind } from '../../src/features/console/send/send-lifecycle.ts';
import { signingEnv } from '../model/signing-env.ts';

class FakeLifecycle implements Lifecycle {
  private readonly c = new AbortController();
  kind: AbortKind | null = null;
  settled = false;
  readonly signal = this.c.signal;
  get aborted() {
    return this.kind;
  }
  cancel() {
    this.kind = 'cancelled';
    this.c.abort();
  }
  settle() {
    this.settled = true;
  }
  explain(error: unknown, sent: ReadonlyArray<{ name: string; value: string }> = []) {
    return this.kind ? new SendAborted(this.kind, 30, sent) : error;
  }
}

const draft: RequestDraft = {
  v: DRAFT_VERSION,
  operation: 'v2/sale',
  values: { login: { place: 'login' }, client_orderid: 'inv-1', amount: '10.00', currency: 'EUR' },
  extras: [],
};

function setup(transport: Transport) {
  const records: ExchangeRecord[] = [];
  const lives: FakeLifecycle[] = [];
  const built: string[] = [];
  const session = new SendSession({
    prepare: prepareExchange,
    lifecycle: (seconds) => {
      expect(seconds).toBe(30);
      const l = new FakeLifecycle();
      lives.push(l);
      return Promise.resolve(l);
    },
    onExchange: (r) => records.push(r),
    onBuilt: (key) => built.push(key),
  });
  const job: SendJob = {
    draft,
    key: draftKey(draft),
    env: signingEnv(),
    party: { profileName: 'demo', targetName: 'local' },
    transport,
    timeoutSeconds: 30,
  };
  return { session, records, lives, built, job };
}

const ok: Transport = () =>
  Promise.resolve({ status: 200, headers: {}, body: '{"type":"async-response"}', elapsedMs: 3 });

describe('SendSession', () => {
  it('goes pending, then holds the answer; the exchange is recorded once', async () => {
    const { session, records, lives, built, job } = setup(ok);
    const seen: boolean[] = [];
    session.subscribe(() => seen.push(session.getSnapshot().pending));
    await session.send(() => job);
    const snap = session.getSnapshot();
    expect(seen[0]).toBe(true);
    expect(snap.pending).toBe(false);
    expect(snap.error).toBeNull();
    expect(snap.outcome?.interpreted.badge.kind).toBe('processing');
    expect(snap.outcome?.sentKey).toBe(job.key);
    expect(records).toHaveLength(1);
    expect(records[0]!.draft).toBe(draft);
    expect(built).toEqual([job.key]);
    expect(lives[0]!.settled).toBe(true);
  });

  it('a cancel turns the failure into SendAborted, recorded with that message', async () => {
    let release: () => void = () => undefined;
    const hanging: Transport = (_req, signal) =>
      new Promise((_resolve, reject) => {
        release = () => reject(new DOMException('aborted', 'AbortError'));
        signal?.addEventListener('abort', () => release());
      });
    const { session, records, job } = setup(hanging);
    const running = session.send(() => job);
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    session.cancel();
    await running;
    const snap = session.getSnapshot();
    expect(snap.error?.name).toBe('SendAborted');
    expect(records[0]!.error).toContain('Cancelled');
  });

  it('refuses a draft with withheld values before anything is sent', async () => {
    let calls = 0;
    const { session, records, job } = setup(() => {
      calls++;
      return ok(undefined as never);
    });
    await session.send(() => ({
      ...job,
      draft: { ...draft, values: { ...draft.values, credit_card_number: { withheld: 'card-number' } } },
    }));
    expect(session.getSnapshot().error?.message).toContain('credit_card_number');
    expect(calls).toBe(0);
    expect(records).toEqual([]);
  });
});
