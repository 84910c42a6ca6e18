/**
 * The words about variables (lists, the unresolved sentence) and reading an answer's field to save
 * as one: loaded by the exchange, the runner and the variables' views, not by the first page.
 */
import { DraftError } from './errors.ts';
import type { RequestDraft } from './request-draft.ts';
import { variablesIn } from './variables.ts';

/** "{{a}}", "{{a}} and {{b}}", "{{a}}, {{b}} and {{c}}". */
export function variableList(names: readonly string[]): string {
  const quoted = names.map((n) => `{{${n}}}`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)!}`;
}

/** The sentence that names unresolved variables and what to do. */
export function unresolvedText(names: readonly string[]): string {
  return `${variableList(names)} ${names.length === 1 ? 'has' : 'have'} no value: define ${names.length === 1 ? 'it' : 'them'} in the environment, or save ${names.length === 1 ? 'it' : 'them'} from an answer.`;
}

/**
 * For a surface that signs without asking (a collection run, the command line): refuses a draft
 * that still holds a variable, naming it.
 * @throws DraftError DRAFT_UNRESOLVED_VARIABLES
 */
export function requireResolved(draft: RequestDraft, doing: string): void {
  const left = variablesIn(draft);
  if (left.length > 0)
    throw new DraftError('DRAFT_UNRESOLVED_VARIABLES', `Cannot ${doing}: ${unresolvedText(left)}`);
}

/**
 * A field of an answer as text (`paynet-order-id`, `status`…), for "save as a variable": a JSON
 * answer's top-level field, or a form-encoded answer's pair.
 */
export function answerField(body: string, json: unknown, field: string): string | undefined {
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const v = (json as Record<string, unknown>)[field];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
    return undefined;
  }
  for (const pair of body.trim().split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    try {
      const name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
      if (name === field) return decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The variable name suggested for an answer field: `paynet-order-id` → `orderid`. */
export function suggestedVariable(field: string): string {
  if (field === 'paynet-order-id') return 'orderid';
  if (field === 'merchant-order-id') return 'client_orderid';
  return field.replace(/[^A-Za-z0-9_.$-]/g, '_').replace(/^[^A-Za-z_$]/, '_$&');
}
