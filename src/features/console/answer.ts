import {
  errorCodeLabel,
  parseResponse,
  RESPONSE_SCHEMAS,
  type Operation,
  type ResponseSchemaName,
} from '../../catalog/index.ts';

export type BadgeKind =
  | 'approved'
  | 'declined'
  | 'filtered'
  | 'processing'
  | 'unknown'
  | 'error'
  | 'validation-error'
  | 'forbidden'
  | 'redirect'
  | 'created'
  | 'ok'
  | 'unparsed';

export interface Interpreted {
  json: unknown;
  isJson: boolean;
  /** Pretty-printed JSON, or the body as it came. */
  pretty: string;
  schema: ResponseSchemaName;
  schemaOk: boolean;
  schemaIssues: string[];
  badge: { kind: BadgeKind; label: string };
  errorMessage?: string;
  errorCode?: string;
  /** Addresses to open in a new tab: a hosted form (`redirect-url`) or a 3DS step (`redirect-to`). */
  links: Array<{ label: string; url: string }>;
  status?: string;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function statusBadge(status: string): BadgeKind {
  if (
    status === 'approved' ||
    status === 'declined' ||
    status === 'filtered' ||
    status === 'processing' ||
    status === 'unknown' ||
    status === 'error'
  )
    return status;
  if (status === 'chain_declined') return 'declined';
  return 'unknown';
}

/** Parses a gateway answer with the catalog's response schema and picks out what the UI shows. */
export function interpretAnswer(
  op: Pick<Operation, 'response'>,
  httpStatus: number,
  body: string,
): Interpreted {
  let json: unknown;
  let isJson = false;
  try {
    json = JSON.parse(body);
    isJson = true;
  } catch {
    json = undefined;
  }
  const pretty = isJson ? JSON.stringify(json, null, 2) : body;
  // A refusal other than 400 (the sandbox's and gateway's 403) carries an `error` body.
  const refusedWithError =
    httpStatus > 400 &&
    httpStatus < 500 &&
    json !== null &&
    typeof json === 'object' &&
    (json as { type?: unknown }).type === 'error';
  const { schema, result } = refusedWithError
    ? { schema: 'ServerErrorResponse' as const, result: RESPONSE_SCHEMAS.ServerErrorResponse.safeParse(json) }
    : parseResponse(op.response, httpStatus, json);
  const obj = isJson && json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const errorMessage = text(obj['error-message']);
  const errorCode = errorCodeLabel(obj);
  const status = text(obj.status);
  const links: Interpreted['links'] = [];
  const redirectUrl = text(obj['redirect-url']);
  const redirectTo = text(obj['redirect-to']);
  if (redirectUrl && /^https?:\/\//i.test(redirectUrl))
    links.push({ label: 'Open the hosted form', url: redirectUrl });
  if (redirectTo && /^https?:\/\//i.test(redirectTo))
    links.push({ label: 'Open the 3-D Secure page', url: redirectTo });

  let kind: BadgeKind;
  let label: string;
  if (httpStatus === 403) [kind, label] = ['forbidden', 'forbidden'];
  else if (!isJson) [kind, label] = ['unparsed', `HTTP ${httpStatus}: not JSON`];
  else if (obj.type === 'validation-error' || httpStatus === 400)
    [kind, label] = ['validation-error', 'validation error'];
  else if (obj.type === 'error' || httpStatus >= 500) [kind, label] = ['error', 'error'];
  else if (!result.success) [kind, label] = ['unparsed', `not a ${schema}`];
  else if (status) [kind, label] = [statusBadge(status), status];
  else if (obj.type === 'async-form-response') [kind, label] = ['redirect', 'redirect'];
  else if (obj.type === 'create-card-ref-response') [kind, label] = ['created', 'card reference created'];
  else if (obj.type === 'async-response') [kind, label] = ['processing', 'accepted: processing'];
  else [kind, label] = ['ok', String(obj.type ?? 'ok')];

  return {
    json,
    isJson,
    pretty,
    schema,
    schemaOk: result.success,
    schemaIssues: result.success
      ? []
      : result.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`),
    badge: { kind, label },
    ...(errorMessage ? { errorMessage } : {}),
    ...(errorCode ? { errorCode } : {}),
    links,
    ...(status ? { status } : {}),
  };
}
