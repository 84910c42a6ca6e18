import { describeRefusal, type AnswerReading } from '../../model/read-answer.ts';
import type { TimelineEntry } from './flow-run-types.ts';
import { textOf } from './flow-vars.ts';

type RequestEntry = Extract<TimelineEntry, { kind: 'request' }>;

/** What a step takes from an answer, and what its timeline entry shows of it. */
export type FlowAnswer =
  | { ok: true; json: Record<string, unknown>; entry: Partial<RequestEntry> }
  | { ok: false; message: string; entry: Partial<RequestEntry> };

/**
 * Reads an answer that came back: a step goes on only with a JSON answer of HTTP 200 that is not a
 * refusal and matches the catalog's schema; anything else fails it with the reason.
 */
export function readFlowAnswer(answer: AnswerReading, elapsedMs: number): FlowAnswer {
  if (!answer.isJson) {
    return {
      ok: false,
      message: `The answer (HTTP ${answer.httpStatus}) is not JSON: check the target's base URL.`,
      entry: { httpStatus: answer.httpStatus, elapsedMs, summary: 'not JSON', ok: false },
    };
  }
  const obj = answer.json && typeof answer.json === 'object' ? (answer.json as Record<string, unknown>) : {};
  const base = { httpStatus: answer.httpStatus, elapsedMs, type: answer.type ?? null };
  if (answer.httpStatus !== 200 || answer.type === 'validation-error' || answer.type === 'error') {
    const why = describeRefusal(answer);
    return { ok: false, message: why, entry: { ...base, ok: false, summary: why } };
  }
  if (!answer.schemaOk) {
    const issue = answer.schemaIssues[0];
    const why = `The answer is not a ${answer.schema}${issue ? `: ${issue}` : ''}.`;
    return { ok: false, message: why, entry: { ...base, ok: false, summary: why } };
  }
  return { ok: true, json: obj, entry: { ...base, ok: true, summary: summarize(obj) } };
}

/** The fields of an answer the timeline shows in one line. */
export function summarize(obj: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of [
    'status',
    'paynet-order-id',
    'card-ref-id',
    'recurring-payment-id',
    'masked-card-number',
    'card-brand',
    'threeds-comp-ind',
  ]) {
    const v = textOf(obj[k]);
    if (v) parts.push(`${k} ${v}`);
  }
  return parts.join(', ');
}
