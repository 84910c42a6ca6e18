/**
 * The console's collections file (`pay-console-collections`, version 1), read by the Saved page and
 * by `paysign run`: collections by name, each with the defaults of its variables, each request a
 * name, a request draft (read by the model's one draft reader) and its declared checks. Older files
 * without variables or checks read the same.
 */
import { z } from 'zod/mini';
import '../catalog/zod-english.ts';
import { StepChecksSchema } from '../model/step-checks.ts';
import { VARIABLE_NAME } from '../model/variables.ts';

/** The `format` field of an exported collections file. */
export const COLLECTIONS_FORMAT = 'pay-console-collections';
/** The file format this console writes; files of older formats are read, newer ones refused. */
export const COLLECTIONS_VERSION = 1;

const NAME = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

/** A collection's variables: names as Postman allows them, values as text (never a secret). */
export const CollectionVariablesSchema = z.record(
  z.string().check(z.regex(VARIABLE_NAME, 'a variable name is letters, digits, _ . $ -')),
  z.string().check(z.maxLength(65_536)),
);

export const CollectionsFileSchema = z.object({
  format: z.literal(COLLECTIONS_FORMAT),
  version: z.literal(1),
  exportedAt: z.optional(z.string().check(z.maxLength(64))),
  collections: z
    .array(
      z.object({
        name: NAME,
        variables: z.optional(CollectionVariablesSchema),
        // Drafts are read by the model's one draft reader (versions, migration, masking).
        requests: z
          .array(z.object({ name: NAME, draft: z.unknown(), checks: z.optional(StepChecksSchema) }))
          .check(z.maxLength(10_000)),
      }),
    )
    .check(z.maxLength(1_000)),
});
export type CollectionsFile = z.infer<typeof CollectionsFileSchema>;
