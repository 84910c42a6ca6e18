import type { CryptoPort } from '../src/core/index.ts';
import { diagnose, type MistakeId } from '../src/diagnose/index.ts';
import { parseCapture } from '../src/capture/index.ts';
import type { SandboxAttempt } from '../sandbox/hooks.ts';

/** Refusals whose cause the sandbox names itself, without re-signing anything. */
const NAMED_BY_CODE: Readonly<Record<string, MistakeId>> = {
  OAUTH_TIMESTAMP: 'stale-timestamp',
  OAUTH_SIGNATURE_METHOD: 'wrong-signature-method',
};

/** Refusals of the signature itself: the diagnosis engine searches the mistake that reproduces it. */
const SIGNATURE_CODES = new Set(['INVALID_CONTROL_CODE', 'INVALID_SIGNATURE']);

/**
 * The diagnosis engine's mistake id for a refused request (the first confirmed cause, else the
 * first possible one), or null when the refusal is not a signing mistake. Works on the request in
 * memory; nothing of it is kept.
 */
export async function mistakeOfAttempt(
  attempt: SandboxAttempt,
  crypto: CryptoPort,
): Promise<MistakeId | null> {
  const code = attempt.reply.body['error-code'];
  if (typeof code !== 'string') return null;
  const named = NAMED_BY_CODE[code];
  if (named) return named;
  if (!SIGNATURE_CODES.has(code) || !attempt.merchant || !attempt.opPath) return null;
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/vnd.pay+json',
  };
  if (attempt.authorization) headers.authorization = attempt.authorization;
  try {
    const d = await diagnose({
      capture: { method: 'POST', url: attempt.url, headers, body: attempt.bodyText },
      login: attempt.merchant.login,
      controlKey: attempt.merchant.controlKey,
      publicKey: attempt.merchant.verifyKey,
      knownIds: {
        ...(attempt.merchant.endpointIds[0] ? { endpointId: attempt.merchant.endpointIds[0] } : {}),
        ...(attempt.merchant.endpointGroupIds[0]
          ? { endpointGroupId: attempt.merchant.endpointGroupIds[0] }
          : {}),
      },
      now: attempt.at,
      urlSchemeKnown: true,
      crypto,
    });
    const cause = d.likelyCauses.find((c) => c.confidence === 'confirmed') ?? d.likelyCauses[0];
    return cause?.mistakeId ?? null;
  } catch {
    return null;
  }
}

/** The confirmed cause of a broken capture (an exercise's), signed with the given control key. */
export async function confirmedCauseOfCapture(
  text: string,
  controlKey: string,
  crypto: CryptoPort,
): Promise<MistakeId | undefined> {
  const parsed = parseCapture(text, { scheme: 'https' });
  const d = await diagnose({
    capture: parsed.request,
    controlKey,
    urlSchemeKnown: parsed.schemeKnown,
    headersComplete: parsed.headersComplete,
    crypto,
  });
  return d.likelyCauses.find((c) => c.confidence === 'confirmed')?.mistakeId;
}
