import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { findOperation } from '../src/catalog/index.ts';
import type { Scheme } from '../src/core/index.ts';
import { MISTAKES, type MistakeId } from '../src/diagnose/index.ts';
import { errorText } from '../src/core/errors.ts';

/* Exercises are data: one JSON file per exercise in classroom/exercises (or EXERCISES_DIR). */

const SCHEMES = ['control', 'oauth-hmac-sha1', 'oauth-rsa-sha256'] as const satisfies readonly Scheme[];
const MISTAKE_IDS = MISTAKES.map((m) => m.id) as [MistakeId, ...MistakeId[]];

const operationPath = z.string().refine((p) => findOperation(p) !== undefined, {
  message: 'is not an operation of the catalog (write its path, like v2/sale or v4/payout-check)',
});

const schemeSchema = z.enum(SCHEMES, { error: 'scheme is control, oauth-hmac-sha1 or oauth-rsa-sha256' });

function schemeAllowed(s: { operation: string; scheme?: Scheme | undefined }): boolean {
  const op = findOperation(s.operation);
  return !op || !s.scheme || [op.scheme, ...(op.schemeAlternatives ?? [])].includes(s.scheme);
}
const SCHEME_MISMATCH = { message: 'the operation is not signed with that scheme', path: ['scheme'] };

/** One request the trainee must get through: an operation, and optionally the scheme it is signed with. */
const stepShape = { operation: operationPath, scheme: schemeSchema.optional() };
const stepSchema = z.object(stepShape).strict().refine(schemeAllowed, SCHEME_MISMATCH);
export type CheckStep = z.infer<typeof stepSchema>;

const currencyText = z.string().regex(/^[A-Z]{3}$/, 'a currency is three capital letters, like USD');

const amountText = z.string().regex(/^\d{1,9}\.\d{2}$/, 'write an amount with two decimals, like 4.00');

export const checkSchema = z.discriminatedUnion('kind', [
  /** A request of the operation the sandbox authenticated and answered without an error. */
  z
    .object({ kind: z.literal('accepted'), ...stepShape })
    .strict()
    .refine(schemeAllowed, SCHEME_MISMATCH),
  /** A transaction of the operation that ends approved (with 3-D Secure of the version given). */
  z
    .object({
      kind: z.literal('approved'),
      ...stepShape,
      threeDs: z.enum(['2', '1.0.2']).optional(),
    })
    .strict()
    .refine(schemeAllowed, SCHEME_MISMATCH),
  /** Requests accepted in this order, each on the order the first one created. */
  z.object({ kind: z.literal('sequence'), steps: z.array(stepSchema).min(2).max(6) }).strict(),
  /**
   * A broken capture to diagnose: the trainee names its mistake (checked against the diagnosis
   * engine's confirmed cause for `capture` signed with `captureControlKey`), then sends `then`.
   */
  z
    .object({
      kind: z.literal('diagnose-then-fix'),
      capture: z.string().min(20).max(20_000),
      captureControlKey: z.string().min(8),
      choices: z
        .array(z.enum(MISTAKE_IDS, { error: 'is not a mistake id of src/diagnose' }))
        .min(2)
        .max(8),
      then: stepSchema,
    })
    .strict(),
  /** A preauth, a partial capture and a return that leave exactly `amount` captured. */
  z
    .object({
      kind: z.literal('remaining'),
      amount: amountText,
      currency: currencyText,
    })
    .strict(),
]);
export type Check = z.infer<typeof checkSchema>;

/** The broken-capture mistakes classroom/variants.ts can make (each confirmed by the diagnosis engine: see the tests). */
export const CAPTURE_MISTAKES = [
  'amount-major-units',
  'uppercase-hex',
  'field-missing-from-formula',
] as const;
export type CaptureMistake = (typeof CAPTURE_MISTAKES)[number];

/**
 * What varies per trainee (drawn from a seed per trainee and exercise): an amount (the remainder of
 * a `remaining` check, the amount an `approved` transaction must be for), or the broken capture of
 * a `diagnose-then-fix` question with its mistake. The exercise's text may write {amount} and {currency}.
 */
