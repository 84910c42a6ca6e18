import {
  decodeFormBody,
  isPayError,
  matchOperationPath,
  parseAuthorizationHeader,
  type CapturedRequest,
  type Scheme,
} from '../core/index.ts';
import { findOperation, OPERATION_PATHS } from '../catalog/index.ts';
import { formulaEditable, schemesOf } from './draft-params.ts';
import { DraftError } from './errors.ts';
import { placeholderFor, type Place } from './place.ts';
import { DRAFT_VERSION, type DraftValue, type RequestDraft } from './request-draft.ts';

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

const SIGNATURE_METHODS: Record<string, Scheme> = {
  'HMAC-SHA1': 'oauth-hmac-sha1',
  'RSA-SHA256': 'oauth-rsa-sha256',
};

/**
 * Opens a captured request (parsed from curl, raw HTTP, HAR or a log line) as a draft: the
 * operation and endpoint from the path, the body values (the operation's fields as values, the
 * rest as extras), and for OAuth the signature method as the scheme and the captured nonce and
 * timestamp PINNED, so that signing the draft again reproduces the captured signature. A masked
 * card number (as the console's own history and HAR exports write it) is withheld: it must be
 * filled in before a send.
 * @throws DraftError IMPORT_UNREADABLE for a URL that cannot be read, IMPORT_OPERATION for a path
 *   that is no operation of the catalog.
 */
export function draftFromCapture(
  request: CapturedRequest,
  options: DraftFromCaptureOptions = {},
): ImportedDraft {
  let u: URL;
  try {
    u = new URL(request.url);
  } catch (cause) {
    throw new DraftError(
      'IMPORT_UNREADABLE',
      `The captured URL "${request.url.slice(0, 80)}" cannot be read: paste the whole request with its host.`,
      { cause },
    );
  }
  const match = matchOperationPath(u.pathname, OPERATION_PATHS);
  const op = match ? findOperation(match.path) : undefined;
  if (!match || !op) {
    throw new DraftError(
      'IMPORT_OPERATION',
      `The path ${u.pathname.slice(0, 120)} is not an operation of the catalog: expected …/api/<operation>/<endpointId> (or …/group/<endpointGroupId>), e.g. /paynet/api/v2/sale/1111.`,
    );
  }
  const notes: string[] = [];
  const dropped: string[] = [];
  const known = new Set(op.fields.map((f) => f.name));
  const value = (name: string, v: string): DraftValue => {
    if (looksMasked(v)) {
      notes.push(`${name} is masked in the capture: fill it in before sending.`);
      return { withheld: 'card-number' };
    }
    return options.place ? placeholderFor(op, name, v, options.place) : v;
  };
  const values: Record<string, DraftValue> = {};
  const extras: RequestDraft['extras'] = [];
  const oauth = new Map<string, string>();
  // The Authorization header first: that is where the console and the gateway put oauth_*.
  const auth = request.headers['authorization'];
  if (auth !== undefined) {
    try {
      for (const p of parseAuthorizationHeader(auth)) if (!oauth.has(p.name)) oauth.set(p.name, p.value);
    } catch (e) {
      if (!isPayError(e)) throw e;
      notes.push(`The Authorization header is not read: ${e.message}`);
    }
  }
  for (const pair of decodeFormBody(request.body)) {
    if (pair.name === 'control') {
      dropped.push(pair.name);
      continue;
    }
    if (pair.name.startsWith('oauth_')) {
      if (!oauth.has(pair.name)) oauth.set(pair.name, pair.value);
      dropped.push(pair.name);
      continue;
    }
    if (known.has(pair.name)) {
      if (Object.hasOwn(values, pair.name)) {
        notes.push(`${pair.name} appears more than once: the first value is kept.`);
        continue;
      }
      values[pair.name] = value(pair.name, pair.value);
    } else extras.push({ name: pair.name, value: value(pair.name, pair.value) });
  }
  let scheme: Scheme | undefined;
  const method = oauth.get('oauth_signature_method');
  if (method !== undefined) {
    const s = SIGNATURE_METHODS[method.toUpperCase()];
    if (s && schemesOf(op).includes(s)) scheme = s;
    else
      notes.push(
        `oauth_signature_method ${method} is not one ${op.path} is signed with: its own scheme is kept.`,
      );
  } else if (dropped.includes('control') && schemesOf(op).includes('control')) scheme = 'control';
  const nonce = oauth.get('oauth_nonce');
  const timestamp = oauth.get('oauth_timestamp');
  const pinned =
    scheme !== undefined && scheme !== 'control' && nonce !== undefined && timestamp !== undefined
      ? { nonce, timestamp }
      : undefined;
  if (pinned)
    notes.push(
      `oauth_nonce and oauth_timestamp are pinned to the capture's (${timestamp}), so the signature is reproduced; unpin them to send a fresh request.`,
    );
  if (request.method.toUpperCase() !== 'POST')
    notes.push(`The capture is a ${request.method} request: every operation is sent as POST.`);
  if (dropped.length > 0) notes.push(`${dropped.join(', ')} left out: the console signs the request again.`);
  // A field the capture did not send was empty: the profile's login must not fill it in.
  for (const f of op.fields) if (!Object.hasOwn(values, f.name)) values[f.name] = '';
  const base = options.base?.operation === op.path ? options.base : undefined;
  return {
    draft: {
      v: DRAFT_VERSION,
      operation: op.path,
      ...(scheme && scheme !== op.scheme ? { scheme } : {}),
      ...(base?.formula && formulaEditable(op) ? { formula: base.formula } : {}),
      values,
      extras,
      endpoint: match.endpoint,
      ...(pinned ? { pinned } : {}),
    },
    baseUrl: `${u.origin}${match.prefix}`,
    dropped,
    notes,
  };
}
