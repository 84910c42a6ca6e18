import {
  containsCardNumber,
  containsPrivateKey,
  isCvvName,
  isPanName,
  isSecretName,
  maskDigits,
  scrubText,
} from '../../catalog/index.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import type { Exchange } from '../../model/exchange.ts';

export {
  dropCvvFromText,
  isCvvName,
  isPanName,
  maskCardNumbers,
  maskDigits,
  scrubText,
} from '../../catalog/index.ts';
export { maskDraft } from '../../model/mask-draft.ts';

export interface MaskedExchange {
  exchange: Exchange;
  /** Body fields that were masked or dropped: their stored values must not be reused. */
  masked: string[];
}

/** Masks card numbers to first6…last4, drops CVVs and anything secret-looking, then checks the result. */
export function maskExchange(ex: Exchange): MaskedExchange {
  const masked = new Set<string>();
  const body: Array<{ name: string; value: string }> = [];
  for (const pair of ex.request.body) {
    if (isCvvName(pair.name) || isSecretName(pair.name)) {
      masked.add(pair.name);
      continue;
    }
    const scrubbed = scrubText(pair.value);
    const value = isPanName(pair.name, ex.operationPath) ? maskDigits(scrubbed) : scrubbed;
    if (value !== pair.value) masked.add(pair.name);
    body.push({ name: pair.name, value });
  }
  const headers = ex.request.headers
    .filter((h) => !isSecretName(h.name))
    .map((h) => ({ name: h.name, value: scrubText(h.value) }));
  const exchange: Exchange = {
    operationPath: ex.operationPath,
    ...(ex.draft ? { draft: maskDraft(ex.draft) } : {}),
    profileName: scrubText(ex.profileName),
    targetName: ex.targetName,
    sentAt: ex.sentAt,
    request: {
      method: ex.request.method,
      url: scrubText(ex.request.url),
      headers,
      body,
      ...(ex.request.pinned ? { pinned: { ...ex.request.pinned } } : {}),
    },
    ...(ex.response
      ? {
          response: {
            status: ex.response.status,
            elapsedMs: ex.response.elapsedMs,
            headers: Object.fromEntries(
              Object.entries(ex.response.headers)
                .filter(([k]) => !isSecretName(k))
                .map(([k, v]) => [k, scrubText(v)]),
            ),
            body: scrubText(ex.response.body),
          },
        }
      : {}),
    ...(ex.error !== undefined ? { error: scrubText(ex.error) } : {}),
    ...(ex.certainty !== undefined ? { certainty: ex.certainty } : {}),
  };
  assertNothingSecret(exchange);
  return { exchange, masked: [...masked] };
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  }
  return out;
}

/** The invariant of every stored entry: no full card number, no CVV field, no private key. */
export function assertNothingSecret(ex: Exchange): void {
  if (ex.request.body.some((p) => isCvvName(p.name) || isSecretName(p.name))) {
    throw new Error('Refusing to store this exchange: a CVV or secret field is still in its body.');
  }
  for (const s of strings(ex)) {
    if (containsPrivateKey(s)) throw new Error('Refusing to store this exchange: it contains a private key.');
    if (containsCardNumber(s))
      throw new Error('Refusing to store this exchange: it contains an unmasked card number.');
  }
}
