import { decodeFormBody, isPayError, matchOperationPath, type EndpointRef } from '../core/index.ts';
import { parseCapture, type CaptureFormat } from '../diagnose/index.ts';
import { findOperation, OPERATION_PATHS } from '../catalog/index.ts';
import type { FormPreset } from '../shared/contracts/contracts.ts';
import { ExportError } from './errors.ts';

/** A form preset read from a captured request, with what the import found out on the way. */
export interface ImportedPreset extends FormPreset {
  endpoint: EndpointRef;
  format: CaptureFormat;
  /** The base URL the capture went to (everything before `/api/`), e.g. `https://gate.example.com/paynet`. */
  baseUrl: string;
  /** Parameters left out: `control` and `oauth_*` are computed again when the form signs. */
  dropped: string[];
  notes: string[];
}

const OAUTH_PARAM = /^oauth_/;

/**
 * Opens a captured request (a curl command or raw HTTP, and the other formats `parseCapture`
 * reads) as a form preset: the operation from the path, the endpoint or endpoint group id from the
 * path, every body value (the operation's own fields as values, the rest as extras). `control` and
 * any `oauth_*` body parameter are left out: the form signs again.
 * @throws ExportError IMPORT_UNREADABLE when the text is no request, IMPORT_OPERATION when its path is
 *   no operation of the catalog.
 */
export function importCapture(text: string): ImportedPreset {
  let parsed: ReturnType<typeof parseCapture>;
  try {
    parsed = parseCapture(text);
  } catch (e) {
    if (isPayError(e)) throw new ExportError('IMPORT_UNREADABLE', e.message, { cause: e });
    throw e;
  }
  const { request } = parsed;
  let pathname: string;
  let origin: string;
  try {
    const u = new URL(request.url);
    pathname = u.pathname;
    origin = u.origin;
  } catch (cause) {
    throw new ExportError(
      'IMPORT_UNREADABLE',
      `The captured URL "${request.url.slice(0, 80)}" cannot be read: paste the whole request with its host.`,
      { cause },
    );
  }
  const match = matchOperationPath(pathname, OPERATION_PATHS);
  const op = match ? findOperation(match.path) : undefined;
  if (!match || !op) {
    throw new ExportError(
      'IMPORT_OPERATION',
      `The path ${pathname.slice(0, 120)} is not an operation of the catalog: expected …/api/<operation>/<endpointId> (or …/group/<endpointGroupId>), e.g. /paynet/api/v2/sale/1111.`,
    );
  }
  const known = new Set(op.fields.map((f) => f.name));
  const values: Record<string, string> = {};
  const extras: Array<{ name: string; value: string }> = [];
  const dropped: string[] = [];
  const notes = [...parsed.notes];
  for (const pair of decodeFormBody(request.body)) {
    if (pair.name === 'control' || OAUTH_PARAM.test(pair.name)) {
      dropped.push(pair.name);
      continue;
    }
    if (known.has(pair.name)) {
      if (Object.hasOwn(values, pair.name)) {
        notes.push(`${pair.name} appears more than once: the first value is kept.`);
        continue;
      }
      values[pair.name] = pair.value;
    } else extras.push(pair);
  }
  if (request.method.toUpperCase() !== 'POST')
    notes.push(`The capture is a ${request.method} request: every operation is sent as POST.`);
  if (dropped.length > 0) notes.push(`${dropped.join(', ')} left out: the form signs the request again.`);
  return {
    operationPath: op.path,
    values,
    ...(extras.length > 0 ? { extras } : {}),
    endpoint: match.endpoint,
    format: parsed.format,
    baseUrl: `${origin}${match.prefix}`,
    dropped,
    notes,
  };
}
