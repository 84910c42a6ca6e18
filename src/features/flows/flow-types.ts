/**
 * Guided flows as data. A value template may hold `{name}` placeholders: they are filled from the
 * run's variables (flow inputs, fresh order ids, the environment, and fields saved from earlier
 * answers), so one answer fills the next request.
 */
export type Vars = Record<string, string>;
export type Template = Record<string, string>;

export interface FlowInput {
  name: string;
  label: string;
  value: string;
  help?: string;
}

interface StepCommon {
  id: string;
  title: string;
  /** What the step does and which rule of the description it follows. */
  explain: string;
}

export interface RequestStep extends StepCommon {
  kind: 'request';
  operation: string;
  values: Template;
  /** Variables saved from the answer: variable name → answer field. */
  save?: Record<string, string>;
  /** Answer fields that should have a value; a difference is reported as a warning. */
  hope?: Record<string, string>;
}

export type StatusGoal = 'final' | 'redirect-to' | 'method-url';

export interface StatusStep extends StepCommon {
  kind: 'status';
  /** `client_orderid` and `orderid` of the order to poll. */
  order: { client_orderid: string; orderid: string };
  until: StatusGoal;
  /** Final statuses that count as success (for `until: 'final'`). */
  expect?: readonly string[];
  save?: Record<string, string>;
}

export interface MethodStep extends StepCommon {
  kind: 'method';
  /** Template of the 3DS Method URL, loaded in a hidden frame. */
  url: string;
}

export interface CustomerStep extends StepCommon {
  kind: 'customer';
  /** Template of the page the customer opens (the issuer's). */
  url: string;
  /** The order the return must name. */
  clientOrderId: string;
  /** The field of the return that must be present (`PaRes` for 3DS 1.0.2, `cres` for 3DS 2). */
  returns: string;
  save: Record<string, string>;
}

export type FlowStep = RequestStep | StatusStep | MethodStep | CustomerStep;

export interface FlowDefinition {
  id: string;
  title: string;
  summary: string;
  inputs: readonly FlowInput[];
  /** Variables that get a fresh merchant order id at the start of each run. */
  freshIds: readonly string[];
  steps: readonly FlowStep[];
}

/** What the page provides to every run: filled into `{env.*}` placeholders. */
export interface FlowEnv {
  login: string;
  callbackUrl: string;
  returnUrl: string;
  expireYear: string;
  browser: Record<string, string>;
}
