/**
 * The request model's round trips (issue 8 §1): draft → share link → draft is identical; draft →
 * raw HTTP / curl / HAR → import → draft reproduces the signature byte for byte; over every
 * operation of the catalog, every scheme it allows, edited formulas, pinned and unpinned.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../../src/catalog/index.ts';
import { renderCurl, renderRawHttp, type BuiltRequest } from '../../src/core/index.ts';
import { exchangesToHar, importCapture } from '../../src/exports/index.ts';
import {
  buildDraft,
  draftFromValues,
  draftParams,
  exampleDraft,
  formFromDraft,
  isDraftError,
  operationOf,
  resolveDraft,
  schemesOf,
  type Place,
  type RequestDraft,
} from '../../src/model/index.ts';
import { decodeShareLink, encodeShareLink, prepareShareDraft } from '../../src/model/share-link.ts';
import { anyDraft, draftOf } from './draft-arbitraries.ts';
import { PLACE, signingEnv } from './signing-env.ts';

const harOf = (b: BuiltRequest, op: string) =>
  JSON.stringify(
    exchangesToHar([
      {
        operationPath: op,
        profileName: 'p',
        targetName: 't',
        sentAt: '2026-11-23T18:00:00.000Z',
        request: {
          method: b.method,
          url: b.url,
          headers: b.headers.map((h) => ({ name: h.name, value: h.value })),
          body: b.body.map((p) => ({ name: p.name, value: p.value })),
        },
      },
    ]),
  );

const RENDER = {
  'raw HTTP': (b: BuiltRequest) => renderRawHttp(b),
  curl: (b: BuiltRequest) => renderCurl(b),
  HAR: (b: BuiltRequest, op: string) => harOf(b, op),
} as const;

describe('draft → share link → draft', () => {
  test('is identical for every operation, scheme, edited formula, placeholder, pinned or not (property)', () => {
    fc.assert(
      fc.property(anyDraft(), (draft) => {
        expect(prepareShareDraft(draft).dropped).toEqual([]);
        expect(decodeShareLink(encodeShareLink(draft))).toEqual(draft);
      }),
      { numRuns: 400 },
    );
  });

  test('a share link does not carry the sender’s inbox, return page or login: the recipient’s are used', () => {
    const sender: Place = PLACE;
    const recipient: Place = {
      origin: 'http://localhost:5000',
      inboxUrl: 'http://localhost:5000/callbacks/s-recipient',
      login: 'other-merchant',
    };
    const op = operationOf({ operation: 'v2/sale' });
    const draft = draftFromValues(
      op,
      {
        values: {
          client_orderid: 'inv-1',
          amount: '10.42',
          server_callback_url: sender.inboxUrl,
          redirect_url: `${sender.origin}/return`,
        },
        extras: [],
        scheme: op.scheme,
        formula: op.formula ?? [],
      },
      sender,
    );
    const link = encodeShareLink(draft);
    const text = Buffer.from(link.slice('#share='.length), 'base64url').toString('utf8');
    expect(text).not.toContain('s-abcdefgh');
    expect(text).not.toContain('4451');
    const opened = formFromDraft(op, decodeShareLink(link), recipient);
    expect(opened.values).toMatchObject({
      server_callback_url: recipient.inboxUrl,
      redirect_url: 'http://localhost:5000/return',
      client_orderid: 'inv-1',
    });
  });

  test('a version 1 link (before the model) still opens; its frozen inbox and login become the recipient’s', () => {
    const v1 = {
      v: 1,
      o: 'v2/status',
      p: [
        ['login', 'sender-login'],
        ['client_orderid', 'inv-9'],
        ['server_callback_url', 'http://127.0.0.1:4173/callbacks/s-sender'],
      ],
      x: [['note', 'hello']],
      e: 'g2222',
    };
    const token = Buffer.from(JSON.stringify(v1), 'utf8').toString('base64url');
    const draft = decodeShareLink(`https://console.example/ops/v2/status#share=${token}`);
    expect(draft).toEqual({
      v: 2,
      operation: 'v2/status',
      values: { login: { place: 'login' }, client_orderid: 'inv-9' },
      extras: [
        { name: 'server_callback_url', value: { place: 'callback-url' } },
        { name: 'note', value: 'hello' },
      ],
      endpoint: { kind: 'group', id: '2222' },
    });
    expect(resolveDraft(draft, PLACE).extras[0]!.value).toBe(PLACE.inboxUrl);
  });

  test('card data, CVV, secrets and signatures never travel, whoever made the link', () => {
    const draft: RequestDraft = {
      ...exampleDraft(operationOf({ operation: 'v2/sale' })),
      extras: [
        { name: 'note', value: 'card 4111-1111-1111-1111' },
        { name: 'merchant_control_key', value: 'B17F59B4' },
        { name: 'control', value: 'c6bdd88a78834ef4b863b088827a459f039e8257' },
        { name: 'custom', value: 'kept' },
      ],
    };
    const link = encodeShareLink(draft);
    const text = Buffer.from(link.slice('#share='.length), 'base64url').toString('utf8');
    for (const secret of ['4444444444444448', '4111-1111-1111-1111', '"cvv2":"', 'B17F59B4', 'c6bdd88a'])
      expect(text).not.toContain(secret);
    // What was left out keeps its name and place, withheld: a send asks for it instead of sending less.
    expect(decodeShareLink(link).extras).toEqual([
      { name: 'note', value: { withheld: 'card-number' } },
      { name: 'merchant_control_key', value: { withheld: 'secret' } },
      { name: 'custom', value: 'kept' },
    ]);
  });

  test('a damaged, foreign or newer link is refused with a stable code and advice', () => {
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isDraftError(e) ? e.code : `not a DraftError: ${String(e)}`;
      }
      return undefined;
    };
    const b64 = (o: unknown) => '#share=' + Buffer.from(JSON.stringify(o)).toString('base64url');
    const link = encodeShareLink(exampleDraft(operationOf({ operation: 'v2/sale' })));
    expect(codeOf(() => decodeShareLink(link.slice(0, -5)))).toBe('SHARE_LINK_DAMAGED');
    expect(codeOf(() => decodeShareLink('#share=!!!'))).toBe('SHARE_LINK_DAMAGED');
    expect(codeOf(() => decodeShareLink(b64({ v: 3, operation: 'v2/sale' })))).toBe('SHARE_LINK_VERSION');
    expect(codeOf(() => decodeShareLink(b64({ v: 2, operation: 'v9/x', values: {}, extras: [] })))).toBe(
      'SHARE_LINK_OPERATION',
    );
    expect(codeOf(() => decodeShareLink(b64({ v: 1, o: 'v9/nothing', p: [] })))).toBe('SHARE_LINK_OPERATION');
    expect(
      codeOf(() => decodeShareLink(b64({ v: 2, operation: 'v2/sale', values: { a: 1 }, extras: [] }))),
    ).toBe('SHARE_LINK_DAMAGED');
  });
});

describe('draft → raw HTTP / curl / HAR → import → draft reproduces the signature byte for byte', () => {
  for (const op of OPERATIONS) {
    for (const scheme of schemesOf(op)) {
      test(`${op.path} signed with ${scheme}, pinned and unpinned${scheme === 'control' && op.formulaSource !== 'description' ? ', edited formulas' : ''} (property)`, async () => {
        await fc.assert(
          fc.asyncProperty(
            draftOf(op).filter((d) => (d.scheme ?? op.scheme) === scheme),
            fc.constantFrom(...(Object.keys(RENDER) as Array<keyof typeof RENDER>)),
            async (draft, format) => {
              const env = signingEnv();
              const original = await buildDraft(draft, env);
              expect(original.signing.signature).not.toBeNull();
              const imported = importCapture(RENDER[format](original, op.path), {
                place: PLACE,
                base: draft,
              });
              if (scheme !== 'control') expect(imported.draft.pinned).toBeDefined();
              // Signed again later, with another clock and nonce source: the pinned values are used.
              const again = await buildDraft(imported.draft, signingEnv(1_800_000_000_000));
              expect(again.signing.signature).toBe(original.signing.signature);
              expect(again.bodyText).toBe(original.bodyText);
              expect(again.headers).toEqual(original.headers);
              expect(again.url).toBe(original.url);
            },
          ),
          { numRuns: 12 },
        );
      });
    }
  }
});

describe('the one converter and the one build', () => {
  test('a form’s values → draft → form is the identity at the same place (property)', () => {
    fc.assert(
      fc.property(anyDraft({ shareableOnly: false }), (draft) => {
        const op = operationOf(draft);
        const form = formFromDraft(op, draft, PLACE);
        const again = formFromDraft(op, draftFromValues(op, form, PLACE), PLACE);
        expect(again).toEqual(form);
        // The same parameters are signed (a form lists fields in catalog order, a draft as given).
        const sent = (d: RequestDraft) =>
          draftParams(op, resolveDraft(d, PLACE))
            .filter((p) => p.value !== '')
            .map((p) => `${p.name}=${p.value}`)
            .sort();
        expect(sent(draftFromValues(op, form, PLACE))).toEqual(sent(draft));
      }),
      { numRuns: 300 },
    );
  });

  test('an unpinned draft signs with a fresh nonce and the clock; a pinned one with its own', async () => {
    const op = operationOf({ operation: 'v2/payout' });
    const draft = exampleDraft(op, { client_orderid: 'po-1' });
    const env = signingEnv();
    const a = await buildDraft(draft, env);
    const b = await buildDraft(draft, env);
    expect(a.signing.scheme === 'oauth-hmac-sha1' && a.signing.nonce).not.toBe(
      b.signing.scheme === 'oauth-hmac-sha1' && b.signing.nonce,
    );
    expect(a.signing.scheme !== 'control' && a.signing.timestamp).toBe('1700000000');
    const pinned = await buildDraft({ ...draft, pinned: { nonce: 'abc', timestamp: '1600000000' } }, env);
    expect(pinned.signing.scheme !== 'control' && [pinned.signing.nonce, pinned.signing.timestamp]).toEqual([
      'abc',
      '1600000000',
    ]);
  });

  test.each(OPERATIONS.map((op) => [op.path, op] as const))(
    'the example draft of %s points at the place it is opened, never at a fixed port',
    (_path, op) => {
      const resolved = resolveDraft(exampleDraft(op), PLACE);
      for (const [name, value] of Object.entries(resolved.values)) {
        expect(value, `${op.path} ${name}`).not.toContain('4173');
        if (name === 'server_callback_url') expect(value).toBe(PLACE.inboxUrl);
        if (name === 'redirect_url') expect(value).toBe(`${PLACE.origin}/return`);
      }
    },
  );
});
