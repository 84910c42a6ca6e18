import { z } from 'zod';

/** The `debug` part the local sandbox adds to a refused `control` (see sandbox/authenticate.ts). */
export const ControlDebugSchema = z.object({
  scheme: z.literal('control'),
  formula: z.string().optional(),
  terms: z.array(
    z.object({
      term: z.string(),
      value: z.string(),
      source: z.string().optional(),
      note: z.string().optional(),
    }),
  ),
  'signing-input': z.string(),
  'received-control': z.string().nullable().optional(),
  hint: z.string().optional(),
});

/** The `debug` part of a refused OAuth signature. */
export const OAuthDebugSchema = z.object({
  scheme: z.enum(['oauth-hmac-sha1', 'oauth-rsa-sha256']),
  'normalized-url': z.string().optional(),
  parameters: z.array(z.string()).optional(),
  excluded: z.array(z.string()).optional(),
  'parameter-string': z.string().optional(),
  'base-string': z.string(),
  'signing-key': z.string().optional(),
  'received-signature': z.string().nullable().optional(),
});

export type SandboxDebug =
  | { kind: 'control'; debug: z.infer<typeof ControlDebugSchema> }
  | { kind: 'oauth'; debug: z.infer<typeof OAuthDebugSchema> };

/**
 * True when the answer is a refused signature: 400 INVALID_CONTROL_CODE, or a 403 that is not
 * about something else the sandbox names (a reused nonce, a stale timestamp…).
 */
export function isSignatureRefusal(httpStatus: number, body: unknown): boolean {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (httpStatus === 403) {
    const code = b['error-code'];
    return code === undefined || code === 'INVALID_SIGNATURE' || b.debug !== undefined;
  }
  if (httpStatus !== 400) return false;
  return [b['error-code'], b['error-message']].some(
    (v) => typeof v === 'string' && v.includes('INVALID_CONTROL_CODE'),
  );
}

export function readSandboxDebug(body: unknown): SandboxDebug | null {
  if (!body || typeof body !== 'object') return null;
  const d = (body as Record<string, unknown>).debug;
  const c = ControlDebugSchema.safeParse(d);
  if (c.success) return { kind: 'control', debug: c.data };
  const o = OAuthDebugSchema.safeParse(d);
  if (o.success) return { kind: 'oauth', debug: o.data };
  return null;
}
