import type { ScenarioChoice, ScenarioName, ScenarioPick } from '../../src/catalog/scenarios.ts';
import type { ScenarioBehaviour } from './behaviour.ts';
import { callbackBadControl } from './callback-bad-control.ts';
import { callbackDelay } from './callback-delay.ts';
import { callbackDropRetry } from './callback-drop-retry.ts';
import { callbackDuplicate } from './callback-duplicate.ts';
import { callbackReorder } from './callback-reorder.ts';
import { chargeback } from './chargeback.ts';
import { finalError } from './final-error.ts';
import { finalFiltered } from './final-filtered.ts';
import { latency } from './latency.ts';
import { processedTimeout } from './processed-timeout.ts';
import { serverErrorAfterCommit } from './server-error-after-commit.ts';
import { stuckProcessing } from './stuck-processing.ts';
import { threeDsMethodTimeout } from './three-ds-method-timeout.ts';

/**
 * What each scenario of the catalog (src/catalog/scenarios.ts) does: one behaviour per name, typed
 * by the catalog's names, so a scenario without a behaviour (or a behaviour without a scenario)
 * fails `tsc`. Where two chosen scenarios act at the same point, the earlier entry here wins or acts
 * first: latency before a 500 or a reset; stuck before error before filtered; a delayed callback's
 * hold before a reordered one's. How to add one: docs/adding-a-scenario.md.
 */
export const BEHAVIOURS: { readonly [N in ScenarioName]: ScenarioBehaviour } = {
  latency,
  'server-error-after-commit': serverErrorAfterCommit,
  'processed-timeout': processedTimeout,
  'stuck-processing': stuckProcessing,
  'final-error': finalError,
  'final-filtered': finalFiltered,
  'three-ds-method-timeout': threeDsMethodTimeout,
  'callback-delay': callbackDelay,
  'callback-reorder': callbackReorder,
  'callback-drop-retry': callbackDropRetry,
  'callback-bad-control': callbackBadControl,
  'callback-duplicate': callbackDuplicate,
  chargeback,
};

const ORDER = Object.keys(BEHAVIOURS) as ScenarioName[];

/** The chosen scenarios' behaviours with their picks, in the registry's order. */
export function chosen(choice: ScenarioChoice | undefined): Array<[ScenarioBehaviour, ScenarioPick]> {
  if (choice === undefined || choice.length === 0) return [];
  const out: Array<[ScenarioBehaviour, ScenarioPick]> = [];
  for (const name of ORDER) {
    const pick = choice.find((p) => p.name === name);
    if (pick) out.push([BEHAVIOURS[name], pick]);
  }
  return out;
}
