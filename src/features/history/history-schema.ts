import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import { RequestDraftSchema } from '../../model/index.ts';

const Pair = z.object({ name: z.string(), value: z.string() });

export const HistoryEntrySchema = z.object({
  version: z.literal(1),
  id: z.string().check(z.minLength(1)),
  operationPath: z.string(),
  /** The request as the model holds it, masked (entries stored before the model have none). */
  draft: z.optional(RequestDraftSchema),
  profileName: z.string(),
  targetName: z.string(),
  sentAt: z.string(),
  clientOrderId: z.nullable(z.string()),
  orderId: z.nullable(z.string()),
  outcome: z.nullable(z.string()),
  /** When a status answer resolved an unknown outcome (the outcome is then the gateway's). */
  resolvedAt: z.optional(z.string()),
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.array(Pair),
    body: z.array(Pair),
    pinned: z.optional(z.object({ nonce: z.optional(z.string()), timestamp: z.optional(z.string()) })),
  }),
  response: z.optional(
    z.object({
      status: z.number().check(z.int()),
      elapsedMs: z.number(),
      headers: z.record(z.string(), z.string()),
      body: z.string(),
    }),
  ),
  error: z.optional(z.string()),
  /** Sent by the console by itself (a poll's check): listed here, never among the recents. */
  automatic: z.optional(z.literal(true)),
  /** Body fields masked or dropped before storage; their stored values are never put back into a form. */
  masked: z.array(z.string()),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Reads any stored version; there is one so far. */
export function parseStoredEntry(raw: unknown): HistoryEntry | null {
  const parsed = HistoryEntrySchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
