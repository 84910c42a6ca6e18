import { parseScenarioHeader, SCENARIO_HEADER, type ScenarioChoice } from '../../src/catalog/scenarios.ts';
import { errorReply, validationError, type ApiReply } from '../replies.ts';
import type { ScenarioStore } from './scenario-store.ts';

/**
 * The scenarios in force for one call: its `X-Sandbox-Scenario` header when it has one, else its
 * merchant's choice. An empty header chooses none, whatever the merchant chose: an empty list (not
 * undefined), so that the order it makes is recorded under "none" for its whole life
 * (finalisation and callbacks), not under the merchant's choice.
 */
export function chooseScenario(
  lab: ScenarioStore,
  header: string | undefined,
  merchant: string,
  headerRule: 'honour' | 'refuse' = 'honour',
): { choice: ScenarioChoice | undefined } | { refused: ApiReply } {
  if (header !== undefined && headerRule === 'refuse') return { refused: scenarioHeaderRefused() };
  if (header === undefined) {
    const choice = lab.merchantChoice(merchant);
    return { choice: choice.length > 0 ? choice : undefined };
  }
  const parsed = parseScenarioHeader(header);
  if (!parsed.ok) return { refused: validationError(parsed.message, 'SCENARIO_INVALID') };
  return { choice: parsed.choice };
}

/** The header's value as one string (a repeated header is read as one list). */
export function scenarioHeaderOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const v = headers[SCENARIO_HEADER];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Classroom mode: the trainer chooses scenarios, a trainee's header is refused (nothing is done). */
export function scenarioHeaderRefused(): ApiReply {
  return errorReply(
    403,
    'In the classroom the trainer chooses scenarios (for the room or for you, on the trainer page): send the request again without the X-Sandbox-Scenario header.',
    'SCENARIO_TRAINER_ONLY',
  );
}
