import { findOperation } from '../../catalog/index.ts';
import type { SnippetInput } from '../../exports/index.ts';
import type { FormPreset, SigningContext } from '../../shared/contracts/contracts.ts';

/** The snippet generator's input for the workbench's current request: body pairs in form order. */
export function snippetInputFor(
  preset: FormPreset,
  context: SigningContext,
  includeSecrets: boolean,
): SnippetInput | null {
  const operation = findOperation(preset.operationPath);
  if (!operation) return null;
  const known = new Set(operation.fields.map((f) => f.name));
  const values = [
    ...operation.fields.map((f) => ({ name: f.name, value: preset.values[f.name] ?? '' })),
    ...Object.entries(preset.values)
      .filter(([name]) => !known.has(name))
      .map(([name, value]) => ({ name, value })),
    ...(preset.extras ?? []).filter((e) => e.name.trim() !== ''),
  ].filter((p) => p.name !== 'control');
  const controlKey = context.credentials.controlKey;
  return {
    operation,
    baseUrl: context.target.baseUrl,
    endpoint: context.endpoint,
    values,
    login: context.credentials.login,
    includeSecrets,
    ...(includeSecrets && controlKey ? { secrets: { controlKey } } : {}),
  };
}
