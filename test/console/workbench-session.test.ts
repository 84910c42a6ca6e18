/** The workbench around its Send, headless: real signing and exchange, a fake transport, no React, no timers. */
import { describe, expect, it } from 'vitest';
import type { FormState } from '../../src/features/console/workbench/workbench-session.ts';
import { harness, NOW, nextBuild, op, profile, PLACE } from './workbench-harness.ts';

const SALE: FormState = {
  values: { client_orderid: 'inv-1', amount: '10.00', currency: 'EUR' },
  meta: {},
};
const edit = (values: Record<string, string>): FormState => ({
  values: { ...SALE.values, ...values },
  meta: {},
});

describe('WorkbenchSession', () => {
  it('sends a valid form with the kept timeout', async () => {
    const { session, calls } = harness('v2/sale', { stored: 45 });
    session.formChanged(SALE);
    expect(session.getSnapshot().timeoutText).toBe('45');
    await session.requestSend();
    expect(calls.checks).toBe(1);
    expect(calls.sent).toEqual([45]);
    expect(session.getSnapshot()).toMatchObject({ invalid: null, confirming: false, refusals: 0 });
  });

  it('does nothing while a send is under way', async () => {
    const { session, calls, release, nextRequest } = harness('v2/sale', { hold: true });
    session.formChanged(SALE);
    const arrived = nextRequest();
    const first = session.requestSend();
    await arrived;
    expect(session.getSnapshot().send.pending).toBe(true);
    await session.requestSend();
    expect(calls).toMatchObject({ sent: [30], checks: 1 });
    release();
    await first;
    expect(session.getSnapshot().send.pending).toBe(false);
  });

  it('keeps a typed timeout, refuses to send with a bad one and focuses its box', async () => {
    const { session, calls } = harness();
    session.formChanged(SALE);
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
    const { session, calls } = harness('v2/sale', {}, { withheld: { cvv2: 'cvv' } });
    session.formChanged(edit({ cvv2: '' }));
    session.showInvalid(['amount']);
    await session.requestSend();
    await session.requestSend(true);
    expect(calls).toMatchObject({ sent: [], checks: 0 });
    expect(session.getSnapshot()).toMatchObject({ refusals: 2, invalid: null });
  });

  it('names the fields that fail the checks and focuses the first; "send anyway" skips them', async () => {
    const { session, calls } = harness('v2/sale', { invalid: ['amount', 'currency'] });
    session.formChanged(SALE);
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
    const sale = harness('v2/sale', { context: profile('production') });
    sale.session.formChanged(SALE);
    await sale.session.requestSend();
    expect(sale.calls.sent).toEqual([]);
    expect(sale.session.getSnapshot().confirming).toBe(true);
    sale.session.cancelConfirmation();
    expect(sale.session.getSnapshot().confirming).toBe(false);
    await sale.session.requestSend();
    await sale.session.send();
    expect(sale.calls.sent).toEqual([30]);
    expect(sale.session.getSnapshot().confirming).toBe(false);

    const status = harness('v2/status', { context: profile('production') });
    status.session.formChanged({
      values: { login: PLACE.login, client_orderid: 'inv-1', orderid: '9001' },
      meta: {},
    });
    expect(op('v2/status').movesMoney).toBeFalsy();
    await status.session.requestSend();
    expect(status.calls.sent).toEqual([30]);
  });

  it('sends on opening once, when a profile is ready, through the same checks', async () => {
    const { session, calls } = harness('v2/sale', { context: null }, { sendOnOpen: true });
    session.formChanged(SALE);
    await session.profileChanged({ context: null, place: PLACE });
    expect(calls.checks).toBe(0);
    const ready = { context: profile(), place: PLACE };
    await session.profileChanged(ready);
    await session.profileChanged(ready);
    expect(calls.checks).toBe(1);
    expect(calls.sent).toEqual([30]);
    const plain = harness();
    plain.session.formChanged(SALE);
    await plain.session.profileChanged({ context: profile(), place: PLACE });
    expect(plain.calls.sent).toEqual([]);
  });

  it('marks the answer stale when the form leaves its request, with no extra snapshot per keystroke', async () => {
    const { session, notified } = harness();
    session.formChanged(SALE);
    await nextBuild(session);
    await session.requestSend();
    expect(session.getSnapshot().stale).toBe(false);
    const afterAnswer = notified();
    // Each change is one new build (one snapshot); only the flip of `stale` adds one.
    let landed = nextBuild(session);
    session.formChanged(edit({ amount: '11.00' }));
    await landed;
    landed = nextBuild(session);
    session.formChanged(edit({ amount: '11.00', currency: 'USD' }));
    await landed;
    expect(session.getSnapshot().stale).toBe(true);
    expect(notified()).toBe(afterAnswer + 1 + 2);
    session.formChanged(SALE);
    expect(session.getSnapshot().stale).toBe(false);
    // The answer of the edited request is not stale for it.
    session.formChanged(edit({ amount: '11.00' }));
    await session.requestSend();
    const snap = session.getSnapshot();
    expect(snap.stale).toBe(false);
    session.formChanged(edit({ amount: '11.00' }));
    expect(session.getSnapshot()).toBe(snap);
  });

  it('dates test data by the injected clock and tells a late fill from the latest', () => {
    const { session } = harness();
    const first = session.testData('123');
    expect(first.now).toBe(NOW);
    expect(first.values['client_orderid']).toBe(`inv-${NOW}`);
    expect(first.values['expire_year']).toBe('2029');
    expect(first.values['cvv2']).toBe('123');
    expect(first.values['redirect_url']).toBe('http://console.test/return');
    expect(session.isLatestFill(first.fill)).toBe(true);
    const second = session.testData('123');
    expect(session.isLatestFill(first.fill)).toBe(false);
    expect(session.isLatestFill(second.fill)).toBe(true);
  });

  it('drops the opened endpoint and, on Clear, the withheld values and failed checks', () => {
    const { session } = harness(
      'v2/sale',
      {},
      { endpoint: { kind: 'endpoint', id: '7' }, withheld: { cvv2: 'cvv' } },
    );
    session.formChanged(edit({ cvv2: '' }));
    expect(session.getSnapshot().endpoint).toEqual({ kind: 'endpoint', id: '7' });
    expect(session.draft().endpoint).toEqual({ kind: 'endpoint', id: '7' });
    expect(session.draft().values['cvv2']).toEqual({ withheld: 'cvv' });
    session.useProfileEndpoint();
    expect(session.getSnapshot().endpoint).toBeUndefined();
    expect(session.draft().endpoint).toBeUndefined();
    session.showInvalid(['amount']);
    session.cleared();
    expect(session.getSnapshot()).toMatchObject({ invalid: null, withheld: undefined });
    expect(session.draft().values['cvv2']).toBe('');
  });
});
