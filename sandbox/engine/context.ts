import type { EndpointRef } from '../../src/core/index.ts';
import type { Operation } from '../../src/catalog/index.ts';
import type { ScenarioChoice } from '../../src/catalog/scenarios.ts';
import type { Merchant } from '../merchants.ts';
import type { ResolvedSandboxOptions } from '../options.ts';
import type { ApiReply } from '../replies.ts';
import type { RecurringStore } from '../store/recurring-schedules.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';
import type { SandboxStore } from '../store.ts';
import type { HostedFieldsStore } from './hosted-fields-store.ts';

/** One API request, authenticated and validated, as the engine's handlers see it. */
export interface OperationCall {
  op: Operation;
  merchant: Merchant;
  endpoint: EndpointRef;
  /** The endpoint id the order is booked on (`end-point-id`). */
  endPointId: string;
  params: ReadonlyMap<string, string>;
  now: number;
  /** `http://<host><prefix>/paynet`: where the sandbox's own pages are, as the client reached it. */
  pageBase: string;
  /** The scenarios in force for this call (its `X-Sandbox-Scenario`, else its merchant's choice). */
  scenario?: ScenarioChoice | undefined;
}

/** What every handler works with: the store, the settings and the key of the card-number hash. */
export interface EngineContext {
  readonly store: SandboxStore;
  readonly options: ResolvedSandboxOptions;
  readonly cardSecret: string;
  /** v4 sale's hosted-fields tickets and tokens (engine/hosted-fields.ts). */
  readonly hostedFields: HostedFieldsStore;
  /** The recurring payments' schedules (sandbox/store/recurring-schedules.ts). */
  readonly recurring: RecurringStore;
  /** The scenario lab's choices and test clocks, when the plugin set them (sandbox/scenarios/). */
  readonly scenarios: ScenarioStore | undefined;
}

/** One operation's business rules; runs inside the request's write transaction. */
export type Handler = (x: EngineContext, c: OperationCall) => ApiReply;

export interface CardData {
  pan: string;
  name: string;
  expMonth: string;
  expYear: string;
  cvv: string | undefined;
}
