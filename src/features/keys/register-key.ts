import { z } from 'zod';

export const RegisterAnswerSchema = z.union([
  z.looseObject({}),
  z.array(z.unknown()),
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
]);

export interface RegisterResult {
  ok: boolean;
  status: number;
  body: z.infer<typeof RegisterAnswerSchema> | undefined;
  text: string;
}

/** PUT /sandbox/merchants/<login>/public-key {publicKeyPem}: what a merchant sends the gateway's support, for the local sandbox. */
export async function registerPublicKey(login: string, publicKeyPem: string): Promise<RegisterResult> {
  let res: Response;
  try {
    res = await fetch(`/sandbox/merchants/${encodeURIComponent(login)}/public-key`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ publicKeyPem }),
    });
  } catch {
    throw new Error('Could not reach the local sandbox: is the console server (`npm start`) running?');
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = json === undefined ? undefined : RegisterAnswerSchema.safeParse(json);
  return { ok: res.ok, status: res.status, body: parsed?.success ? parsed.data : undefined, text };
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
