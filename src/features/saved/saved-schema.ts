import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import { RequestDraftSchema } from '../../model/index.ts';
import { CollectionVariablesSchema } from '../../exports/collections-file.ts';
import { StepChecksSchema } from '../../model/step-checks.ts';

const NAME = z
  .string()
  .check(z.trim(), z.minLength(1, 'a name is needed'), z.maxLength(200, 'at most 200 characters'));

/** A named group of saved requests, as stored in IndexedDB. */
export const CollectionSchema = z.object({
  version: z.literal(1),
  id: z.string().check(z.minLength(1)),
  name: NAME,
  createdAt: z.string(),
  /** The defaults of the collection's variables (issue 33); never a secret. */
  variables: z.optional(CollectionVariablesSchema),
});
export type Collection = z.infer<typeof CollectionSchema>;

/** A named request: its draft (masked like history: no card number, CVV, secret or signature). */
export const SavedRequestSchema = z.object({
  version: z.literal(1),
  id: z.string().check(z.minLength(1)),
  collectionId: z.string().check(z.minLength(1)),
  name: NAME,
  draft: RequestDraftSchema,
  /** Assertions and variables set from the answer, for a collection run (issue 33). */
  checks: z.optional(StepChecksSchema),
  /** Its place in the file it was imported from: the order a collection run sends the steps in. */
  seq: z.optional(z.int().check(z.minimum(0))),
  savedAt: z.string(),
  updatedAt: z.string(),
});
export type SavedRequest = z.infer<typeof SavedRequestSchema>;

/** Checks a name typed by the user; the message says what to do. */
export function checkName(name: string): { name: string } | { error: string } {
  const r = NAME.safeParse(name);
  return r.success ? { name: r.data } : { error: `The name is not usable: ${r.error.issues[0]!.message}.` };
}
