/**
 * fast-check generators of request drafts over the whole catalog: every operation, every scheme it
 * allows, edited formulas where the description gives none, placeholders, endpoints, pinned or not.
 */
import fc from 'fast-check';
import { isCvvName, isPanName, isSecretName, OPERATIONS, type Operation } from '../../src/catalog/index.ts';
import type { ControlTerm } from '../../src/core/index.ts';
import {
  DRAFT_VERSION,
  formulaEditable,
  schemesOf,
  type DraftValue,
  type RequestDraft,
} from '../../src/model/index.ts';

/** Characters that test every encoder: reserved, unreserved, `+`, `%`, multi-byte and astral. */
const CHARS = [...'aZ09 -._~+&=%/?#!\'()*,;:@$[]"<>\\^`{|}é—€😀\t'];
export const text = (maxLength = 16) => fc.string({ unit: fc.constantFrom(...CHARS), maxLength });
const amount = fc
  .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
  .map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`);

/** A field or extra that may be shared and stored: no card number, CVV or secret by name. */
function shareable(op: Operation, name: string): boolean {
  return !isPanName(name, op.path) && !isCvvName(name) && !isSecretName(name) && name !== 'control';
}

function valueFor(op: Operation, name: string): fc.Arbitrary<DraftValue> {
  const spec = op.fields.find((f) => f.name === name);
  if (spec?.fromProfile === 'login') return fc.oneof(fc.constant({ place: 'login' as const }), text());
  if (spec?.place) return fc.oneof(fc.constant({ place: spec.place }), text());
  if (spec?.type === 'amount') return amount;
  return text();
}

const termOf = (op: Operation): fc.Arbitrary<ControlTerm> =>
  fc.oneof(
    fc.constant({ kind: 'login' as const }),
    fc.constant({ kind: 'endpointId' as const }),
    fc
      .constantFrom(...op.fields.map((f) => f.name))
      .chain((name) =>
        op.fields.find((f) => f.name === name)?.type === 'amount'
          ? fc.constantFrom<ControlTerm>({ kind: 'field', name, minorUnits: true }, { kind: 'field', name })
          : fc.constant<ControlTerm>({ kind: 'field', name }),
      ),
  );

const extraName = (op: Operation) =>
  fc
    .stringMatching(/^[a-z][a-z0-9_-]{0,11}$/)
    .filter((n) => !op.fields.some((f) => f.name === n) && !n.startsWith('oauth_') && shareable(op, n));

export interface DraftOptions {
  /** Pinned nonce and timestamp: always, never, or either. */
  pinned?: boolean;
  /** Only shareable names and values (no card number, CVV or secret). Default true. */
  shareableOnly?: boolean;
}

/** A draft of one operation. */
export function draftOf(op: Operation, o: DraftOptions = {}): fc.Arbitrary<RequestDraft> {
  const fields = op.fields.filter((f) => o.shareableOnly === false || shareable(op, f.name));
  const schemes = schemesOf(op);
  const pinned = fc.record({
    nonce: fc.stringMatching(/^[A-Za-z0-9]{1,32}$/),
    timestamp: fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }).map(String),
  });
  return fc
    .record({
      scheme: fc.constantFrom(...schemes),
      editedFormula: formulaEditable(op)
        ? fc.option(fc.array(termOf(op), { maxLength: 6 }), { nil: undefined })
        : fc.constant(undefined),
      values: fc.record(Object.fromEntries(fields.map((f) => [f.name, valueFor(op, f.name)])), {
        requiredKeys: [],
      }) as fc.Arbitrary<Record<string, DraftValue>>,
      extras: fc.array(fc.record({ name: extraName(op), value: text() as fc.Arbitrary<DraftValue> }), {
        maxLength: 3,
      }),
      endpoint: fc.option(
        fc.record({
          kind: fc.constantFrom('endpoint' as const, 'group' as const),
          id: fc.stringMatching(/^[1-9]\d{0,5}$/),
        }),
        { nil: undefined },
      ),
      pinned:
        o.pinned === true
          ? pinned
          : o.pinned === false
            ? fc.constant(undefined)
            : fc.option(pinned, { nil: undefined }),
      target: fc.option(fc.constantFrom('local', 'gw-sandbox'), { nil: undefined }),
    })
    .map((r) => {
      const oauth = r.scheme !== 'control';
      const draft: RequestDraft = {
        v: DRAFT_VERSION,
        operation: op.path,
        ...(r.scheme !== op.scheme ? { scheme: r.scheme } : {}),
        ...(r.editedFormula && r.scheme === 'control' ? { formula: r.editedFormula } : {}),
        values: r.values,
        extras: r.extras,
        ...(r.endpoint ? { endpoint: r.endpoint } : {}),
        ...(r.pinned && oauth ? { pinned: r.pinned } : {}),
        ...(r.target ? { target: r.target } : {}),
      };
      return draft;
    });
}

/** A draft of any operation of the catalog. */
export function anyDraft(o: DraftOptions = {}): fc.Arbitrary<RequestDraft> {
  return fc.constantFrom(...OPERATIONS).chain((op) => draftOf(op, o));
}
