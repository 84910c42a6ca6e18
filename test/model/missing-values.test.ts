/**
 * Issue 19 §1: a send never goes out with fewer signed parameters than the draft it came from. Over
 * every operation of the catalog and every scheme it allows, a draft with card numbers, CVVs,
 * secrets and scrubbed free text (required or optional fields, extra parameters) is kept the way
 * each surface keeps it (saved, a collections file imported, history with and without its draft, a
 * share link), opened in a form and sent as is: the send either carries exactly the original's
 * signed parameters or refuses, naming exactly the values it lacks; filled in, it carries them all.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { OPERATIONS, type Operation } from '../../src/catalog/index.ts';
import type { BuiltRequest } from '../../src/core/index.ts';
import { buildEntry, draftOfEntry } from '../../src/features/history/build-entry.ts';
import { buildCollectionsFile, readCollectionsFile } from '../../src/features/saved/saved-file.ts';
import {
  buildDraft,
  draftFromValues,
  formFromDraft,
  missingValues,
  operationOf,
  resolveDraft,
  schemesOf,
  type DraftValue,
  type RequestDraft,
} from '../../src/model/index.ts';
import { draftFromCapture } from '../../src/model/import-draft.ts';
import { ExchangeRefused, prepareExchange, type Transport } from '../../src/model/exchange.ts';
import { maskDraft } from '../../src/model/mask-draft.ts';
import { decodeShareLink, encodeShareLink } from '../../src/model/share-link.ts';
import { draftOf } from './draft-arbitraries.ts';
import { PLACE, signingEnv } from './signing-env.ts';

const PAN = '4444444444444448';
/** Free text the console never keeps as is: a card number, a CVV parameter, a private key. */
const SENSITIVE_TEXT = [
  `card ${PAN}`,
  'cvv2=123',
  '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----',
];
/** Extra parameters named like card data or secrets. */
const SENSITIVE_EXTRAS = ['card_number', 'cvc', 'merchant_control_key', 'password'];
const NONCE = 'fixed-nonce-1';

/** A draft of the operation with card data, CVVs, secrets and scrubbed text among its values. */
function sensitiveDraftOf(op: Operation): fc.Arbitrary<RequestDraft> {
  const textFields = op.fields.filter((f) => f.type !== 'amount' && !f.fromProfile && !f.place);
  return fc
    .record({
      draft: draftOf(op, { shareableOnly: false }),
      injected: fc.array(
        fc.record({
          field: textFields.length > 0 ? fc.constantFrom(...textFields.map((f) => f.name)) : fc.constant(''),
          text: fc.constantFrom(...SENSITIVE_TEXT, '4111111111111111', '737'),
        }),
        { maxLength: 2 },
      ),
      extras: fc.uniqueArray(
        fc.record({
          name: fc.constantFrom(...SENSITIVE_EXTRAS),
          value: fc.constantFrom(...SENSITIVE_TEXT, 'x', ''),
        }),
        { maxLength: 2, selector: (e) => e.name },
      ),
    })
    .map(({ draft, injected, extras }) => {
      const values: Record<string, DraftValue> = { ...draft.values };
      for (const i of injected) if (i.field !== '') values[i.field] = i.text;
      const taken = new Set([...op.fields.map((f) => f.name), ...draft.extras.map((e) => e.name)]);
      const at = draft.extras.length === 0 ? 0 : 1;
      const added = extras.filter((e) => !taken.has(e.name));
      // Sensitive extras among the others, not only after them: their place must be kept.
      return {
        ...draft,
        values,
        extras: [...draft.extras.slice(0, at), ...added, ...draft.extras.slice(at)],
      };
    });
}

type Surface = 'saved' | 'imported' | 'history' | 'history before drafts' | 'shared';
const SURFACES: readonly Surface[] = ['saved', 'imported', 'history', 'history before drafts', 'shared'];

