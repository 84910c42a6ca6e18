/**
 * The one way from values to a draft (src/model/draft-from-values.ts): its policy case by case, and
 * every surface that holds a request (form, share link, saved file, import, teaching, flow step,
 * CLI pairs) giving back the identical draft, over every operation of the catalog and every
 * scheme it allows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findOperation, OPERATIONS, type Operation } from '../../src/catalog/index.ts';
import { renderRawHttp, type Scheme } from '../../src/core/index.ts';
import { parseCapture } from '../../src/capture/index.ts';
import {
  editDraft,
  flatValues,
  teachingStart,
  withValue,
} from '../../src/features/teaching/teaching-model.ts';
import { draftFromCapture } from '../../src/model/import-draft.ts';
import {
  buildDraft,
  draftFromValues,
  formFromDraft,
  resolveDraft,
  schemesOf,
  type RequestDraft,
} from '../../src/model/index.ts';
import { decodeShareLink, encodeShareLink, readDraftData } from '../../src/model/share-link.ts';
import { isCvvName, isPanName, isSecretName } from '../../src/catalog/index.ts';
import { PLACE, signingEnv } from './signing-env.ts';

const op = (path: string): Operation => findOperation(path)!;

describe('draftFromValues: the policy', () => {
  it('fields to values in the order given, other names and repeats to extras, control dropped', () => {
    const d = draftFromValues(op('v2/sale'), {
      values: [
        { name: 'amount', value: '1.00' },
        { name: 'x_note', value: 'n' },
        { name: 'control', value: 'abc' },
        { name: 'amount', value: '2.00' },
        { name: ' ', value: 'unnamed' },
      ],
    });
    expect(Object.keys(d.values).slice(0, 1)).toEqual(['amount']);
    expect(d.values.amount).toBe('1.00');
    expect(d.extras).toEqual([
      { name: 'x_note', value: 'n' },
      { name: 'amount', value: '2.00' },
    ]);
    expect(d.values).not.toHaveProperty('control');
  });

  it('every field is in the draft; a login field not given is the profile’s, first, unless the values are a capture', () => {
    const status = op('v2/status');
    const d = draftFromValues(status, { values: { client_orderid: 'c-1' } });
    expect(Object.keys(d.values)[0]).toBe('login');
    expect(d.values.login).toEqual({ place: 'login' });
    for (const f of status.fields) expect(d.values).toHaveProperty(f.name);
    expect(d.values.orderid).toBe('');
    expect(draftFromValues(status, { values: { login: '' } }).values.login).toBe('');
    expect(draftFromValues(status, { values: {}, complete: true }).values.login).toBe('');
  });

  it('with a place, its login, return page and inbox become placeholders; an empty withheld value stays withheld', () => {
    const sale = op('v2/sale');
    const d = draftFromValues(
      sale,
      {
        values: { redirect_url: `${PLACE.origin}/return`, server_callback_url: PLACE.inboxUrl, cvv2: '' },
        extras: [{ name: 'x_cb', value: PLACE.inboxUrl }],
        withheld: { cvv2: 'cvv', credit_card_number: 'card-number' },
      },
      PLACE,
    );
    expect(d.values.redirect_url).toEqual({ place: 'return-url' });
    expect(d.values.server_callback_url).toEqual({ place: 'callback-url' });
    expect(d.values.cvv2).toEqual({ withheld: 'cvv' });
    expect(d.values.credit_card_number).toEqual({ withheld: 'card-number' });
    expect(d.extras).toEqual([{ name: 'x_cb', value: { place: 'callback-url' } }]);
    // Without a place the values stay as typed.
    expect(
      draftFromValues(sale, { values: { redirect_url: `${PLACE.origin}/return` } }).values.redirect_url,
    ).toBe(`${PLACE.origin}/return`);
  });

  it('scheme only when allowed and not the operation’s own; formula only for control, editable and edited; pinned only for OAuth', () => {
    const pf = op('v2/payout-form');
    const sale = op('v2/sale');
    const pinned = { nonce: 'n', timestamp: '1700000000' };
    const edited = [{ kind: 'login' as const }];
    expect(draftFromValues(pf, { values: {}, scheme: pf.scheme, pinned })).toMatchObject({ pinned });
    expect(draftFromValues(pf, { values: {}, scheme: pf.scheme })).not.toHaveProperty('scheme');
    expect(draftFromValues(sale, { values: {}, scheme: 'oauth-rsa-sha256' })).not.toHaveProperty('scheme');
    const control = draftFromValues(pf, { values: {}, scheme: 'control', formula: edited, pinned });
    expect(control).toMatchObject({ scheme: 'control', formula: edited });
    expect(control).not.toHaveProperty('pinned');
    expect(draftFromValues(pf, { values: {}, scheme: 'control', formula: pf.formula })).not.toHaveProperty(
      'formula',
    );
    expect(draftFromValues(pf, { values: {}, formula: edited })).not.toHaveProperty('formula');
    expect(draftFromValues(sale, { values: {}, formula: edited })).not.toHaveProperty('formula');
    expect(draftFromValues(sale, { values: {}, endpoint: { kind: 'group', id: '7' } }).endpoint).toEqual({
      kind: 'group',
      id: '7',
    });
  });
});

/** Values the surfaces carry as they are: no card number, CVV or secret by name (those are withheld by design). */
function shareable(o: Operation, name: string): boolean {
  return !isPanName(name, o.path) && !isCvvName(name) && !isSecretName(name);
}

