// zod/mini: the form's schema loads with the first form, and mini is a third of zod's size.
import { z } from 'zod/mini';
import type { FieldSpec } from './fields.ts';
import type { Operation } from './operations.ts';
import { checkField, expiryInPast } from './validators.ts';

/**
 * The zod schema of an operation's form values: one string per known field, checked with the
 * catalog's rules, plus any extra parameter (the real field lists are incomplete).
 */
export function requestSchema(op: Pick<Operation, 'fields'>, now: () => Date = () => new Date()) {
  const shape: Record<string, z.ZodMiniType<string | undefined>> = {};
  for (const spec of op.fields) shape[spec.name] = fieldSchema(spec, now);
  return z.catchall(z.object(shape), z.string()).check(
    z.superRefine((values, ctx) => {
      const pairs: Array<[string, string]> = [
        ['expire_month', 'expire_year'],
        ['expire-month', 'expire-year'],
      ];
      for (const [m, y] of pairs) {
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
            message: `The card expired in ${month}/${year}: use a future expiry.`,
          });
        }
      }
    }),
  );
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
