import type { Credentials, EndpointRef } from '../../core/index.ts';
import {
  draftParams,
  formulaOf,
  operationOf,
  requireAllValues,
  resolveDraft,
  schemeOf,
  type Place,
  type RequestDraft,
} from '../../model/index.ts';
import type { SnippetInput } from './snippet-plan.ts';

/** Where the snippet is made for: the profile's target, endpoint and login, and the place of the console. */
export interface SnippetTarget {
  place: Place;
  baseUrl: string;
  /** The profile's endpoint, used when the draft names none. */
  endpoint: EndpointRef;
  credentials: Pick<Credentials, 'login' | 'controlKey'>;
  /** Embed the control key (or the given private key PEM) in the snippet. */
  includeSecrets?: boolean;
  privateKeyPem?: string;
}

/**
 * The snippet generator's input for a draft: the same parameters the console signs (the model's
 * one converter), the draft's scheme and formula, and its pinned nonce and timestamp.
 * @throws DraftError DRAFT_MISSING_VALUES for a draft that came without values (a snippet would
 *   sign fewer parameters than the request), naming them.
 */
export function snippetInputFromDraft(draft: RequestDraft, target: SnippetTarget): SnippetInput {
  const op = operationOf(draft);
  requireAllValues(draft, 'generate this snippet');
  const resolved = resolveDraft(draft, target.place);
  const scheme = schemeOf(op, draft);
  const formula = formulaOf(op, draft);
  const values = draftParams(op, resolved)
    .filter((p) => p.name !== 'control')
    .map((p) => ({ name: p.name, value: p.value }));
  const include = target.includeSecrets === true;
  const controlKey = target.credentials.controlKey;
  return {
    operation: op,
    baseUrl: target.baseUrl,
    endpoint: resolved.endpoint ?? target.endpoint,
    values,
    login: target.credentials.login,
    ...(scheme !== op.scheme ? { scheme } : {}),
    ...(scheme === 'control' && formula !== op.formula ? { formula: formula.map((t) => ({ ...t })) } : {}),
    ...(resolved.pinned && scheme !== 'control' ? { pinned: resolved.pinned } : {}),
    includeSecrets: include,
    ...(include && (controlKey || target.privateKeyPem)
      ? {
          secrets: {
            ...(controlKey ? { controlKey } : {}),
            ...(target.privateKeyPem ? { privateKeyPem: target.privateKeyPem } : {}),
          },
        }
      : {}),
  };
}
