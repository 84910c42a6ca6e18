/**
 * One value from a keystroke to the answer, without React (issue 29 §1): the session turns each
 * form change into one draft and one build with the real Web Crypto signer, sends the request the
 * panes show through a fake transport, and puts the answer in the same snapshot.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BuiltRequest } from '../../src/core/index.ts';
import type { FormState, WorkbenchSnapshot } from '../../src/features/console/workbench/workbench-session.ts';
import { CONTROL_KEY } from '../model/signing-env.ts';
import { harness, nextBuild, PLACE, profile, until } from './workbench-harness.ts';

const sale = (amount: string, orderId = 'inv-1'): FormState => ({
  values: { client_orderid: orderId, amount, currency: 'EUR', email: 'a@example.com' },
  meta: {},
});

/** v2/sale's `control`, computed with node:crypto: endpoint id, order id, minor units, email, key. */
function control(minor: string, orderId = 'inv-1'): string {
  return createHash('sha1').update(`1111${orderId}${minor}a@example.com${CONTROL_KEY}`).digest('hex');
}

function built(s: WorkbenchSnapshot): BuiltRequest {
  const r = s.live.result;
  if (!r?.ok) throw new Error(`no build: ${r ? r.message : 'none yet'}`);
  return r.built;
}

describe('the workbench session, keystroke → build → send → answer', () => {
  it('builds and signs once per form change, with the real signer', async () => {
    const { session, signatures } = harness();
    let landed = 0;
    let last = session.getSnapshot().live.result;
    session.subscribe(() => {
      const r = session.getSnapshot().live.result;
      if (r !== last) landed++;
      last = r;
    });
    const typed: Array<[string, string]> = [
      ['1', '100'],
      ['10', '1000'],
      ['10.4', '1040'],
      ['10.42', '1042'],
    ];
    for (const [amount, minor] of typed) {
      const before = { signatures: signatures(), landed };
      const next = nextBuild(session);
      session.formChanged(sale(amount));
      const s = await next;
      expect(signatures() - before.signatures, amount).toBe(1);
      expect(landed - before.landed, amount).toBe(1);
      expect(built(s).signing.signature).toBe(control(minor));
      expect(built(s).bodyText).toContain(`&amount=${amount}&`);
    }
    // A change that leaves the request alone (the same values again) builds nothing.
    const before = signatures();
    session.formChanged(sale('10.42'));
    expect(signatures()).toBe(before);
    // Two keys before the first build lands: two builds, and only the latest reaches the panes.
    const both = landed;
    session.formChanged(sale('10.4'));
    session.formChanged(sale('10.43'));
    const s = await until(
      session,
      (x) => x.live.result?.ok === true && built(x).signing.signature === control('1043'),
    );
    expect(signatures()).toBe(before + 2);
    expect(landed).toBe(both + 1);
    expect(built(s).signing.signature).toBe(control('1043'));
  });

  it('sends the very request on screen, without signing again, and shows its answer', async () => {
    const { session, calls, signatures, nextRequest } = harness();
    const next = nextBuild(session);
    session.formChanged(sale('10.42'));
    const shown = built(await next);
    const signed = signatures();
    const arrived = nextRequest();
    const sent = session.requestSend();
    expect(await arrived).toBe(shown);
    await sent;
    expect(signatures()).toBe(signed);
    const snap = session.getSnapshot();
    expect(snap.send).toMatchObject({ pending: false, error: null });
    expect(snap.send.outcome?.built).toBe(shown);
    expect(snap.send.outcome?.interpreted).toMatchObject({ httpStatus: 200, type: 'async-response' });
    expect(snap.send.outcome?.interpreted.json).toMatchObject({ 'paynet-order-id': '9001' });
    expect(calls.records).toHaveLength(1);
    expect(calls.records[0]!.request).toEqual({
      method: shown.method,
      url: shown.url,
      headers: shown.headers.map(({ name, value }) => ({ name, value })),
      body: shown.body.map(({ name, value }) => ({ name, value })),
    });
    expect(snap.stale).toBe(false);
    // The next key leaves the answer's request: marked stale, and signed again once.
    const edited = nextBuild(session);
    session.formChanged(sale('10.43'));
    expect(session.getSnapshot().stale).toBe(true);
    await edited;
    expect(signatures()).toBe(signed + 1);
  });

  it('signs an unpinned OAuth request afresh for the send and shows the request that went', async () => {
    const { session, signatures, nextRequest } = harness('v2/payout');
    const next = nextBuild(session);
    session.formChanged({
      values: { client_orderid: 'po-1', amount: '5.00', currency: 'EUR' },
      meta: {},
    });
    const preview = built(await next);
    expect(preview.signing.scheme).toBe('oauth-hmac-sha1');
    const signed = signatures();
    const arrived = nextRequest();
    const sent = session.requestSend(true);
    const went = await arrived;
    await sent;
    expect(signatures()).toBe(signed + 1);
    expect(went).not.toBe(preview);
    expect(went.signing.scheme === 'oauth-hmac-sha1' && went.signing.nonce).not.toBe(
      preview.signing.scheme === 'oauth-hmac-sha1' && preview.signing.nonce,
    );
    expect(built(session.getSnapshot())).toBe(went);
  });

  it("resolves `{{name}}` from the profile's variables, and signs again when they change", async () => {
    const { session, variables } = harness();
    let next = nextBuild(session);
    session.formChanged(sale('10.42', '{{order}}'));
    let s = await next;
    expect(s.live.variables).toEqual({ uses: [], unresolved: ['order'] });
    next = nextBuild(session);
    variables.set({ p1: { order: 'inv-7' } });
    s = await next;
    expect(built(s).signing.signature).toBe(control('1042', 'inv-7'));
    expect(s.live.variables.unresolved).toEqual([]);
    expect(s.live.variables.uses).toMatchObject([
      { param: 'client_orderid', variable: 'order', shown: 'inv-7' },
    ]);
    // The form keeps what was typed: export, share and teaching read the variable, not its value.
    expect(session.draft().values['client_orderid']).toBe('{{order}}');
  });

  it('builds nothing without a profile, and the first build when one is active', async () => {
    const { session, signatures } = harness('v2/sale', { context: null });
    session.formChanged(sale('10.42'));
    expect(signatures()).toBe(0);
    expect(session.getSnapshot().live.result).toBeNull();
    const next = nextBuild(session);
    await session.profileChanged({ context: profile(), place: PLACE });
    expect(built(await next).signing.signature).toBe(control('1042'));
    expect(signatures()).toBe(1);
  });
});