/** The draft as a surface keeps it and opens it again. */
function keep(surface: Surface, draft: RequestDraft, built: BuiltRequest): RequestDraft {
  switch (surface) {
    case 'saved':
      return maskDraft(draft);
    case 'imported': {
      const file = buildCollectionsFile(
        [{ version: 1, id: 'c1', name: 'Mine', createdAt: '2026-01-01T00:00:00Z' }],
        [
          {
            version: 1,
            id: 'r1',
            collectionId: 'c1',
            name: 'Request',
            draft: maskDraft(draft),
            savedAt: '2026-01-01T00:00:00Z',
            updatedAt: '2026-01-01T00:00:00Z',
          },
        ],
        '2026-01-02T00:00:00Z',
      );
      // importCollections masks what it reads once more before storing it.
      return maskDraft(readCollectionsFile(JSON.stringify(file))[0]!.requests[0]!.draft);
    }
    case 'history':
    case 'history before drafts': {
      const entry = buildEntry(
        {
          operationPath: draft.operation,
          ...(surface === 'history' ? { draft } : {}),
          profileName: 'p',
          targetName: 'local',
          sentAt: '2026-11-23T18:00:00.000Z',
          request: {
            method: built.method,
            url: built.url,
            headers: built.headers.map((h) => ({ name: h.name, value: h.value })),
            body: built.body.map((p) => ({ name: p.name, value: p.value })),
            ...(draft.pinned ? { pinned: { ...draft.pinned } } : {}),
          },
        },
        'id-1',
      );
      return draftOfEntry(entry);
    }
    case 'shared':
      return decodeShareLink(encodeShareLink(draft));
  }
}

/** The body parameters a build signs (`control` is the signature, not a parameter). */
const signed = (b: BuiltRequest) => b.body.filter((p) => p.name !== 'control').map((p) => [p.name, p.value]);
const byName = (pairs: string[][]) => [...pairs].sort((a, b) => (a.join('=') < b.join('=') ? -1 : 1));

/** The names whose signed values differ between two builds. */
function lostNames(original: BuiltRequest, sent: BuiltRequest): string[] {
  const text = (b: BuiltRequest, name: string) => JSON.stringify(signed(b).filter(([n]) => n === name));
  const names = new Set(signed(original).map(([n]) => n!));
  return [...names].filter((n) => text(original, n) !== text(sent, n)).sort();
}

/** Opens the kept draft in a form, types `fill` into it, and takes the form's draft (the workbench). */
function formDraft(kept: RequestDraft, fill: Record<string, string> = {}): RequestDraft {
  const op = operationOf(kept);
  const form = formFromDraft(op, kept, PLACE);
  const values = { ...form.values };
  const extras = form.extras.map((e) => ({ ...e }));
  for (const [name, value] of Object.entries(fill)) {
    const row = extras.find((e) => e.name === name);
    if (row) row.value = value;
    else values[name] = value;
  }
  return draftFromValues(op, { ...form, values, extras }, PLACE);
}

