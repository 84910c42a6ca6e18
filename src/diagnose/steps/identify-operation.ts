import { PayError } from '../../core/errors.ts';
import { decodeFormBody } from '../../core/percent-encode.ts';
import type { EndpointRef, Scheme } from '../../core/request/operation-spec.ts';
import { identifyCapture, isCaptureUnknown } from '../../capture/identify-capture.ts';
import type { DiagnoseInput } from '../diagnosis-types.ts';
import type { DiagnoseOperation } from '../structural-checks.ts';

export interface IdentifiedOperation {
  /** The operation, with the scheme the capture was signed with among those it allows. */
  operation: DiagnoseOperation;
  scheme: Scheme;
  endpoint: EndpointRef;
  /** The body pairs, decoded, in order. */
  body: Array<{ name: string; value: string }>;
  /** The merchant login: given, else the body's `login`, else the header's oauth_consumer_key. */
  login: string | undefined;
}

/**
 * Step 1: which operation, endpoint and scheme the capture is, from what is given or from its path
 * and its Authorization header (the catalog's one identification, `identifyCapture`).
 * @throws PayError HTTP_PARSE when the URL is not absolute, OPERATION_UNKNOWN when no operation fits.
 */
export function identifyOperation(input: DiagnoseInput): IdentifiedOperation {
  const { capture } = input;
  const body = decodeFormBody(capture.body);
  const id = identifyCapture<DiagnoseOperation>(
    { url: capture.url, authorization: capture.headers.authorization, body },
    {
      ...(input.operation ? { operation: input.operation } : {}),
      ...(input.endpoint ? { endpoint: input.endpoint } : {}),
    },
  );
  if (isCaptureUnknown(id)) {
    if (id.problem === 'url')
      throw new PayError(
        'HTTP_PARSE',
        `The captured URL "${capture.url.slice(0, 80)}" is not an absolute address.`,
      );
    throw new PayError(
      'OPERATION_UNKNOWN',
      `The path "${id.pathname}" names no known operation: expected …/api/<operation>/<endpoint id>, e.g. /paynet/api/v2/sale/1111.`,
    );
  }
  const { scheme, endpoint } = id;
  const login = input.login ?? body.find((p) => p.name === 'login')?.value ?? id.consumerKey;
  return { operation: { ...id.operation, scheme }, scheme, endpoint, body, login };
}
