/**
 * A collection step's assertions and variable settings, declared as data in the saved request (not
 * as code): the HTTP status, the final transaction status, `error-code`, a field's value, a callback
 * received with a valid `control`; and variables set from the answer.
 */
import { z } from 'zod/mini';
import type { CallbackVerdict } from '../core/index.ts';
import type { AnswerReading } from './read-answer.ts';
import { VARIABLE_NAME } from './variables.ts';
import { answerField } from './variable-words.ts';

const TEXT = z.string().check(z.maxLength(2_000));
const FIELD = z.string().check(z.minLength(1), z.maxLength(200));

export const StepChecksSchema = z.strictObject({
  expect: z.optional(
    z.strictObject({
      /** The HTTP status of the answer, e.g. 200. */
      http: z.optional(z.number().check(z.int(), z.minimum(100), z.maximum(599))),
      /** The transaction's status: the final one when the step waits for it, else the answer's. */
      status: z.optional(TEXT),
      /** The answer's `error-code`, by number or name (`1`, `VALIDATION`). */
      errorCode: z.optional(TEXT),
      /** Fields of the answer and the value each must have. */
      fields: z.optional(z.record(FIELD, TEXT)),
      /** A callback for the order arrived and its `control` verifies with the control key. */
      callback: z.optional(z.literal('valid')),
    }),
  ),
  /** Variables set from the answer: variable name → answer field (`orderid` ← `paynet-order-id`). */
  set: z.optional(z.record(z.string().check(z.regex(VARIABLE_NAME)), FIELD)),
  /**
   * Wait for the final status under the polling policy (default: when the answer acknowledges an
   * order and the operation is not a status check itself).
   */
  wait: z.optional(z.boolean()),
});
export type StepChecks = z.infer<typeof StepChecksSchema>;

export interface AssertionResult {
  /** What was checked, e.g. `status`, `field paynet-order-id`. */
  name: string;
  ok: boolean;
  expected: string;
  actual: string;
}

/** What a step's assertions are checked against. */
export interface StepFacts {
  answer: AnswerReading;
  /** The final status read by polling, when the step waited. */
  finalStatus?: string;
  /** The callback's verdict, when one was awaited; `none` when none arrived. */
  callback?: CallbackVerdict | 'none';
}

function codeMatches(expected: string, label: string | undefined): boolean {
  if (label === undefined) return expected === '';
  const parts = label.split(' · ');
  return expected === label || parts.includes(expected);
}

/** Every declared assertion, checked. */
export function checkStep(checks: StepChecks | undefined, facts: StepFacts): AssertionResult[] {
  const expect = checks?.expect;
  // Nothing declared: the step passes when the gateway answered with the operation's own answer.
  if (!expect)
    return [
      {
        name: 'answer',
        ok: facts.answer.accepted,
        expected: 'the operation’s answer (HTTP 200)',
        actual: facts.answer.accepted ? 'the operation’s answer (HTTP 200)' : facts.answer.badge.label,
      },
    ];
  const out: AssertionResult[] = [];
  const { answer } = facts;
  if (expect.http !== undefined)
    out.push({
      name: 'HTTP status',
      ok: answer.httpStatus === expect.http,
      expected: String(expect.http),
      actual: String(answer.httpStatus),
    });
  if (expect.status !== undefined) {
    const actual = facts.finalStatus ?? answer.status ?? '(none)';
    out.push({ name: 'status', ok: actual === expect.status, expected: expect.status, actual });
  }
  if (expect.errorCode !== undefined)
    out.push({
      name: 'error-code',
      ok: codeMatches(expect.errorCode, answer.errorCode),
      expected: expect.errorCode,
      actual: answer.errorCode ?? '(none)',
    });
  for (const [field, value] of Object.entries(expect.fields ?? {})) {
    const actual = answerField(answer.body, answer.json, field);
    out.push({ name: `field ${field}`, ok: actual === value, expected: value, actual: actual ?? '(absent)' });
  }
  if (expect.callback !== undefined)
    out.push({
      name: 'callback',
      ok: facts.callback === 'valid',
      expected: 'received, control valid',
      actual:
        facts.callback === undefined || facts.callback === 'none'
          ? 'none received'
          : facts.callback === 'valid'
            ? 'received, control valid'
            : `received, control ${facts.callback}`,
    });
  return out;
}

/** The variables a step sets from its answer; a field the answer lacks sets nothing. */
export function variablesFromAnswer(
  checks: StepChecks | undefined,
  answer: AnswerReading,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [variable, field] of Object.entries(checks?.set ?? {})) {
    const v = answerField(answer.body, answer.json, field);
    if (v !== undefined) out[variable] = v;
  }
  return out;
}
