import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, type FieldSpec, type Operation } from '../../src/catalog/index.ts';
import { requestAccepted, requestSchema } from '../../src/catalog/request-schema.ts';

const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;

const now = new Date(Date.UTC(2026, 10, 24));

/** Values near each field's rules: valid, empty, broken, past or future dates, too long, absent. */
function fieldValue(spec: FieldSpec): fc.Arbitrary<string | undefined> {
  // Mostly the example, so that many draws pass and the rest fail on one or two fields.
  return fc.oneof(
    { arbitrary: fc.constant(spec.example ?? (spec.required ? 'x' : undefined)), weight: 30 },
    fc.constant(undefined),
    fc.constant(''),
    fc.constantFrom('2025', '2026', '2027', '1', '10', '11', '12', '00', '13', '026'),
    fc.constantFrom('10.42', '0', '-1', '1.234', 'USD', 'usd', '4444444444444448', '4444444444444447'),
    fc.constantFrom('123', '12a', 'a@b.co', 'nope', 'http://127.0.0.1/x', 'US', 'true', '20260101'),
    fc.constant('x'.repeat((spec.maxLength ?? 64) + 1)),
    fc.string({ maxLength: 12 }),
  );
}

/** An operation's drawn request: a value or none for each field, and a few extra pairs. */
function requestOf(op: Operation) {
  return fc.record({
    fields: fc.tuple(...op.fields.map(fieldValue)),
    extra: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), {
      maxLength: 3,
    }),
  });
}

function valuesOf(
  op: Operation,
  { fields, extra }: { fields: Array<string | undefined>; extra: Array<[string, string]> },
): Map<string, string> {
  const values = new Map<string, string>(extra);
  op.fields.forEach((spec, i) => {
    const v = fields[i];
    if (v === undefined) values.delete(spec.name);
    else values.set(spec.name, v);
  });
  return values;
}

const RUNS = { seed: SEED, numRuns: 300 };

describe(`requestAccepted (FC_SEED=${SEED})`, () => {
  it.each(OPERATIONS.map((op) => [op.path, op] as const))(
    "gives the request schema's verdict for %s",
    (_path, op) => {
      const schema = requestSchema(op, () => now);
      fc.assert(
        fc.property(requestOf(op), (drawn) => {
          const values = valuesOf(op, drawn);
          const zod = schema.safeParse(Object.fromEntries(values)).success;
          expect(requestAccepted(op, values, () => now)).toBe(zod);
        }),
        RUNS,
      );
    },
  );

  it('draws both answers many times over the catalog', () => {
    const verdicts = { accepted: 0, refused: 0 };
    for (const op of OPERATIONS) {
      const schema = requestSchema(op, () => now);
      for (const drawn of fc.sample(requestOf(op), RUNS)) {
        const zod = schema.safeParse(Object.fromEntries(valuesOf(op, drawn))).success;
        verdicts[zod ? 'accepted' : 'refused']++;
      }
    }
    expect(verdicts.accepted).toBeGreaterThan(1000);
    expect(verdicts.refused).toBeGreaterThan(1000);
  });

  it('refuses a card that expired this year, as the schema does', () => {
    const sale = OPERATIONS.find((o) => o.path === 'v2/sale')!;
    const values = new Map(
      sale.fields.filter((f) => f.example !== undefined).map((f) => [f.name, f.example!] as const),
    );
    values.set('expire_year', '2026');
    values.set('expire_month', '12');
    expect(requestAccepted(sale, values, () => now)).toBe(true);
    values.set('expire_month', '10');
    expect(requestAccepted(sale, values, () => now)).toBe(false);
    expect(requestSchema(sale, () => now).safeParse(Object.fromEntries(values)).success).toBe(false);
  });
});