const variantSchema = z
  .object({
    amount: z
      .object({
        min: amountText,
        max: amountText,
        step: amountText.optional(),
        currencies: z.array(currencyText).min(1).max(10).optional(),
      })
      .strict()
      .refine((a) => Number(a.min) < Number(a.max), { message: 'min must be below max', path: ['max'] })
      .refine((a) => a.step === undefined || Number(a.step) > 0, {
        message: 'step must be above 0',
        path: ['step'],
      })
      .optional(),
    capture: z
      .object({
        operation: operationPath.refine((p) => findOperation(p)?.scheme === 'control', {
          message: 'a generated capture is of an operation signed with control, like v2/capture',
        }),
        mistakes: z
          .array(z.enum(CAPTURE_MISTAKES, { error: `is not one of ${CAPTURE_MISTAKES.join(', ')}` }))
          .min(1)
          .max(CAPTURE_MISTAKES.length),
      })
      .strict()
      .optional(),
  })
  .strict();
export type VariantSpec = z.infer<typeof variantSchema>;

export const exerciseSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'an id is lowercase letters, digits and "-", like sale-control'),
    title: z.string().min(1).max(120),
    goal: z.string().min(1).max(2000),
    hints: z.array(z.string().min(1).max(1000)).max(10).default([]),
    /** The operation the exercise starts from: the trainee's panel links to its workbench page. */
    operation: operationPath.optional(),
    check: checkSchema,
    variants: variantSchema.optional(),
    /**
     * The hint that unlocks by itself for a trainee whose refused requests show this mistake (the
     * diagnosis engine's advice when a mistake has none here).
     */
    mistakeHints: z
      .partialRecord(
        z.enum(MISTAKE_IDS, { error: 'is not a mistake id of src/diagnose' }),
        z.string().min(1).max(1000),
      )
      .optional(),
  })
  .strict()
  .superRefine((ex, ctx) => {
    const v = ex.variants;
    if (!v) return;
    if (v.amount && ex.check.kind !== 'remaining' && ex.check.kind !== 'approved')
      ctx.addIssue({
        code: 'custom',
        path: ['variants', 'amount'],
        message: 'an amount varies only for a check of kind remaining or approved',
      });
    if (v.capture) {
      if (ex.check.kind !== 'diagnose-then-fix')
        ctx.addIssue({
          code: 'custom',
          path: ['variants', 'capture'],
          message: 'a capture varies only for a check of kind diagnose-then-fix',
        });
      else
        for (const m of v.capture.mistakes)
          if (!(ex.check.choices as readonly string[]).includes(m))
            ctx.addIssue({
              code: 'custom',
              path: ['variants', 'capture', 'mistakes'],
              message: `${m} is not among check.choices: a trainee could not name it`,
            });
    }
  });
export type Exercise = z.infer<typeof exerciseSchema>;

/** A bad exercise file: the message names the file and the field, and what to write. */
export class ExerciseFileError extends Error {
  override readonly name = 'ExerciseFileError';
}

function issueText(file: string, issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  return `${file}: ${field ? `${field}: ` : ''}${issue.message}`;
}

/** Reads and checks one exercise file's text; `file` is the name used in errors. */
export function parseExercise(file: string, text: string): Exercise {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ExerciseFileError(`${file}: not valid JSON (${errorText(e)}); fix the file or remove it.`);
  }
  const r = exerciseSchema.safeParse(data);
  if (!r.success) throw new ExerciseFileError(issueText(file, r.error.issues[0]!));
  return r.data;
}

/** Reads every `*.json` of the folder in name order; ids must be unique. */
export function loadExerciseFiles(dir: string): Exercise[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch (e) {
    throw new ExerciseFileError(
      `The exercises folder ${dir} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}): check EXERCISES_DIR.`,
    );
  }
  if (names.length === 0)
    throw new ExerciseFileError(`The exercises folder ${dir} has no *.json file: add at least one exercise.`);
  const seen = new Map<string, string>();
  return names.map((name) => {
    const file = path.join(dir, name);
    const ex = parseExercise(file, readFileSync(file, 'utf8'));
    const other = seen.get(ex.id);
    if (other)
      throw new ExerciseFileError(
        `${file}: id: "${ex.id}" is already the id of ${other}; give it another id.`,
      );
    seen.set(ex.id, file);
    return ex;
  });
}

/** The operations whose requests count as attempts at an exercise. */
export function checkOperations(check: Check): string[] {
  switch (check.kind) {
    case 'accepted':
    case 'approved':
      return [check.operation];
    case 'sequence':
      return check.steps.map((s) => s.operation);
    case 'diagnose-then-fix':
      return [check.then.operation];
    case 'remaining':
      return ['v2/preauth', 'v2/capture', 'v2/return'];
  }
}
