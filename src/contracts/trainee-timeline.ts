/**
 * One trainee's attempt timeline, as the trainer projects it on the big screen
 * (`classroom/timeline-routes.ts`): their requests, refusals and the diagnosis of each, newest first.
 */
import { z } from 'zod/mini';

export const TimelineSchema = z.object({
  trainee: z.object({ id: z.string(), name: z.string() }),
  /** How many requests the classroom keeps for this trainee; `entries` holds the latest of them. */
  total: z.number(),
  entries: z.array(
    z.object({
      id: z.number(),
      at: z.number(),
      operation: z.nullable(z.string()),
      scheme: z.nullable(z.string()),
      httpStatus: z.number(),
      accepted: z.boolean(),
      errorCode: z.nullable(z.string()),
      errorMessage: z.nullable(z.string()),
      /** The diagnosis engine's finding on a refusal (null: none, or not a signing mistake). */
      mistake: z.nullable(z.object({ id: z.string(), label: z.string() })),
      /** `trainer-restore`: refused because the trainer restored the joined key, not a mistake. */
      cause: z.nullable(z.string()),
    }),
  ),
});
export type Timeline = z.infer<typeof TimelineSchema>;
