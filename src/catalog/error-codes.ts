/**
 * The one table of refusal reasons and their numeric `error-code`. The gateway answers a number
 * (gateway-notes.md, "The gateway's default dialect": its PHP SDK passes `error-code` and a
 * callback's `error_code` to an integer exception code), but publishes no full table. So each
 * reason says where its number comes from: `gateway` for the few numbers seen in the vendor's
 * public code, `sandbox` for the ones this project chose. The sandbox answers the symbolic reason
 * beside the number (`error-reason`, a callback's `error_reason`), so nothing is lost.
 *
 * The sandbox's own numbers start at 100, away from the gateway's small ones, so a number the
 * gateway later turns out to use for something else cannot be mistaken for one of ours.
 */

/** Where a number comes from. */
export type ErrorCodeSource = 'gateway' | 'sandbox';

export interface ErrorCodeEntry {
  /** The symbolic name the sandbox has always answered (`VALIDATION`, `INSUFFICIENT_FUNDS`…). */
  reason: string;
  /** The numeric `error-code` of the gateway's default dialect and of callbacks. */
  code: number;
  source: ErrorCodeSource;
  /** What the reason means, for the docs. */
  meaning: string;
}

const gateway = (reason: string, code: number, meaning: string) =>
  ({ reason, code, source: 'gateway', meaning }) as const;
const ours = (reason: string, code: number, meaning: string) =>
  ({ reason, code, source: 'sandbox', meaning }) as const;

const ERROR_CODE_LIST = [
  // Known from the gateway's public code (gateway-notes.md).
  gateway('VALIDATION', 1, "A parameter is missing or malformed (the SDK's tests: `1`)."),
  gateway('DECLINED', 5, "Declined by the issuer (the SDK's tests: a declined callback has `5`)."),
  // The request as HTTP.
  ours('ACCEPT_REQUIRED', 101, 'No `Accept: application/vnd.pay+json` (only with `SANDBOX_ACCEPT=strict`).'),
  ours('CONTENT_TYPE', 102, 'The body is not `application/x-www-form-urlencoded`.'),
  ours('BODY_INVALID', 103, 'The body or request line cannot be read.'),
  ours('BODY_TOO_LARGE', 104, 'The body is larger than the limit.'),
  ours('HOST_INVALID', 105, 'The `Host` header is missing or not a host name.'),
  ours('METHOD_NOT_ALLOWED', 106, 'An operation called with another method than POST.'),
  ours('UNKNOWN_OPERATION', 107, 'No operation at this path.'),
  ours('NOT_FOUND', 108, 'Nothing at this address.'),
  ours('ENDPOINT_INVALID', 109, 'The endpoint id in the path is not a whole number (or too large).'),
  ours('ENDPOINT_UNKNOWN', 110, 'The endpoint or group is not configured.'),
  ours('REQUEST_TIMEOUT', 111, 'Headers or body sent too slowly.'),
  ours('HEADERS_TOO_LARGE', 112, 'The request headers are too large.'),
  ours('BAD_REQUEST', 113, 'The request cannot be parsed as HTTP.'),
  ours('PATH_TRAVERSAL', 114, 'The path has encoded separators, dot segments or double encoding.'),
  ours('PATH_INVALID', 115, 'The path has an encoded NUL, a `;` parameter, an empty segment or bad bytes.'),
  // Signatures and who is calling.
  ours('INVALID_CONTROL_CODE', 201, 'A wrong or missing `control`.'),
  ours('LOGIN_MISMATCH', 202, '`login` is not the merchant that owns the endpoint.'),
  ours('INVALID_SIGNATURE', 203, 'A wrong OAuth signature.'),
  ours('OAUTH_HEADER', 204, 'The OAuth `Authorization` header is missing or malformed.'),
  ours('OAUTH_SIGNATURE_METHOD', 205, "`oauth_signature_method` is not the operation's."),
  ours('OAUTH_CONSUMER_KEY', 206, "`oauth_consumer_key` is not the endpoint owner's login."),
  ours('OAUTH_TIMESTAMP', 207, '`oauth_timestamp` outside the accepted clock skew.'),
  ours('OAUTH_NONCE_REUSED', 208, 'The `oauth_nonce` was used within the last 20 minutes.'),
  ours('FORBIDDEN', 209, 'A sandbox address that answers only this machine.'),
  // Who may call, in the console's and the classroom's servers (route access, proxy/guards.ts, classroom/http.ts).
  ours('ORIGIN_REQUIRED', 210, 'A call without the `Origin` of the console.'),
  ours('ORIGIN_NOT_ALLOWED', 211, 'A call from a page of another origin.'),
  ours('CLASSROOM_MODE', 212, 'Not available while the console serves a classroom.'),
  ours('JOIN_FIRST', 213, 'Classroom: join first.'),
  ours('TRAINER_ONLY', 214, "Classroom: the trainer's page."),
  ours('TRAINER_TOKEN', 215, "Classroom: the trainer's address is needed."),
  ours('NOT_YOUR_ENDPOINT', 216, "Classroom: another trainee's endpoint."),
  ours('NOT_YOUR_MERCHANT', 217, "Classroom: another trainee's merchant."),
  ours('NOT_YOUR_INBOX', 218, "Classroom: another trainee's callback inbox."),
  ours('SCENARIO_TRAINER_ONLY', 219, 'Classroom: `X-Sandbox-Scenario` from a trainee; the trainer chooses.'),
  // The state rules.
  ours('CLIENT_ORDERID_USED', 301, 'The `client_orderid` was used with other parameters.'),
  ours('ORDER_NOT_FOUND', 302, 'No such order.'),
  ours('ORDER_MISMATCH', 303, '`orderid` and `client_orderid` name different orders.'),
  ours('STATE', 304, 'The order is not in a state that allows the operation.'),
  ours('CALLBACK_URL_REFUSED', 305, '`server_callback_url` names a host the sandbox does not call.'),
  ours('CARD_REF_NOT_FOUND', 306, 'No such card reference.'),
  ours('THREE_DS_ORDER', 307, 'A 3-D Secure upload out of order.'),
  ours(
    'HOSTED_FIELDS_TOKEN',
    308,
    'A `hosted_fields_token` (or its ticket) unknown, expired or already used.',
  ),
  // Declines (a transaction's final status, in `status` and callbacks).
  ours('EXPIRED_CARD', 401, 'Declined: expired card.'),
  ours('INSUFFICIENT_FUNDS', 402, 'Declined: insufficient funds.'),
  ours('NOT_PERMITTED', 403, 'Declined: transaction not permitted to the cardholder.'),
  ours('STOLEN_CARD', 404, 'Declined: stolen card.'),
  ours('THREE_DS_FAILED', 405, 'Declined: 3-D Secure authentication failed.'),
  // The scenario lab's faults (sandbox/scenarios/, src/catalog/scenarios.ts).
  ours('PROCESSING_ERROR', 451, 'Final status `error` (scenario `final-error`).'),
  ours('FILTERED', 452, 'Final status `filtered` (scenario `final-filtered`).'),
  ours('SCENARIO_INVALID', 453, 'A bad `X-Sandbox-Scenario` header.'),
  ours('HELD_ANSWERS_LIMIT', 454, 'The client holds `SANDBOX_HELD_PER_CLIENT` delayed answers (429).'),
  // The sandbox itself.
  ours('INTERNAL', 500, 'A failure of the sandbox (a bug), or the sandbox is shutting down.'),
] as const satisfies readonly ErrorCodeEntry[];

