import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { secureNonceSource, webCryptoPort } from '../../src/core/index.ts';
import { tryBuild } from '../../src/features/console/panes/build.ts';
import {
  duplicateExtraNames,
  fromFormulaRows,
  toFormulaRows,
} from '../../src/features/console/form/form-params.ts';
import {
  draftFromValues,
  draftParams,
  emptyDraft,
  formFromDraft,
  resolveDraft,
  type Place,
  type RequestDraft,
  type SigningEnv,
} from '../../src/model/index.ts';

const sale = findOperation('v2/sale')!;
const status = findOperation('v2/status')!;
const cardInfo = findOperation('v2/get-card-info')!;
const place: Place = {
  origin: 'http://127.0.0.1:4183',
  inboxUrl: 'http://127.0.0.1:4183/callbacks/s-1',
  login: 'demo',
};

function env(controlKey: string | undefined, id = '1111'): SigningEnv {
  return {
    place,
    baseUrl: 'http://127.0.0.1:4183/sandbox/paynet',
    endpoint: { kind: 'endpoint', id },
    credentials: { login: 'demo', ...(controlKey ? { controlKey } : {}) },
    runtime: { crypto: webCryptoPort(), nonce: secureNonceSource(), clock: () => 1_700_000_000_000 },
  };
}

function formDraft(
  op = status,
  values: Record<string, string> = {},
  extras: Array<{ name: string; value: string }> = [],
): RequestDraft {
  const opened = formFromDraft(op, emptyDraft(op.path), place);
  return draftFromValues(op, { ...opened, values: { ...opened.values, ...values }, extras }, place);
}

describe('form values to request parameters (through the request model)', () => {
  it('fills login from the profile and tags it while it holds the profile value', () => {
    const opened = formFromDraft(
      status,
      { ...emptyDraft(status.path), values: { client_orderid: 'inv-1' } },
      place,
    );
    expect(opened.values).toEqual({
      login: 'demo',
      client_orderid: 'inv-1',
      orderid: '',
      'by-request-sn': '',
    });
    const draft = draftFromValues(
      status,
      {
        ...opened,
        extras: [
          { name: 'extra_one', value: '1' },
          { name: ' ', value: 'dropped' },
        ],
      },
      place,
    );
    expect(draftParams(status, resolveDraft(draft, place)).map((p) => [p.name, p.source])).toEqual([
      ['login', 'profile'],
      ['client_orderid', 'form'],
      ['orderid', 'form'],
      ['by-request-sn', 'form'],
      ['extra_one', 'extra'],
    ]);
    const other = draftFromValues(status, { ...opened, values: { ...opened.values, login: 'other' } }, place);
    expect(draftParams(status, resolveDraft(other, place))[0]).toEqual({
      name: 'login',
      value: 'other',
      source: 'form',
    });
  });

  it('turns values that are no field into extra rows and spots duplicate names', () => {
    const opened = formFromDraft(
      status,
      { ...emptyDraft(status.path), values: { client_orderid: 'a', custom: 'b' } },
      place,
    );
    expect(opened.extras).toEqual([{ name: 'custom', value: 'b' }]);
    expect([
      ...duplicateExtraNames(status, [
        { name: 'orderid', value: '' },
        { name: 'x', value: '' },
        { name: 'x', value: '' },
      ]),
    ]).toEqual(['orderid', 'x']);
  });

  it('round-trips formula terms through the editor rows', () => {
    const rows = toFormulaRows(sale.formula!);
    expect(rows).toEqual([
      { kind: 'endpointId', name: '' },
      { kind: 'field', name: 'client_orderid' },
      { kind: 'minor', name: 'amount' },
      { kind: 'field', name: 'email' },
    ]);
    expect(fromFormulaRows(rows)).toEqual(sale.formula);
    expect(
      fromFormulaRows([
        { kind: 'field', name: '  ' },
        { kind: 'login', name: 'ignored' },
      ]),
    ).toEqual([{ kind: 'login' }]);
  });

  it('signs the published sale example through the form path (checked with Node crypto)', async () => {
    const key = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
    const draft = formDraft(sale, {
      client_orderid: '902B4FF5',
      amount: '10.42',
      email: 'john.smith@gmail.com',
    });
    const r = await tryBuild(draft, env(key));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const expected = createHash('sha1').update(`1111902B4FF51042john.smith@gmail.com${key}`).digest('hex');
    expect(expected).toBe('c6bdd88a78834ef4b863b088827a459f039e8257');
    expect(r.built.signing.signature).toBe(expected);
    expect(r.built.body.at(-1)).toEqual({ name: 'control', value: expected, source: 'computed' });
  });

  it('signs get-card-info with an edited formula', async () => {
    const key = 'k';
    const opened = formFromDraft(cardInfo, emptyDraft(cardInfo.path), place);
    const draft = draftFromValues(
      cardInfo,
      {
        ...opened,
        values: { login: 'demo', cardrefid: '77' },
        formula: fromFormulaRows([
          { kind: 'field', name: 'cardrefid' },
          { kind: 'login', name: '' },
        ]),
      },
      place,
    );
    expect(draft.formula).toEqual([{ kind: 'field', name: 'cardrefid' }, { kind: 'login' }]);
    const r = await tryBuild(draft, env(key, '1'));
    expect(r.ok && r.built.signing.signature).toBe(createHash('sha1').update(`77demo${key}`).digest('hex'));
  });

  it('reports a bad endpoint id as a message instead of throwing', async () => {
    const r = await tryBuild(emptyDraft(sale.path), env(undefined, '12a'));
    expect(r).toMatchObject({ ok: false, code: 'ENDPOINT_INVALID' });
  });

  it('previews a request with a bad endpoint id, signed over the id as typed, its problem named', async () => {
    const key = 'K';
    const draft = formDraft(sale, { client_orderid: 'inv-1', amount: '10.00', email: 'a@b.c' });
    for (const [id, code] of [
      ['12a', 'ENDPOINT_INVALID'],
      ['9223372036854775808', 'ENDPOINT_OUT_OF_RANGE'],
    ] as const) {
      const r = await tryBuild(draft, env(key, id), { keepInvalidEndpoint: true });
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(r.built.problems[0]).toMatchObject({ code, field: 'endpointId' });
      expect(r.built.url).toBe(`http://127.0.0.1:4183/sandbox/paynet/api/v2/sale/${id}`);
      // sale signs endpointId + client_orderid + amount in cents + email + key
      expect(r.built.signing.signature).toBe(
        createHash('sha1').update(`${id}inv-11000a@b.c${key}`).digest('hex'),
      );
      // Without the preview option the same build refuses (a send never goes out with it).
      expect(await tryBuild(draft, env(key, id))).toMatchObject({ ok: false, code });
    }
  });
});
