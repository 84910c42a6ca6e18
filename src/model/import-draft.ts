import { decodeFormBody } from '../core/index.ts';
import type { CapturedRequest } from '../core/verify/parse-raw-http.ts';
import { identifyCapture, isCaptureUnknown } from '../catalog/identify-capture.ts';
import { draftFromValues } from './draft-from-values.ts';
import { DraftError } from './errors.ts';
import type { Place } from './place.ts';
import type { RequestDraft, WithheldReason } from './request-draft.ts';

/** A draft read from a captured request, with what the import found out on the way. */
export interface ImportedDraft {
  draft: RequestDraft;
  /** The base URL the capture went to (everything before `/api/`), e.g. `https://gate.example.com/paynet`. */
  baseUrl: string;
  /** Parameters not kept as values: `control` and the `oauth_*` ones are computed again when signing. */
  dropped: string[];
  notes: string[];
}

export interface DraftFromCaptureOptions {
  /** Values equal to this place's login, return page or inbox become placeholders. */
  place?: Place;
  /**
   * The draft the capture is opened over: a capture cannot show an edited `control` formula, so the
   * formula of this draft is kept when it is the same operation.
   */
  base?: RequestDraft;
}

/** A card number as the console masks it (`444444******4448`): 12–19 digit positions, some starred. */
const MASKED_CARD = /(?<![\d*])\d(?:[ -]?[\d*]){11,18}(?![\d*])/g;
function looksMasked(value: string): boolean {
  for (const m of value.matchAll(MASKED_CARD)) if (m[0].includes('*')) return true;
  return false;
}

/**
 * Opens a captured request (parsed from curl, raw HTTP, HAR or a log line) as a draft: the
 * operation, endpoint and scheme as {@link identifyCapture} finds them, the body values (the
 * operation's fields as values, the rest as extras, through {@link draftFromValues}), and for
 * OAuth the captured nonce and timestamp PINNED, so that signing the draft again reproduces the
 * captured signature. A masked card number (as the console's own history and HAR exports write
 * it) is withheld: it must be filled in before a send.
 * @throws DraftError IMPORT_UNREADABLE for a URL that cannot be read, IMPORT_OPERATION for a path
 *   that is no operation of the catalog.
 */
export function draftFromCapture(
  request: CapturedRequest,
  options: DraftFromCaptureOptions = {},
): ImportedDraft {
  const body = decodeFormBody(request.body);
  const id = identifyCapture({ url: request.url, authorization: request.headers['authorization'], body });
  if (isCaptureUnknown(id)) {
    if (id.problem === 'url')
      throw new DraftError(
        'IMPORT_UNREADABLE',
        `The captured URL "${request.url.slice(0, 80)}" cannot be read: paste the whole request with its host.`,
      );
    throw new DraftError(
      'IMPORT_OPERATION',
      `The path ${id.pathname.slice(0, 120)} is not an operation of the catalog: expected …/api/<operation>/<endpointId> (or …/group/<endpointGroupId>), e.g. /paynet/api/v2/sale/1111.`,
    );
  }
  const op = id.operation;
  const notes: string[] = [];
  const dropped: string[] = [];
  if (id.authorizationProblem) notes.push(`The Authorization header is not read: ${id.authorizationProblem}`);
  const pairs: Array<{ name: string; value: string }> = [];
  const withheld: Record<string, WithheldReason> = {};
  const seen = new Set<string>();
  for (const pair of body) {
    if (pair.name === 'control' || pair.name.startsWith('oauth_')) {
      dropped.push(pair.name);
      continue;
    }
    if (op.fields.some((f) => f.name === pair.name) && seen.has(pair.name))
      notes.push(`${pair.name} appears more than once: the later values are kept as extra parameters.`);
    seen.add(pair.name);
    if (looksMasked(pair.value)) {
      notes.push(`${pair.name} is masked in the capture: fill it in before sending.`);
      withheld[pair.name] = 'card-number';
      pairs.push({ name: pair.name, value: '' });
    } else pairs.push(pair);
  }
  if (id.otherMethod !== undefined)
    notes.push(
      `oauth_signature_method ${id.otherMethod} is not one ${op.path} is signed with: its own scheme is kept.`,
    );
  const nonce = id.oauth.get('oauth_nonce');
  const timestamp = id.oauth.get('oauth_timestamp');
  const pinned =
    id.scheme !== 'control' && id.otherMethod === undefined && nonce !== undefined && timestamp !== undefined
      ? { nonce, timestamp }
      : undefined;
  if (pinned)
    notes.push(
      `oauth_nonce and oauth_timestamp are pinned to the capture's (${timestamp}), so the signature is reproduced; unpin them to send a fresh request.`,
    );
  if (request.method.toUpperCase() !== 'POST')
    notes.push(`The capture is a ${request.method} request: every operation is sent as POST.`);
  if (dropped.length > 0) notes.push(`${dropped.join(', ')} left out: the console signs the request again.`);
  const base = options.base?.operation === op.path ? options.base : undefined;
  const draft = draftFromValues(
    op,
    {
      values: pairs,
      scheme: id.scheme,
      formula: base?.formula,
      endpoint: id.endpoint,
      pinned,
      withheld,
      // A field the capture did not send was empty: the profile's login must not fill it in.
      complete: true,
    },
    options.place,
  );
  return { draft, baseUrl: id.baseUrl ?? '', dropped, notes };
}
