/**
 * A guided flow as an editable collection (issue 33): its request steps as saved requests whose
 * `{name}` placeholders become `{{name}}` variables, its inputs the collection's variables, each
 * status step a wait and an expected final status on the request before it, its saved fields the
 * step's `set`. What a collection cannot hold (the 3DS Method frame, the customer's issuer page) is
 * left out and named, so the file runs as far as a server alone can.
 */
import { TEST_CARD } from '../../catalog/test-cards.ts';
import type { DraftValue, RequestDraft } from '../../model/index.ts';
import type { StepChecks } from '../../model/step-checks.ts';
import type { CollectionsFile } from '../../exports/collections-file.ts';
import type { FlowDefinition, RequestStep, Template } from './flow-types.ts';

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

type FileCollection = CollectionsFile['collections'][number];

/** One template value as a draft value: places stay places, `{x}` becomes `{{x}}`. */
function valueOf(name: string, raw: string, fresh: ReadonlySet<string>): DraftValue {
  if (raw === '{env.callbackUrl}') return { place: 'callback-url' };
  if (raw === '{env.returnUrl}') return { place: 'return-url' };
  if (raw === TEST_CARD.number) return '{{card_number}}';
  if ((name === 'cvv2' || name === 'cvv') && /^\d{3,4}$/.test(raw))
    return raw === '123' ? '{{cvv}}' : `{{cvv_${raw}}}`;
  return raw.replace(PLACEHOLDER, (_m, key: string) => {
    if (key === 'env.login') return '{{login}}';
    if (key === 'env.expireYear') return '{{expire_year}}';
    if (key.startsWith('browser.')) return `{{${key.slice('browser.'.length)}}}`;
    if (fresh.has(key)) return `${key}-{{run_id}}`;
    return `{{${key}}}`;
  });
}

function draftOf(step: RequestStep, fresh: ReadonlySet<string>): RequestDraft {
  const values: Record<string, DraftValue> = {};
  for (const [name, raw] of Object.entries(step.values as Template)) values[name] = valueOf(name, raw, fresh);
  return { v: 2, operation: step.operation, values, extras: [] };
}

/** The flow as one collection of the console's collections file, and the steps left out. */
export function flowAsCollection(flow: FlowDefinition): { collection: FileCollection; left: string[] } {
  const fresh = new Set(flow.freshIds);
  const requests: Array<{ name: string; draft: unknown; checks?: StepChecks }> = [];
  const left: string[] = [];
  const cvvs: Record<string, string> = {};
  for (const step of flow.steps) {
    if (step.kind === 'request') {
      const draft = draftOf(step, fresh);
      for (const v of Object.values(draft.values))
        if (typeof v === 'string')
          for (const m of v.matchAll(/\{\{cvv_(\d+)\}\}/g)) cvvs[`cvv_${m[1]}`] = m[1]!;
      const checks: StepChecks = {
        expect: { http: 200, ...(step.hope ? { fields: { ...step.hope } } : {}) },
        ...(step.save ? { set: { ...step.save } } : {}),
      };
      requests.push({ name: step.title, draft, checks });
    } else if (step.kind === 'status' && step.until === 'final' && requests.length > 0) {
      const last = requests.at(-1)!;
      const expected = step.expect?.length === 1 ? step.expect[0] : undefined;
      last.checks = {
        ...last.checks,
        wait: true,
        expect: { ...last.checks?.expect, ...(expected ? { status: expected } : {}) },
        ...(step.save || last.checks?.set ? { set: { ...last.checks?.set, ...step.save } } : {}),
      };
    } else left.push(step.title);
  }
  return {
    collection: {
      name: flow.title,
      variables: { ...Object.fromEntries(flow.inputs.map((i) => [i.name, i.value])), ...cvvs },
      requests,
    },
    left,
  };
}

/** The file "Export as a collection" downloads: the console's collections file with this flow. */
export function flowCollectionsFile(flow: FlowDefinition, exportedAt: string): CollectionsFile {
  return {
    format: 'pay-console-collections',
    version: 1,
    exportedAt,
    collections: [flowAsCollection(flow).collection],
  };
}
