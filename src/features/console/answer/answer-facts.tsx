import { errorCodeLabel } from '../../../catalog/index.ts';

/** An answer's facts, each named by its API key: a stable place to read them (and for tests). */
export type FactKeys = ReadonlyArray<readonly [key: string, label: string]>;

/** What the answer to a send shows first. */
export const ANSWER_FACTS: FactKeys = [
  ['type', 'Type'],
  ['status', 'Status'],
  ['paynet-order-id', 'Order id'],
  ['merchant-order-id', 'Merchant order id'],
  ['serial-number', 'Serial number'],
  ['card-ref-id', 'Card reference'],
  ['approval-code', 'Approval code'],
  ['processor-rrn', 'Processor reference (RRN)'],
  ['error-code', 'Error code'],
  ['threeds-version', '3-D Secure version'],
  ['threeds-stage', '3-D Secure stage'],
];

/** The whole of a status answer, as the poll panel shows it. */
export const STATUS_FACTS: FactKeys = [
  ['status', 'Status'],
  ['transaction-type', 'Transaction type'],
  ['amount', 'Amount'],
  ['currency', 'Currency'],
  ['approval-code', 'Approval code'],
  ['processor-rrn', 'Processor reference (RRN)'],
  ['error-code', 'Decline or error code'],
  ['error-message', 'Decline or error message'],
  ['threeds-version', '3-D Secure version'],
  ['threeds-stage', '3-D Secure stage'],
  ['threeds-comp-ind', '3DS Method completed'],
  ['card-ref-id', 'Card reference'],
  ['paynet-order-id', 'Order id'],
  ['merchant-order-id', 'Merchant order id'],
  ['serial-number', 'Serial number'],
];

export function AnswerFacts({
  json,
  keys,
  label,
  prefix = '',
}: {
  json: unknown;
  keys: FactKeys;
  label: string;
  /** Before each fact's name: keeps it apart from a form field of the same name (`amount`). */
  prefix?: string;
}) {
  const body = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const facts = keys.flatMap(([key, name]) => {
    const v = body[key];
    // "1 · VALIDATION": the number the gateway sends and the sandbox's name beside it.
    const text =
      key === 'error-code'
        ? (errorCodeLabel(body) ?? '')
        : typeof v === 'string'
          ? v
          : typeof v === 'number'
            ? String(v)
            : '';
    return text !== '' ? [{ key, name, value: text }] : [];
  });
  if (facts.length === 0) return null;
  return (
    <div className="wb-answer-summary" role="group" aria-label={label}>
      {facts.map((f) => (
        <div key={f.key} role="group" aria-label={`${prefix}${f.key}`}>
          <span role="term">
            {f.name} <code>{f.key}</code>
          </span>{' '}
          <span role="definition">{f.value}</span>
        </div>
      ))}
    </div>
  );
}
