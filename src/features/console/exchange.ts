import type { BuiltRequest } from '../../core/index.ts';
import type { Exchange, SigningContext } from '../../shared/contracts/contracts.ts';
import type { ProxyEnvelope } from '../../shared/browser/proxy-client.ts';

/** The exchange reported to history (history masks card data and drops CVVs before storing it). */
export function toExchange(
  operationPath: string,
  context: SigningContext,
  built: BuiltRequest,
  sentAt: string,
  envelope?: ProxyEnvelope,
  error?: string,
  pinned?: { nonce?: string; timestamp?: string },
): Exchange {
  return {
    operationPath,
    profileName: context.profileName,
    targetName: context.target.name,
    sentAt,
    request: {
      method: built.method,
      url: built.url,
      headers: built.headers.map((h) => ({ name: h.name, value: h.value })),
      body: built.body.map((p) => ({ name: p.name, value: p.value })),
      ...(pinned ? { pinned } : {}),
    },
    ...(envelope
      ? {
          response: {
            status: envelope.status,
            elapsedMs: envelope.elapsedMs,
            headers: envelope.headers,
            body: envelope.body,
          },
        }
      : {}),
    ...(error ? { error } : {}),
  };
}
