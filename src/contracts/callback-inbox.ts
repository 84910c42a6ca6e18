/**
 * The console server's callback inbox on the wire (`proxy/callback-inbox.ts`): a callback or a
 * customer's return received at `/callbacks/<inbox>`, as `GET /callbacks/<inbox>/list` answers it
 * and `GET /callbacks/<inbox>/events` streams it. The server types its events with it and the
 * browser's one inbox client (`src/browser/callback-inbox.ts`) parses them with it.
 */
import { z } from 'zod/mini';

export { INBOX_NAME, inboxPaths } from './inbox-paths.ts';

/** Where the fields came from: the URL's query string, a form body, or both. */
export const CALLBACK_SOURCES = ['query', 'body', 'query+body'] as const;

/** One callback as the console sees it. `query` holds the fields of the query string and of a form body. */
export const CallbackEventSchema = z.object({
  id: z.number(),
  inbox: z.string(),
  receivedAt: z.string(),
  method: z.string(),
  source: z.enum(CALLBACK_SOURCES),
  query: z.record(z.string(), z.string()),
});
export type CallbackEvent = z.infer<typeof CallbackEventSchema>;

/** `GET /callbacks/<inbox>/list`: the kept events, in the order they arrived. */
export const CallbackListSchema = z.array(CallbackEventSchema);
