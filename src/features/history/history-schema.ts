import { z } from 'zod';
import { RequestDraftSchema } from '../../model/index.ts';

const Pair = z.object({ name: z.string(), value: z.string() });

export const HistoryEntrySchema = z.object({
  version: z.literal(1),
  id: z.string().min(1),
  operationPath: z.string(),
  /** The request as the model holds it, masked (entries stored before the model have none). */
  draft: z.optional(RequestDraftSchema),
  profileName: z.string(),
  targetName: z.string(),
  sentAt: z.string(),
  clientOrderId: z.string().nullable(),
  orderId: z.string().nullable(),
  outcome: z.string().nullable(),
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.array(Pair),
    body: z.array(Pair),
    pinned: z.object({ nonce: z.string().optional(), timestamp: z.string().optional() }).optional(),
  }),
  response: z
    .object({
      status: z.number().int(),
      elapsedMs: z.number(),
      headers: z.record(z.string(), z.string()),
      body: z.string(),
    })
    .optional(),
  error: z.string().optional(),
  /** Body fields masked or dropped before storage; their stored values are never put back into a form. */
  masked: z.array(z.string()),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Reads any stored version; there is one so far. */
export function parseStoredEntry(raw: unknown): HistoryEntry | null {
  const parsed = HistoryEntrySchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
