/**
 * A snippet is planned from the draft and the signing environment with the model's own decisions:
 * the plan holds the URL, parameters, scheme, formula, nonce and timestamp the workbench builds for
 * that draft. No interpreter runs here: test/exports/snippets.test.ts is the one suite that runs the
 * snippets (against the sandbox, and dry runs that print the workbench's signature).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findOperation, OPERATIONS, type Operation } from '../../src/catalog/index.ts';
import type { ControlTerm, Scheme } from '../../src/core/index.ts';
import { planSnippet, renderSnippet, type SnippetPlan, type SnippetTarget } from '../../src/exports/index.ts';
import { buildDraft, exampleDraft, type RequestDraft } from '../../src/model/index.ts';
import { draftOf } from './draft-arbitraries.ts';
import { BASE_URL, PLACE, signingEnv } from './signing-env.ts';

const op = (p: string): Operation => findOperation(p)!;
const TRICKY = "Café #1 — !'()* a+b=c&d 100% 😀";
const TARGET: SnippetTarget = {
  place: PLACE,
  baseUrl: BASE_URL,
  endpoint: { kind: 'endpoint', id: '1111' },
  credentials: { login: PLACE.login },
};

/** The plan agrees with the workbench's build of the same draft: URL, body, scheme, formula, pinned values. */
async function expectPlanMatchesBuild(draft: RequestDraft, plan: SnippetPlan): Promise<void> {
  const built = await buildDraft(draft, signingEnv());
  const why = JSON.stringify(draft);
  expect(plan.url, why).toBe(built.url);
  expect(
    plan.params.map((p) => ({ name: p.name, value: p.value })),
    why,
  ).toEqual(built.body.filter((p) => p.name !== 'control').map((p) => ({ name: p.name, value: p.value })));
  expect(plan.scheme, why).toBe(built.signing.scheme);
  if (built.signing.scheme === 'control') {
    expect(
      plan.formula.map((t) => (t.kind === 'field' ? t.name : t.kind)),
      why,
    ).toEqual(built.signing.terms.map((t) => t.label));
    expect(plan.pinned, why).toBeNull();
  } else {
    expect(plan.formula, why).toEqual([]);
    expect(plan.pinned, why).toEqual(
      draft.pinned ? { nonce: built.signing.nonce, timestamp: built.signing.timestamp } : null,
    );
  }
}

function payoutForm(scheme: Scheme, formula?: ControlTerm[]): RequestDraft {
  const d = exampleDraft(op('v2/payout-form'), {
    client_orderid: 'pf-1',
    order_desc: TRICKY,
    amount: '0.29',
  });
  return {
    ...d,
    ...(scheme !== 'oauth-hmac-sha1' ? { scheme } : {}),
    ...(formula ? { formula } : {}),
    ...(scheme !== 'control' ? { pinned: { nonce: 'Qm9uam91cg', timestamp: '1700000000' } } : {}),
  };
}

const EDITED: ControlTerm[] = [
  { kind: 'login' },
  { kind: 'field', name: 'client_orderid' },
  { kind: 'field', name: 'amount', minorUnits: true },
  { kind: 'field', name: 'order_desc' },
];

describe('a snippet plan is the workbench’s request', () => {
  test.each<[string, RequestDraft, Partial<SnippetPlan>]>([
    ['v2/payout-form, control with the catalog formula', payoutForm('control'), { scheme: 'control' }],
    [
      'v2/payout-form, control with an edited formula',
      payoutForm('control', EDITED),
      {
        scheme: 'control',
        formula: [
          { kind: 'login' },
          { kind: 'field', name: 'client_orderid', minorUnits: false },
          { kind: 'field', name: 'amount', minorUnits: true },
          { kind: 'field', name: 'order_desc', minorUnits: false },
        ],
      },
    ],
    [
      'v2/payout-form, OAuth HMAC-SHA1 pinned',
      payoutForm('oauth-hmac-sha1'),
      { scheme: 'oauth-hmac-sha1', pinned: { nonce: 'Qm9uam91cg', timestamp: '1700000000' } },
    ],
    [
      'v2/payout-form, switched to OAuth RSA-SHA256 pinned',
      payoutForm('oauth-rsa-sha256'),
      { scheme: 'oauth-rsa-sha256', pinned: { nonce: 'Qm9uam91cg', timestamp: '1700000000' } },
    ],
    [
      'v2/sale to an endpoint group (the draft’s endpoint wins over the profile’s)',
      { ...exampleDraft(op('v2/sale'), { order_desc: TRICKY }), endpoint: { kind: 'group', id: '2222' } },
      { endpoint: { kind: 'group', id: '2222' }, pathAfterApi: 'v2/sale/group/2222' },
    ],
    [
      'v2/payout unpinned: fresh nonce and timestamp on every run',
      exampleDraft(op('v2/payout'), { order_desc: TRICKY }),
      { scheme: 'oauth-hmac-sha1', pinned: null, endpoint: { kind: 'endpoint', id: '1111' } },
    ],
  ])('%s', async (_name, draft, expected) => {
    const plan = planSnippet(draft, TARGET);
    expect(plan).toMatchObject(expected);
    await expectPlanMatchesBuild(draft, plan);
  });

  test('drafts drawn from the whole catalog, every scheme (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OPERATIONS).chain((o) => draftOf(o)),
        async (draft) => expectPlanMatchesBuild(draft, planSnippet(draft, TARGET)),
      ),
      { numRuns: 200, seed: 8 },
    );
  });

  test('the login parameter that is the merchant login becomes the LOGIN variable; another stays text', () => {
    const status = (login: string): RequestDraft => ({
      v: 2,
      operation: 'v2/status',
      values: { login, client_orderid: 'o-1', orderid: '9' },
      extras: [],
    });
    expect(planSnippet(status(PLACE.login), TARGET).params[0]).toEqual({
      name: 'login',
      value: PLACE.login,
      isLogin: true,
    });
    expect(planSnippet(status('someone-else'), TARGET).params[0]?.isLogin).toBe(false);
  });

  test('refuses a draft that came without values, naming them, before any language is rendered', () => {
    const draft: RequestDraft = {
      ...exampleDraft(op('v2/sale')),
      values: { ...exampleDraft(op('v2/sale')).values, cvv2: { withheld: 'cvv' } },
    };
    expect(() => planSnippet(draft, TARGET)).toThrow(
      'Cannot generate this snippet: cvv2 (CVV) was not kept with this request. Fill it in first.',
    );
    expect(() => renderSnippet('bash', draft, TARGET)).toThrow(/cvv2 \(CVV\) was not kept/);
  });
});
