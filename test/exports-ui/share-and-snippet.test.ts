import { describe, expect, it } from 'vitest';
import { planSnippet, renderSnippet } from '../../src/exports/index.ts';
import { readShareFragment, shareLinkFor } from '../../src/features/exports/share-fragment.ts';
import type { Place, RequestDraft } from '../../src/model/index.ts';
import type { SigningContext } from '../../src/model/signing-context.ts';
import { parseRoute } from '../../src/app/routes.ts';

const KEY = 'SECRET-CONTROL-KEY-1234-5678';
const context: SigningContext = {
  profileId: 'p',
  profileName: 'p',
  target: { name: 'local', baseUrl: 'http://127.0.0.1:4173/sandbox/paynet', kind: 'local' },
  endpoint: { kind: 'endpoint', id: '1111' },
  credentials: { login: 'demo-merchant', controlKey: KEY },
};
const place: Place = {
  origin: 'http://127.0.0.1:4173',
  inboxUrl: 'http://127.0.0.1:4173/callbacks/s-x',
  login: 'demo-merchant',
};
const sale: RequestDraft = {
  v: 2,
  operation: 'v2/sale',
  values: {
    email: 'a@example.com',
    client_orderid: 'inv-7',
    amount: '10.42',
    credit_card_number: '4444444444444448',
    cvv2: '321',
    ssn: '',
    control: 'c6bdd88a78834ef4b863b088827a459f039e8257',
  },
  extras: [{ name: 'threeds_version', value: '2' }],
};

describe('share links from the workbench', () => {
  it('carries values only, says what was left out, and reads back', () => {
    const { url, leftOut } = shareLinkFor(sale, 'http://127.0.0.1:4173');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4173\/ops\/v2\/sale#share=[A-Za-z0-9_-]+$/);
    expect(leftOut.sort()).toEqual([
      'control (signature, computed again)',
      'credit_card_number (card number)',
      'cvv2 (CVV)',
    ]);
    const token = new URL(url).hash.slice('#share='.length);
    const json = Buffer.from(token, 'base64url').toString('utf8');
    // Card fields keep their names, withheld (a send asks for them), never their values.
    for (const banned of ['4444444444444448', '321', '"cvv2":"', 'control', KEY, 'ssn'])
      expect(json).not.toContain(banned);
    const back = readShareFragment(new URL(url).hash);
    expect(back).toEqual({
      draft: {
        v: 2,
        operation: 'v2/sale',
        values: {
          email: 'a@example.com',
          client_orderid: 'inv-7',
          amount: '10.42',
          credit_card_number: { withheld: 'card-number' },
          cvv2: { withheld: 'cvv' },
        },
        extras: [{ name: 'threeds_version', value: '2' }],
      },
    });
  });

  it('ignores other fragments and explains a damaged link', () => {
    expect(readShareFragment('')).toBeNull();
    expect(readShareFragment('#main')).toBeNull();
    const bad = readShareFragment('#share=%%%');
    expect(bad && 'error' in bad && bad.error).toMatch(/damaged.*copy it whole/);
  });
});

const target = (includeSecrets: boolean) => ({
  place,
  baseUrl: context.target.baseUrl,
  endpoint: context.endpoint,
  credentials: context.credentials,
  includeSecrets,
});

describe('snippet plan from the workbench draft', () => {
  it('keeps the draft’s order, drops control, and leaves secrets out unless asked', () => {
    const plan = planSnippet(sale, target(false));
    const names = plan.params.map((p) => p.name);
    expect(names).toEqual([
      'email',
      'client_orderid',
      'amount',
      'credit_card_number',
      'cvv2',
      'threeds_version',
    ]);
    expect(plan.embedded).toBeNull();
    const plain = renderSnippet('python', sale, target(false));
    expect(plain.containsSecrets).toBe(false);
    expect(plain.code).not.toContain(KEY);
    expect(plain.code).not.toContain('c6bdd88a78834ef4b863b088827a459f039e8257');
    const secret = renderSnippet('python', sale, target(true));
    expect(secret.containsSecrets).toBe(true);
    expect(secret.code).toContain(KEY);
  });

  it('refuses a draft that came without values, naming them (it would sign fewer parameters)', () => {
    const kept: RequestDraft = {
      ...sale,
      values: { ...sale.values, credit_card_number: { withheld: 'card-number' }, cvv2: { withheld: 'cvv' } },
    };
    expect(() => planSnippet(kept, target(false))).toThrow(
      'Cannot generate this snippet: credit_card_number (card number) and cvv2 (CVV) were not kept with this request. Fill them in first.',
    );
  });

  it('refuses an operation the catalog does not know, saying what to give', () => {
    expect(() =>
      planSnippet({ v: 2, operation: 'v9/nothing', values: {}, extras: [] }, target(false)),
    ).toThrow(/No operation is at "v9\/nothing"/);
  });

  it('carries the chosen scheme, an edited formula and the pinned values', () => {
    const form: RequestDraft = {
      v: 2,
      operation: 'v2/payout-form',
      scheme: 'oauth-rsa-sha256',
      values: { client_orderid: 'pf-1', amount: '1.00' },
      extras: [],
      pinned: { nonce: 'abc', timestamp: '1700000000' },
    };
    const rsa = planSnippet(form, target(false));
    expect(rsa).toMatchObject({
      scheme: 'oauth-rsa-sha256',
      pinned: { nonce: 'abc', timestamp: '1700000000' },
    });
    expect(renderSnippet('node', form, target(false)).code).toContain("createSign('RSA-SHA256')");
    const editedDraft: RequestDraft = {
      ...form,
      scheme: 'control',
      formula: [{ kind: 'login' }, { kind: 'field', name: 'client_orderid' }],
    };
    const edited = planSnippet(editedDraft, target(false));
    expect(edited.formula).toEqual([
      { kind: 'login' },
      { kind: 'field', name: 'client_orderid', minorUnits: false },
    ]);
    expect(renderSnippet('node', editedDraft, target(false)).code).toMatch(
      /LOGIN,\s+param\("client_orderid"\),\s+\]/,
    );
  });
});

describe('routes of the flows and exports pages', () => {
  it('reads /flows, /flows/<id> and /export', () => {
    expect(parseRoute('/flows')).toEqual({ kind: 'flows', id: null });
    expect(parseRoute('/flows/sale-3ds-2/')).toEqual({ kind: 'flows', id: 'sale-3ds-2' });
    expect(parseRoute('/export')).toEqual({ kind: 'export' });
  });
});
