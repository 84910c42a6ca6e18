/** The workbench around its Send, headless: fake ports, a fixed clock, no React, no timers. */
import { describe, expect, it } from 'vitest';
import { findOperation, type Operation } from '../../src/catalog/index.ts';
import { DRAFT_VERSION, draftKey, type Place, type RequestDraft } from '../../src/model/index.ts';
import {
  WorkbenchSession,
  type WorkbenchOpened,
  type WorkbenchPorts,
} from '../../src/features/console/workbench/workbench-session.ts';

const NOW = Date.UTC(2026, 10, 27, 3, 0, 0);
const place: Place = {
  origin: 'http://console.test',
  inboxUrl: 'http://console.test/inbox/s1',
  login: 'merchant',
};

function op(path: string): Operation {
  const found = findOperation(path);
  if (!found) throw new Error(`no ${path}`);
  return found;
}

const draft: RequestDraft = {
  v: DRAFT_VERSION,
  operation: 'v2/sale',
  values: { login: { place: 'login' }, client_orderid: 'inv-1', amount: '10.00', currency: 'EUR' },
  extras: [],
};

function setup(
  path = 'v2/sale',
  over: Partial<WorkbenchPorts> & { stored?: number; invalid?: string[] } = {},
  opened: WorkbenchOpened = {},
) {
  const calls = { sent: [] as number[], saved: [] as number[], focused: [] as string[], checks: 0 };
  let stored = over.stored ?? 30;
  const ports: WorkbenchPorts = {
    clock: () => NOW,
    timeouts: {
      load: () => stored,
      save: (s) => {
        stored = s;
        calls.saved.push(s);
      },
    },
    draft: () => draft,
    check: () => {
      calls.checks++;
      return Promise.resolve(over.invalid ?? []);
    },
    focusField: (name) => calls.focused.push(name),
    focusTimeout: () => calls.focused.push('timeout'),
    production: () => false,
    sending: () => false,
    send: (seconds) => calls.sent.push(seconds),
    orderId: (now) => `inv-${now}`,
    ...over,
  };
  const session = new WorkbenchSession(op(path), ports, opened);
  let notified = 0;
  session.subscribe(() => notified++);
  return { session, calls, notified: () => notified };
}

