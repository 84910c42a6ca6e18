import { z } from 'zod/mini';
import { errorReasonOf } from './error-code-label.ts';

/**
 * The `debug` part of a signature refusal: written by the local sandbox (sandbox/authenticate.ts),
 * read by the console (answer view, teaching mode). One schema, so both sides agree on its shape.
 */
export const ControlDebugSchema = z.object({
  scheme: z.literal('control'),
  formula: z.optional(z.string()),
  terms: z.array(
    z.object({
      term: z.string(),
      value: z.string(),
      source: z.optional(z.string()),
      note: z.optional(z.string()),
    }),
  ),
  'signing-input': z.string(),
  'received-control': z.optional(z.nullable(z.string())),
  hint: z.optional(z.string()),
});

/** The `debug` part of a refused OAuth signature. */
export const OAuthDebugSchema = z.object({
  scheme: z.enum(['oauth-hmac-sha1', 'oauth-rsa-sha256']),
  'normalized-url': z.optional(z.string()),
  parameters: z.optional(z.array(z.string())),
  excluded: z.optional(z.array(z.string())),
  'parameter-string': z.optional(z.string()),
  'base-string': z.string(),
  'signing-key': z.optional(z.string()),
  'received-signature': z.optional(z.nullable(z.string())),
});

export const SandboxDebugSchema = z.discriminatedUnion('scheme', [ControlDebugSchema, OAuthDebugSchema]);

export type ControlDebug = z.infer<typeof ControlDebugSchema>;
export type OAuthDebug = z.infer<typeof OAuthDebugSchema>;
export type SandboxDebugBody = z.infer<typeof SandboxDebugSchema>;

export type SandboxDebug = { kind: 'control'; debug: ControlDebug } | { kind: 'oauth'; debug: OAuthDebug };

/** The answer's `debug` part, parsed; null when there is none or it is not one of the two shapes. */
export function readSandboxDebug(body: unknown): SandboxDebug | null {
  if (!body || typeof body !== 'object') return null;
  const parsed = SandboxDebugSchema.safeParse((body as Record<string, unknown>).debug);
  if (!parsed.success) return null;
  return parsed.data.scheme === 'control'
    ? { kind: 'control', debug: parsed.data }
    : { kind: 'oauth', debug: parsed.data };
}

/**
 * True when an answer refuses the request's signature, by the gateway's own signs: 400 with
 * `INVALID_CONTROL_CODE` (as `error-code`, or opening the `error-message`, which is how the gateway
 * words it), or 403 that is `INVALID_SIGNATURE` or carries no error code at all (the gateway answers
 * a bad OAuth signature with a bare 403; gateway-notes.md). A 403 naming something else (a reused
 * nonce, a stale timestamp, a wrong consumer key) is a refusal, but not of the signature.
 */
export function isSignatureRefusal(httpStatus: number, body: unknown): boolean {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code = errorReasonOf(b);
  if (httpStatus === 403) return code === undefined || code === 'INVALID_SIGNATURE';
  if (httpStatus !== 400) return false;
  const message = b['error-message'];
  return (
    code === 'INVALID_CONTROL_CODE' ||
    (typeof message === 'string' && /^\s*INVALID_CONTROL_CODE\b/.test(message))
  );
}
