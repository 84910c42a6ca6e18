import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { buildFor } from '../../src/features/console/build.ts';
import {
  duplicateExtraNames,
  fromFormulaRows,
  initialValues,
  presetExtras,
  toFormulaRows,
  toInputParams,
} from '../../src/features/console/form-params.ts';

const sale = findOperation('v2/sale')!;
const status = findOperation('v2/status')!;
const cardInfo = findOperation('v2/get-card-info')!;

describe('form values to request parameters', () => {
  it('fills login from the profile and tags it while it holds the profile value', () => {
    const v = initialValues(status, 'demo', { client_orderid: 'inv-1', nope: 'x' });
    expect(v).toEqual({ login: 'demo', client_orderid: 'inv-1', orderid: '', 'by-request-sn': '' });
    const params = toInputParams(
      status,
      v,
      [
        { name: 'extra_one', value: '1' },
        { name: ' ', value: 'dropped' },
      ],
      'demo',
    );
    expect(params.map((p) => [p.name, p.source])).toEqual([
      ['login', 'profile'],
      ['client_orderid', 'form'],
      ['orderid', 'form'],
      ['by-request-sn', 'form'],
      ['extra_one', 'extra'],
    ]);
    expect(toInputParams(status, { ...v, login: 'other' }, [], 'demo')[0]!.source).toBe('form');
  });

  it('turns unknown preset values into extra rows and spots duplicate names', () => {
    expect(presetExtras(status, { client_orderid: 'a', custom: 'b' })).toEqual([
      { name: 'custom', value: 'b' },
    ]);
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
    const values = {
      ...initialValues(sale, 'demo'),
      client_orderid: '902B4FF5',
      amount: '10.42',
      email: 'john.smith@gmail.com',
    };
    const key = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
    const r = await buildFor({
      op: sale,
      scheme: 'control',
      params: toInputParams(sale, values, [], 'demo'),
      context: {
        profileId: 'p',
        profileName: 'p',
        target: { name: 'local', baseUrl: 'http://127.0.0.1:4183/sandbox/paynet', kind: 'local' },
        endpoint: { kind: 'endpoint', id: '1111' },
        credentials: { login: 'demo', controlKey: key },
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const expected = createHash('sha1').update(`1111902B4FF51042john.smith@gmail.com${key}`).digest('hex');
    expect(expected).toBe('c6bdd88a78834ef4b863b088827a459f039e8257');
    expect(r.built.signing.signature).toBe(expected);
    expect(r.built.body.at(-1)).toEqual({ name: 'control', value: expected, source: 'computed' });
  });

  it('signs get-card-info with an edited formula override', async () => {
    const key = 'k';
    const r = await buildFor({
      op: cardInfo,
      scheme: 'control',
      params: toInputParams(cardInfo, { login: 'demo', cardrefid: '77' }, [], 'demo'),
      formulaOverride: fromFormulaRows([
        { kind: 'field', name: 'cardrefid' },
        { kind: 'login', name: '' },
      ]),
      context: {
        profileId: 'p',
        profileName: 'p',
        target: { name: 'local', baseUrl: 'http://127.0.0.1:4183/sandbox/paynet', kind: 'local' },
        endpoint: { kind: 'endpoint', id: '1' },
        credentials: { login: 'demo', controlKey: key },
      },
    });
    expect(r.ok && r.built.signing.signature).toBe(createHash('sha1').update(`77demo${key}`).digest('hex'));
  });

  it('reports a bad endpoint id as a message instead of throwing', async () => {
    const r = await buildFor({
      op: sale,
      scheme: 'control',
      params: [],
      context: {
        profileId: 'p',
        profileName: 'p',
        target: { name: 'local', baseUrl: 'http://127.0.0.1:4183/sandbox/paynet', kind: 'local' },
        endpoint: { kind: 'endpoint', id: '12a' },
        credentials: { login: 'demo' },
      },
    });
    expect(r).toMatchObject({ ok: false, code: 'ENDPOINT_INVALID' });
  });
});