describe('WorkbenchSession', () => {
  it('sends a valid form with the kept timeout', async () => {
    const { session, calls } = setup('v2/sale', { stored: 45 });
    expect(session.getSnapshot().timeoutText).toBe('45');
    await session.requestSend();
    expect(calls.checks).toBe(1);
    expect(calls.sent).toEqual([45]);
    expect(session.getSnapshot()).toMatchObject({ invalid: null, confirming: false, refusals: 0 });
  });

  it('does nothing while a send is under way', async () => {
    const { session, calls } = setup('v2/sale', { sending: () => true });
    await session.requestSend();
    expect(calls).toMatchObject({ sent: [], checks: 0 });
  });

  it('keeps a typed timeout, refuses to send with a bad one and focuses its box', async () => {
    const { session, calls } = setup();
    session.setTimeoutText('12');
    expect(calls.saved).toEqual([12]);
    session.setTimeoutText('0');
    expect(calls.saved).toEqual([12]);
    const snap = session.getSnapshot();
    expect(snap.timeoutText).toBe('0');
    expect(snap.timeout.ok).toBe(false);
    await session.requestSend(true);
    expect(calls.sent).toEqual([]);
    expect(calls.focused).toEqual(['timeout']);
    session.setTimeoutText(' 20 ');
    await session.requestSend();
    expect(calls.sent).toEqual([20]);
  });

  it('refuses a draft with withheld values, even "send anyway", and counts the refusals', async () => {
    const withheld: RequestDraft = { ...draft, values: { ...draft.values, cvv2: { withheld: 'cvv' } } };
    const { session, calls } = setup('v2/sale', { draft: () => withheld });
    session.showInvalid(['amount']);
    await session.requestSend();
    await session.requestSend(true);
    expect(calls).toMatchObject({ sent: [], checks: 0 });
    expect(session.getSnapshot()).toMatchObject({ refusals: 2, invalid: null });
  });

  it('names the fields that fail the checks and focuses the first; "send anyway" skips them', async () => {
    const { session, calls } = setup('v2/sale', { invalid: ['amount', 'currency'] });
    await session.requestSend();
    expect(calls.sent).toEqual([]);
    expect(calls.focused).toEqual(['amount']);
    expect(session.getSnapshot().invalid).toEqual(['amount', 'currency']);
    await session.requestSend(true);
    expect(calls.checks).toBe(1);
    expect(calls.sent).toEqual([30]);
    expect(session.getSnapshot().invalid).toBeNull();
  });

  it('asks before moving money on a production target; a status check goes at once', async () => {
    const sale = setup('v2/sale', { production: () => true });
    await sale.session.requestSend();
    expect(sale.calls.sent).toEqual([]);
    expect(sale.session.getSnapshot().confirming).toBe(true);
    sale.session.cancelConfirmation();
    expect(sale.session.getSnapshot().confirming).toBe(false);
    await sale.session.requestSend();
    sale.session.send();
    expect(sale.calls.sent).toEqual([30]);
    expect(sale.session.getSnapshot().confirming).toBe(false);

    const status = setup('v2/status', { production: () => true });
    expect(op('v2/status').movesMoney).toBeFalsy();
    await status.session.requestSend();
    expect(status.calls.sent).toEqual([30]);
  });

  it('sends on opening once, when a profile is ready, through the same checks', async () => {
    const { session, calls } = setup('v2/sale', {}, { sendOnOpen: true });
    await session.profileReady();
    await session.profileReady();
    expect(calls.checks).toBe(1);
    expect(calls.sent).toEqual([30]);
    const plain = setup();
    await plain.session.profileReady();
    expect(plain.calls.sent).toEqual([]);
  });

  it('marks the answer stale when the form leaves its request, with no new snapshot per keystroke', () => {
    const { session, notified } = setup();
    const edited: RequestDraft = { ...draft, values: { ...draft.values, amount: '11.00' } };
    session.formChanged(edited);
    expect(notified()).toBe(0);
    session.answered(draftKey(draft));
    const afterAnswer = notified();
    const snap = session.getSnapshot();
    session.formChanged(draft);
    expect(session.getSnapshot()).toBe(snap);
    session.formChanged(edited);
    session.formChanged({ ...edited, values: { ...edited.values, currency: 'USD' } });
    expect(session.getSnapshot().stale).toBe(true);
    expect(notified()).toBe(afterAnswer + 1);
    session.formChanged(draft);
    expect(session.getSnapshot().stale).toBe(false);
    session.answered(draftKey(edited));
    session.formChanged(edited);
    expect(session.getSnapshot().stale).toBe(false);
  });

  it('dates test data by the injected clock and tells a late fill from the latest', () => {
    const { session } = setup();
    const first = session.testData('123', place);
    expect(first.now).toBe(NOW);
    expect(first.values['client_orderid']).toBe(`inv-${NOW}`);
    expect(first.values['expire_year']).toBe('2029');
    expect(first.values['cvv2']).toBe('123');
    expect(first.values['redirect_url']).toBe('http://console.test/return');
    expect(session.isLatestFill(first.fill)).toBe(true);
    const second = session.testData('123', place);
    expect(session.isLatestFill(first.fill)).toBe(false);
    expect(session.isLatestFill(second.fill)).toBe(true);
  });

  it('drops the opened endpoint and, on Clear, the withheld values and failed checks', () => {
    const { session } = setup(
      'v2/sale',
      {},
      { endpoint: { kind: 'endpoint', id: '7' }, withheld: { cvv2: 'cvv' } },
    );
    expect(session.getSnapshot().endpoint).toEqual({ kind: 'endpoint', id: '7' });
    session.useProfileEndpoint();
    expect(session.getSnapshot().endpoint).toBeUndefined();
    session.showInvalid(['amount']);
    session.cleared();
    expect(session.getSnapshot()).toMatchObject({ invalid: null, withheld: undefined });
  });
});
