// zod/mini: the form's schema loads with the first form, and mini is a third of zod's size.
import { z } from 'zod/mini';
import type { FieldSpec } from './fields.ts';
import type { Destination, Operation } from './operations.ts';
import { checkField, expiryInPast, formatExpiry } from './validators.ts';

/**
 * The zod schema of an operation's form values: one string per known field, checked with the
 * catalog's rules, plus any extra parameter (the real field lists are incomplete).
 */
export function requestSchema(
  op: Pick<Operation, 'fields' | 'destinations'>,
  now: () => Date = () => new Date(),
) {
  const shape: Record<string, z.ZodMiniType<string | undefined>> = {};
  for (const spec of op.fields) shape[spec.name] = fieldSchema(spec, now);
  return z.catchall(z.object(shape), z.string()).check(
    z.superRefine((values, ctx) => {
      for (const [m, y] of EXPIRY_PAIRS) {
        const month = values[m];
        const year = values[y];
        if (
          typeof month === 'string' &&
          typeof year === 'string' &&
          month &&
          year &&
          expiryInPast(month, year, now())
        ) {
          ctx.addIssue({
            code: 'custom',
            path: [m],
            message: `The card expired in ${formatExpiry(month, year)}: use a future expiry.`,
          });
        }
      }
      const problem = destinationProblem(op.destinations, (name) => values[name]);
      if (problem)
        ctx.addIssue({
          code: 'custom',
          path: problem.field ? [problem.field] : [],
          message: problem.message,
        });
    }),
  );
}

/** The month and year fields whose pair must not be in the past, in both spellings. */
const EXPIRY_PAIRS: ReadonlyArray<readonly [month: string, year: string]> = [
  ['expire_month', 'expire_year'],
  ['expire-month', 'expire-year'],
];

/**
 * Whether {@link requestSchema}`(op, now)` accepts these parameters (all text), decided with the
 * same field checks and expiry rule but without zod, which costs a server several times more per
 * request. A server checks with this and parses with the schema only to word what it refuses;
 * test/catalog/request-accepted.test.ts holds the two to the same answer.
 */
export function requestAccepted(
  op: Pick<Operation, 'fields' | 'destinations'>,
  values: ReadonlyMap<string, string>,
  now: () => Date = () => new Date(),
): boolean {
  for (const spec of op.fields) {
    if (checkField(spec, values.get(spec.name), spec.type === 'year' ? now() : undefined) !== undefined)
      return false;
  }
  for (const [m, y] of EXPIRY_PAIRS) {
    const month = values.get(m);
    const year = values.get(y);
    if (month && year && expiryInPast(month, year, now())) return false;
  }
  return destinationProblem(op.destinations, (name) => values.get(name)) === undefined;
}

/**
 * Exactly one of an operation's destinations, given whole (an empty value counts as absent): the
 * sentence to answer when none, two, or part of one is there, with the field it belongs to (none
 * for the first two); undefined when the request is fine or the operation has no destinations.
 */
export function destinationProblem(
  destinations: readonly Destination[] | undefined,
  value: (name: string) => string | undefined,
): { field?: string; message: string } | undefined {
  if (!destinations) return undefined;
  const given = (name: string) => !!value(name);
  const touched = destinations.filter((d) => d.fields.some(given));
  const missing = touched.length === 1 ? touched[0]!.fields.filter((f) => !given(f)) : [];
  if (touched.length === 1 && !missing.length) return undefined;
  const choices = destinations.map((d) => `${d.title} (${d.fields.join(', ')})`).join(' or ');
  const what = missing.length
    ? `${missing.join(', ')} missing`
    : touched.length
      ? 'Two destinations'
      : 'No destination';
  return {
    ...(missing.length ? { field: missing[0] } : {}),
    message: `${what}: send one whole destination, ${choices}.`,
  };
}

function fieldSchema(spec: FieldSpec, now: () => Date): z.ZodMiniType<string | undefined> {
  const check = (value: string | undefined, ctx: z.core.$RefinementCtx<string | undefined>) => {
    const problem = checkField(spec, value, spec.type === 'year' ? now() : undefined);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
  // zod skips an absent optional key entirely, so a required field must not be optional:
  // otherwise a request that leaves it out passes.
  if (spec.required) {
    return z
      .string({
        error: (issue) =>
          issue.input === undefined ? `${spec.name} is required.` : `${spec.name} must be text.`,
      })
      .check(z.superRefine(check));
  }
  return z.optional(z.string()).check(z.superRefine(check));
}
