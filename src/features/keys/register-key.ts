import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';

export const RegisterAnswerSchema = z.union([
  z.looseObject({}),
  z.array(z.unknown()),
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
]);

/** How the page reaches the local sandbox's own routes: the browser's `fetch`, or a test's. */
export type SandboxFetch = (url: string, init: RequestInit) => Promise<Response>;

const browserFetch: SandboxFetch = (url, init) => fetch(url, init);

export interface RegisterResult {
  ok: boolean;
  status: number;
  body: z.infer<typeof RegisterAnswerSchema> | undefined;
  text: string;
}

/** PUT /sandbox/merchants/<login>/public-key {publicKeyPem}: what a merchant sends the gateway's support, for the local sandbox. */
export async function registerPublicKey(
  login: string,
  publicKeyPem: string,
  fetcher: SandboxFetch = browserFetch,
): Promise<RegisterResult> {
  const { res, text, json } = await callSandbox(
    fetcher,
    `/sandbox/merchants/${encodeURIComponent(login)}/public-key`,
    {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ publicKeyPem }),
    },
  );
  const parsed = json === undefined ? undefined : RegisterAnswerSchema.safeParse(json);
  return { ok: res.ok, status: res.status, body: parsed?.success ? parsed.data : undefined, text };
}

/** One call to the local sandbox's own routes; its body as text and, when it is JSON, parsed. */
async function callSandbox(
  fetcher: SandboxFetch,
  url: string,
  init: RequestInit,
): Promise<{ res: Response; text: string; json: unknown }> {
  let res: Response;
  try {
    res = await fetcher(url, init);
  } catch {
    throw new Error('Could not reach the local sandbox: is the console server (`npm start`) running?');
  }
  const text = await res.text();
  try {
    return { res, text, json: JSON.parse(text) };
  } catch {
    return { res, text, json: undefined };
  }
}

export function answerMessage(result: RegisterResult): string | null {
  const b = result.body;
  if (b && typeof b === 'object' && !Array.isArray(b)) {
    for (const k of ['message', 'error-message', 'error']) {
      const v = (b as Record<string, unknown>)[k];
      if (typeof v === 'string') return v;
    }
  }
  return null;
}

export function registeredFingerprint(result: RegisterResult): string | null {
  const b = result.body;
  if (b && typeof b === 'object' && !Array.isArray(b)) {
    const v = (b as Record<string, unknown>).keyFingerprint;
    if (typeof v === 'string') return v;
  }
  return null;
}

export const RestoredKeySchema = z.looseObject({
  login: z.string(),
  keyBits: z.number(),
  keyFingerprint: z.string(),
  restored: z.boolean(),
  privateKeyKnown: z.boolean(),
});

const DemoPairSchema = z.looseObject({
  login: z.string().check(z.minLength(1)),
  privateKeyPkcs8Pem: z.nullable(z.string().check(z.minLength(1))),
  keyFingerprint: z.string(),
});

export interface RestoreResult {
  restored: z.infer<typeof RestoredKeySchema>;
  /** The shipped private key, when the sandbox holds it (the demo merchant). */
  privateKeyPkcs8Pem: string | null;
}

async function sandboxJson<T>(
  fetcher: SandboxFetch,
  url: string,
  init: RequestInit,
  schema: z.ZodMiniType<T>,
  what: string,
): Promise<T> {
  const { res, json } = await callSandbox(fetcher, url, { ...init, headers: { Accept: 'application/json' } });
  if (!res.ok) {
    const m =
      json && typeof json === 'object' ? (json as Record<string, unknown>)['error-message'] : undefined;
    throw new Error(
      `The sandbox refused ${what} (HTTP ${res.status})${typeof m === 'string' ? `: ${m}` : '.'}`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`The sandbox's answer to ${what} cannot be read.`);
  return parsed.data;
}

/**
 * DELETE /sandbox/merchants/<demo login>/public-key: the sandbox forgets the key registered at run time
 * (in its database too) and verifies the demo merchant with its shipped pair again.
 */
export async function restoreDemoKey(fetcher: SandboxFetch = browserFetch): Promise<RestoreResult> {
  const demo = await sandboxJson(fetcher, '/sandbox/demo-merchant', {}, DemoPairSchema, 'the demo merchant');
  const restored = await sandboxJson(
    fetcher,
    `/sandbox/merchants/${encodeURIComponent(demo.login)}/public-key`,
    { method: 'DELETE' },
    RestoredKeySchema,
    'the restore',
  );
  const after = await sandboxJson(fetcher, '/sandbox/demo-merchant', {}, DemoPairSchema, 'the demo merchant');
  return { restored, privateKeyPkcs8Pem: after.privateKeyPkcs8Pem };
}