/** Every refusal or decline reason the sandbox answers: a misspelt reason does not compile. */
export type ErrorReason = (typeof ERROR_CODE_LIST)[number]['reason'];

export const ERROR_CODES: readonly ErrorCodeEntry[] = ERROR_CODE_LIST;

/**
 * Numbers seen in the vendor's public code whose meaning is not published (its test emulator
 * answers `1`, `2`, `3`). The sandbox gives them to no reason of its own.
 */
export const UNASSIGNED_GATEWAY_CODES: readonly number[] = [2, 3];

/** The number of a reason the table does not know (an older database's row, say). */
export const UNLISTED_ERROR_CODE = 999;

const BY_REASON = new Map<string, ErrorCodeEntry>(ERROR_CODE_LIST.map((e) => [e.reason, e]));

/** The table's entry for a symbolic reason, or undefined. */
export function errorCodeEntry(reason: string): ErrorCodeEntry | undefined {
  return BY_REASON.get(reason);
}

/** The numeric `error-code` of a symbolic reason ({@link UNLISTED_ERROR_CODE} when unknown). */
export function numericErrorCode(reason: string): number {
  return BY_REASON.get(reason)?.code ?? UNLISTED_ERROR_CODE;
}

/** The docs' table (markdown), as sandbox/README.md prints it. */
export function renderErrorCodeTable(): string {
  const rows = ERROR_CODE_LIST.map(
    (e) =>
      [
        `\`${e.code}\``,
        `\`${e.reason}\``,
        e.source === 'gateway' ? 'the gateway' : 'this sandbox',
        e.meaning,
      ] as const,
  );
  const head = ['`error-code`', '`error-reason`', 'Number from', 'Meaning'] as const;
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
