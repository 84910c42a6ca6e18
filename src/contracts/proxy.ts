/**
 * The console's proxy on the wire: what `GET /proxy/targets` lists, what `POST /proxy/<target>/<path>`
 * answers when the upstream answered at all (HTTP 200, whatever the upstream's status), and the
 * `{ error }` body of every failure of the proxy itself. One contract: `proxy/` types its answers
 * with it and the browser's client parses them with it, so the two cannot drift.
 */
import { z } from 'zod/mini';

/** Where a proxy target points: the embedded sandbox, a real gateway sandbox, or production. */
export const TARGET_KINDS = ['local', 'sandbox', 'production'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** A proxy target as `GET /proxy/targets` lists it. */
export const ProxyTargetSchema = z.object({
  name: z.string(),
  /** Absolute http(s) URL without a trailing slash, query or fragment. */
  baseUrl: z.string(),
  kind: z.enum(TARGET_KINDS),
});
export type ProxyTarget = z.infer<typeof ProxyTargetSchema>;
export const ProxyTargetsSchema = z.array(ProxyTargetSchema);

/** One upstream answer as the console shows it: the raw response. */
export const ProxyEnvelopeSchema = z.object({
  status: z.int(),
  statusText: z._default(z.optional(z.string()), ''),
  /** Upstream response headers, lowercase names, `Set-Cookie` removed. */
  headers: z.record(z.string(), z.string()),
  /** The body decoded as UTF-8 text. */
  body: z.string(),
  /** From sending the request to the last body byte, in milliseconds. */
  elapsedMs: z.number(),
  /** The upstream URL the request went to. */
  url: z.string(),
});
export type ProxyEnvelope = z.infer<typeof ProxyEnvelopeSchema>;

/** The proxy's own failures (unknown target, upstream unreachable, timeout …). */
export const ProxyErrorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ProxyErrorBody = z.infer<typeof ProxyErrorBodySchema>;
