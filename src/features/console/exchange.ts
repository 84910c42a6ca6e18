import type { BuiltRequest } from '../../core/index.ts';
import type { RequestDraft } from '../../model/index.ts';
import type { Exchange, SigningContext } from '../../shared/contracts/contracts.ts';
import type { ProxyEnvelope } from '../../shared/browser/proxy-client.ts';

/** The exchange reported to history (history masks card data and drops CVVs before storing it). */
export function toExchange(
  draft: RequestDraft,
  context: SigningContext,
  built: BuiltRequest,
  sentAt: string,
  envelope?: ProxyEnvelope,
  error?: string,
): Exchange {
  return {
    operationPath: draft.operation,
    draft,
    profileName: context.profileName,
    targetName: context.target.name,
    sentAt,
    request: {
      method: built.method,
      url: built.url,
      headers: built.headers.map((h) => ({ name: h.name, value: h.value })),
      body: built.body.map((p) => ({ name: p.name, value: p.value })),
      ...(draft.pinned ? { pinned: { ...draft.pinned } } : {}),
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