describe('a send carries exactly the draft’s signed parameters, or refuses naming what is missing', () => {
  for (const op of OPERATIONS) {
    for (const scheme of schemesOf(op)) {
      test(`${op.path} signed with ${scheme}: saved, imported, history (with and without its draft), shared (property)`, async () => {
        await fc.assert(
          fc.asyncProperty(
            sensitiveDraftOf(op).filter((d) => (d.scheme ?? op.scheme) === scheme),
            fc.constantFrom(...SURFACES),
            async (draft, surface) => {
              const env = signingEnv();
              const original = await buildDraft(draft, env, { nonce: NONCE });
              const kept = keep(surface, draft, original);
              // The stored draft holds no card number, CVV or secret, whichever surface kept it.
              expect(JSON.stringify(kept)).not.toContain(PAN);
              expect(JSON.stringify(kept)).not.toContain('PRIVATE KEY');

              const sending = formDraft(kept);
              const missing = missingValues(sending).map((m) => m.name);
              // Built as is, withheld values left out: what a send without the check would carry.
              const asIs = await buildDraft(sending, env, { nonce: NONCE });
              const lost = lostNames(original, asIs);
              const legacy = surface === 'history before drafts';
              if (missing.length === 0) {
                expect(lost).toEqual([]);
                // A form lists fields in catalog order, a draft as given: the same pairs, the same signature.
                expect(byName(signed(asIs))).toEqual(byName(signed(original)));
                if (!legacy) expect(asIs.signing.signature).toBe(original.signing.signature);
              } else {
                // The refusal names exactly what the send would have lacked.
                expect([...new Set(missing)].sort()).toEqual(lost);
              }

              // The model's own send (every surface's: workbench, history, saved, flows, teaching):
              // exactly the draft's signed parameters on the wire, or a typed refusal and nothing sent.
              const wire: BuiltRequest[] = [];
              const transport: Transport = (req) => {
                wire.push(req);
                return Promise.resolve({ status: 200, headers: {}, body: '{}', elapsedMs: 0 });
              };
              const sent = prepareExchange(sending, env, { nonce: NONCE }).then((p) => p.send(transport));
              if (missing.length === 0) {
                expect((await sent).ok).toBe(true);
                expect(wire).toHaveLength(1);
                expect(byName(signed(wire[0]!))).toEqual(byName(signed(original)));
              } else {
                const refusal = await sent.then(
                  () => null,
                  (e: unknown) => e,
                );
                expect(refusal).toBeInstanceOf(ExchangeRefused);
                const r = refusal as ExchangeRefused;
                expect(r.code).toBe('SEND_MISSING_VALUES');
                expect([...new Set(r.missing.map((m) => m.name))].sort()).toEqual(lost);
                for (const name of lost) expect(r.message).toContain(name);
                expect(wire).toEqual([]);
              }

              // Filled in with the values sent the first time, it goes out with every one of them.
              const resolved = resolveDraft(draft, PLACE);
              const valueOf = (name: string) =>
                resolved.values[name] ?? resolved.extras.find((e) => e.name === name)?.value ?? '';
              const filled = formDraft(kept, Object.fromEntries(missing.map((n) => [n, valueOf(n)])));
              expect(missingValues(filled)).toEqual([]);
              const again = await buildDraft(filled, env, { nonce: NONCE });
              expect(byName(signed(again))).toEqual(byName(signed(original)));
              // An entry kept before drafts is read back from its body, which cannot say an edited formula.
              if (!legacy) expect(again.signing.signature).toBe(original.signing.signature);
            },
          ),
          { numRuns: 10 },
        );
      });
    }
  }
});

describe('the form says which values to fill in', () => {
  test('v4/payout-check: an optional destination card is withheld when saved and asked for before a send', () => {
    const op = operationOf({ operation: 'v4/payout-check' });
    const spec = op.fields.find((f) => f.name === 'destination-card-no');
    expect(spec?.required).toBeFalsy();
    const form = formFromDraft(
      op,
      maskDraft({
        v: 2,
        operation: op.path,
        values: { 'destination-card-no': PAN, client_orderid: 'po-1' },
        extras: [],
      }),
      PLACE,
    );
    expect(form.values['destination-card-no']).toBe('');
    expect(form.withheld).toEqual({ 'destination-card-no': 'card-number' });
    const draft = draftFromValues(op, form, PLACE);
    expect(missingValues(draft)).toEqual([{ name: 'destination-card-no', reason: 'card-number' }]);
  });

  test('a captured request with a masked card (the console’s own curl or HAR of history) asks for it', () => {
    const imported = draftFromCapture({
      method: 'POST',
      url: 'http://127.0.0.1:4173/sandbox/paynet/api/v2/payout/1111',
      headers: {},
      body: 'client_orderid=po-1&destination-card-no=444444******4448&order_desc=ok',
    });
    expect(imported.draft.values['destination-card-no']).toEqual({ withheld: 'card-number' });
    expect(imported.notes.join(' ')).toContain('destination-card-no is masked in the capture');
    expect(missingValues(formDraft(imported.draft)).map((m) => m.name)).toEqual(['destination-card-no']);
  });
});