const TEXT = fc.string({ unit: fc.constantFrom(...'aZ09 -._~+&=%/?é€'), minLength: 1, maxLength: 10 });
const AMOUNT = fc
  .integer({ min: 1, max: 99_999 })
  .map((n) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`);

/** A request of one operation and scheme as a surface knows it: literal values for every field, extras, endpoint, pin. */
function requestOf(o: Operation, scheme: Scheme) {
  const fields = o.fields.filter((f) => shareable(o, f.name));
  return fc
    .record({
      values: fc.tuple(...fields.map((f) => (f.type === 'amount' ? AMOUNT : TEXT))),
      extras: fc.array(
        fc.record({
          name: fc.stringMatching(/^x_[a-z]{1,6}$/),
          value: TEXT,
        }),
        { maxLength: 2 },
      ),
      endpoint: fc.record({
        kind: fc.constantFrom('endpoint' as const, 'group' as const),
        id: fc.stringMatching(/^[1-9]\d{0,4}$/),
      }),
      pinned: fc.record({
        nonce: fc.stringMatching(/^[A-Za-z0-9]{4,16}$/),
        timestamp: fc.constant('1700000000'),
      }),
    })
    .map((r) =>
      draftFromValues(o, {
        values: fields.map((f, i) => ({ name: f.name, value: r.values[i]! })),
        extras: r.extras,
        scheme,
        endpoint: r.endpoint,
        pinned: r.pinned,
      }),
    );
}

/** The flat name → value pairs a flow step, the CLI and the teaching page hold, in the draft's order. */
function pairsOf(d: RequestDraft): Array<{ name: string; value: string }> {
  const r = resolveDraft(d, PLACE);
  return [...Object.entries(r.values).map(([name, value]) => ({ name, value })), ...r.extras];
}

const CASES = OPERATIONS.flatMap((o) => schemesOf(o).map((scheme) => [o.path, scheme] as const));

describe('every draft surface gives back the identical draft (property, every operation × scheme)', () => {
  it.each(CASES)('%s signed with %s', async (path, scheme) => {
    const o = op(path);
    await fc.assert(
      fc.asyncProperty(requestOf(o, scheme), async (draft) => {
        const same = (d: RequestDraft, surface: string) => expect(d, surface).toEqual(draft);
        // Form: the workbench opens the draft and reads it back.
        same(draftFromValues(o, formFromDraft(o, draft, PLACE), PLACE), 'form');
        // Share link and saved file (the collections file is read by the same draft reader).
        same(decodeShareLink(encodeShareLink(draft)), 'share link');
        const file = readDraftData(JSON.parse(JSON.stringify(draft)));
        same('draft' in file ? file.draft : (undefined as never), 'saved file');
        // Teaching: opened from the workbench, a value typed again as it was.
        const taught = teachingStart(o, draft, 0);
        same(taught, 'teaching');
        const [first] = Object.entries(flatValues(taught, PLACE));
        if (first) same(withValue(o, taught, PLACE, first[0], first[1]), 'teaching, a value edited');
        same(
          editDraft(o, taught, PLACE, (f) => f),
          'teaching, scheme picked again',
        );
        // A flow step and the CLI: name=value pairs with the draft's scheme, endpoint and pin.
        const rest = {
          scheme: draft.scheme ?? o.scheme,
          ...(draft.endpoint ? { endpoint: draft.endpoint } : {}),
          ...(draft.pinned ? { pinned: draft.pinned } : {}),
        };
        same(draftFromValues(o, { values: pairsOf(draft), ...rest }), 'flow step / CLI pairs');
        // Import: the signed request as raw HTTP, read back (an OAuth one pinned to its nonce).
        const built = await buildDraft(draft, signingEnv());
        const parsed = parseCapture(renderRawHttp(built));
        same(draftFromCapture(parsed.request).draft, 'import');
      }),
      { numRuns: 4, seed: 19, endOnFailure: true },
    );
  });
});
