/** The per-request timeout the user sets beside Send (the send itself: send-lifecycle.ts). */

/** The per-request timeout when the user has not chosen one: the gateway answers in a few seconds. */
export const DEFAULT_TIMEOUT_S = 30;
export const MIN_TIMEOUT_S = 1;
export const MAX_TIMEOUT_S = 600;

const STORAGE_KEY = 'pay-console.send-timeout-s';

/** The timeout typed by the user, or a sentence saying what to type. */
export function parseTimeoutSeconds(
  text: string,
): { ok: true; seconds: number } | { ok: false; message: string } {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < MIN_TIMEOUT_S || Number(t) > MAX_TIMEOUT_S) {
    return {
      ok: false,
      message: `The timeout is a whole number of seconds from ${MIN_TIMEOUT_S} to ${MAX_TIMEOUT_S}, e.g. ${DEFAULT_TIMEOUT_S}.`,
    };
  }
  return { ok: true, seconds: Number(t) };
}

export function loadTimeoutSeconds(storage: Storage | undefined = globalThis.localStorage): number {
  try {
    const r = parseTimeoutSeconds(storage?.getItem(STORAGE_KEY) ?? '');
    return r.ok ? r.seconds : DEFAULT_TIMEOUT_S;
  } catch {
    return DEFAULT_TIMEOUT_S;
  }
}

export function saveTimeoutSeconds(
  seconds: number,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  try {
    if (seconds === DEFAULT_TIMEOUT_S) storage?.removeItem(STORAGE_KEY);
    else storage?.setItem(STORAGE_KEY, String(seconds));
  } catch {
    // storage refused (private mode): the choice lasts for this page
  }
}
