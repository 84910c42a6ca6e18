import type { SigningContext } from '../../../model/signing-context.ts';
import type { RequestDraft } from '../../../model/index.ts';
import { applyVariables, type AppliedVariables, type VariableSource } from '../../../model/variables.ts';
import type { StoredVariables } from '../../../browser/variables-store.ts';

/**
 * The active profile as an environment: its own fields as variables (`{{login}}`, `{{endpoint_id}}`
 * or `{{group_id}}`, `{{base_url}}`), then the variables kept for it. Secrets are never variables.
 */
export function profileSource(ctx: SigningContext | null, stored: StoredVariables): VariableSource[] {
  if (!ctx) return [];
  const ids: Record<string, string> = {};
  for (const ref of [ctx.endpoint, ctx.otherEndpoint])
    if (ref) ids[ref.kind === 'group' ? 'group_id' : 'endpoint_id'] = ref.id;
  return [
    {
      kind: 'environment',
      name: ctx.profileName,
      values: {
        login: ctx.credentials.login,
        base_url: ctx.target.baseUrl,
        ...ids,
        ...stored[ctx.profileId],
      },
    },
  ];
}

/** The workbench's draft with its variables resolved for signing (the panes and the send). */
export function resolveWorkbenchVariables(
  draft: RequestDraft,
  ctx: SigningContext | null,
  stored: StoredVariables,
): AppliedVariables {
  return applyVariables(draft, profileSource(ctx, stored));
}
