/**
 * The one decision of what a failed exchange means for the order: "not sent" (it failed before
 * the body left: DNS, a refused connection, TLS, a proxy's refusal) or "unknown outcome" (it may
 * have reached the gateway: a reset or a timeout after the body was sent, a 5xx, a cancel after
 * the send). The workbench, history, the flows and teaching all ask this module, so one case
 * reads the same everywhere.
 */
import { CLIENT_ORDER_ID_NAMES } from '../catalog/index.ts';
import { errorText } from '../core/errors.ts';

/** What a send's end says about the order it was about. */
export type SendCertainty = 'answered' | 'not-sent' | 'unknown';

/**
 * Failures that happen before a byte of the body leaves for the gateway: the proxy knows it could
 * not connect (DNS, refused, unreachable, TLS or certificate, the corporate proxy's refusal) or
 * refused the request itself (unknown target, a path it will not forward). Every other failure
 * may have reached the gateway.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'UPSTREAM_DNS',
  'UPSTREAM_REFUSED',
  'UPSTREAM_UNREACHABLE',
  'UPSTREAM_BAD_PORT',
  'UPSTREAM_TLS',
  'UPSTREAM_CERT_UNTRUSTED',
  'UPSTREAM_CERT_HOSTNAME',
  'UPSTREAM_CERT_EXPIRED',
  'UPSTREAM_CLIENT_CERT_REJECTED',
  'PROXY_AUTH_REQUIRED',
  'PROXY_TUNNEL_FAILED',
  'PROXY_REFUSED',
  'PROXY_UNREACHABLE',
  'PROXY_HTTP',
  'TARGET_UNKNOWN',
  'URL_OUTSIDE_TARGET',
  'QUERY_NOT_ALLOWED',
  'PATH_MISSING',
  'PATH_INVALID',
  'PATH_TRAVERSAL',
  // Refused by the model before anything went out.
  'SEND_MISSING_VALUES',
  'SEND_ENDPOINT',
  'SEND_UNSIGNED',
  'SEND_BUILD',
]);

/** Operations that only read: sending one again changes nothing, so their failure is plain. */
const READS_ONLY: ReadonlySet<string> = new Set(['v2/status', 'v4/status', 'v2/get-card-info']);

/** The stable code of a failure (the proxy's, the send's cancel and timeout), if it has one. */
export function failureCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** An exchange's end as the decision reads it: an HTTP status, or the failure. */
export type SendEnd = { ok: true; status: number } | { ok: false; error: unknown };

/** Whether the exchange was answered, was never sent, or may have reached the gateway. */
export function sendCertainty(operationPath: string, end: SendEnd): SendCertainty {
  if (end.ok) return end.status >= 500 && !READS_ONLY.has(operationPath) ? 'unknown' : 'answered';
  const code = failureCode(end.error);
  if (code !== undefined && NOT_SENT_CODES.has(code)) return 'not-sent';
  // A read sent twice changes nothing: its failure is a plain failure, not an open question.
  return READS_ONLY.has(operationPath) ? 'not-sent' : 'unknown';
}

/** The rule a correct merchant follows, quoted from the description. */
export const UNKNOWN_OUTCOME_RULE = {
  source: 'api-description.md',
  section: 'Resources and their fields',
  quote:
    'Status may be queried by either; `orderid` is preferred, `client_orderid` is used when `orderid` is unavailable.',
} as const;

/** What a correct merchant does about an unknown outcome (the same words on every screen). */
export const UNKNOWN_OUTCOME_ADVICE =
  'Treat it as unknown, not failed: check with status (by `client_orderid` when no `orderid` came back), or resend the identical request (same `client_orderid` and parameters), which the gateway answers with the original acknowledgement. Never retry with a new `client_orderid`: that could charge twice.';

/** The order an unknown outcome is about: the ids to check it by. */
export interface UnknownOutcome {
  operationPath: string;
  /** Why the outcome is unknown, in a sentence. */
  cause: string;
  clientOrderId?: string;
  orderId?: string;
}

/**
 * The unknown outcome of an exchange, or null when it was answered or never sent. `sent` is the
 * body that went out (the ids come from it), `answer` the parsed body of a 5xx, if any.
 */
export function unknownOutcome(
  operationPath: string,
  sent: ReadonlyArray<{ name: string; value: string }>,
  end: SendEnd,
  answer?: unknown,
): UnknownOutcome | null {
  if (sendCertainty(operationPath, end) !== 'unknown') return null;
  const value = (names: readonly string[]) =>
    sent.find((p) => names.includes(p.name) && p.value !== '')?.value;
  const body = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const answeredId = body['paynet-order-id'];
  const orderId =
    typeof answeredId === 'string' || typeof answeredId === 'number'
      ? String(answeredId)
      : // An operation on an existing order names it: that order is the one to check.
        value(['orderid']);
  const clientOrderId = value(CLIENT_ORDER_ID_NAMES);
  return {
    operationPath,
    cause: causeOf(end),
    ...(clientOrderId !== undefined ? { clientOrderId } : {}),
    ...(orderId !== undefined ? { orderId } : {}),
  };
}

function causeOf(end: SendEnd): string {
  if (end.ok)
    return `The gateway answered HTTP ${end.status}: a server error may come after the order was committed.`;
  const code = failureCode(end.error);
  if (code === 'SEND_CANCELLED') return 'The send was cancelled after the request left.';
  if (code === 'SEND_TIMEOUT' || code === 'UPSTREAM_TIMEOUT')
    return 'No answer came in time: the gateway may still have processed the request.';
  if (code === 'UPSTREAM_RESET' || code === 'CLIENT_CLOSED')
    return 'The connection closed after the request was sent, before the answer.';
  return 'The exchange failed after the request was sent.';
}

/** How history lists an exchange that was not answered. */
export const NOT_SENT_LABEL = 'not sent';
export const UNKNOWN_LABEL = 'outcome unknown';

/** One sentence for a screen without room for buttons (a flow's step, teaching's send). */
export function unknownOutcomeSentence(u: UnknownOutcome): string {
  const by = u.orderId
    ? `orderid ${u.orderId}`
    : u.clientOrderId
      ? `client_orderid ${u.clientOrderId}`
      : null;
  return `Outcome unknown: ${u.cause} ${by ? `Check with status by ${by}` : 'Check with status'}, or resend the identical request; never retry with a new client_orderid.`;
}

/** The exchange outcome as the decision reads it. */
export function endOf(
  outcome: { ok: true; wire: { status: number } } | { ok: false; error: unknown },
): SendEnd {
  return outcome.ok ? { ok: true, status: outcome.wire.status } : { ok: false, error: outcome.error };
}

/** The error a screen without buttons shows: the failure, and what to do when the order may exist. */
export function failureError(
  operationPath: string,
  sent: ReadonlyArray<{ name: string; value: string }>,
  error: unknown,
): unknown {
  const unknown = unknownOutcome(operationPath, sent, { ok: false, error });
  if (!unknown) return error;
  return new Error(`${errorText(error)} ${unknownOutcomeSentence(unknown)}`);
}
