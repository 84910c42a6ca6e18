import type { z } from 'zod/mini';

/** GETs a same-origin JSON resource and parses it; every failure becomes a sentence that says what to do. */
export async function fetchJson<S extends z.ZodMiniType>(
  url: string,
  schema: S,
  what: string,
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: 'application/json' } });
  } catch {
    throw new Error(
      `Could not reach the console's server for ${what} (${url}): is \`npm start\` still running?`,
    );
  }
  if (!res.ok) throw new Error(`The server answered ${res.status} for ${what} (${url}).`);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new Error(`The server's answer for ${what} (${url}) is not JSON.`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new Error(
      `The server's answer for ${what} (${url}) has an unexpected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
    );
  return parsed.data;
}
