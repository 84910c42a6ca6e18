import { buildAuthorizationHeader } from '../core/oauth/authorization-header.ts';
import { encodeFormBody } from '../core/percent-encode.ts';
import type { BuiltRequest, Credentials } from '../core/request/build-request.ts';
import type { CryptoPort } from '../core/crypto-port.ts';
import type { EndpointRef } from '../core/request/operation-spec.ts';
import { renderRawHttp } from '../core/request/render-request.ts';
import { mistakeById, type MistakeContext, type MistakeId, type WireChange } from './mistakes.ts';
import {
  controlRecipeOf,
  oauthRecipeOf,
  recipeSigningInput,
  signRecipe,
  type RecipeSecrets,
  type SigningRecipe,
} from './recipe.ts';

/** The key "sign with the wrong key" uses for control and HMAC-SHA1 when none is given: plainly not the merchant's. */
export const OTHER_MERCHANT_CONTROL_KEY = 'OTHER-MERCHANT-0000-CONTROL-KEY';

export interface TeachInput {
  /** The request as it is correctly built (the request model's `buildDraft`): what the mistakes change. */
  correct: BuiltRequest;
  /** The endpoint it was built for (its id or group id is in the formula). */
  endpoint: EndpointRef;
  credentials: Credentials;
  crypto: CryptoPort;
  /** The mistakes to inject, applied in the order given. Empty: the correct signing, unchanged. */
  mistakes: readonly MistakeId[];
  /** The key "sign with the wrong key" signs with (RSA needs a private key here). */
  wrongKey?: { controlKey?: string; privateKey?: CryptoKey };
  /** The merchant's endpoint id and group id, for "sign with the other id" on control operations. */
  knownIds?: { endpointId?: string; endpointGroupId?: string };
}

export interface TaughtSigning {
  /** The signing input (control key masked; a base string as it is). */
  signingInput: string;
  signature: string | null;
  request: BuiltRequest;
  /** The request as raw HTTP/1.1 (CRLF), ready to send to the local sandbox. */
  rawHttp: string;
}

export interface TeachResult {
  correct: TaughtSigning;
  /**
   * The request as a signer making the mistakes would send it: its signature (and, for a mistake
   * that shows on the wire, its URL or body) changed. `request.signing` still describes the correct
   * computation; the mistaken one is `signingInput`.
   */
  mistaken: TaughtSigning;
  applied: Array<{ mistakeId: MistakeId; title: string; detail: string }>;
  /** Mistakes that do not apply to this request, and why (e.g. no value holds a space). */
  notApplied: Array<{ mistakeId: MistakeId; title: string; reason: string }>;
  signatureChanged: boolean;
}

/**
 * The teaching mode: takes the correctly built request, then injects one mistake at a time (the
 * catalogue's own transformations, the ones the debugger replays) and signs again, so the user
 * sees how the signing input and the signature change, and can send the mistaken request to the
 * local sandbox to see it refused. With no mistakes the result is the built request itself.
 */
export async function teach(input: TeachInput): Promise<TeachResult> {
  const { correct } = input;
  const signing = correct.signing;
  const scheme = signing.scheme;
  let recipe: SigningRecipe =
    signing.scheme === 'control' ? controlRecipeOf(signing) : oauthRecipeOf(signing, signing.scheme);
  const correctRecipe = recipe;
  const wrongControlKey =
    input.wrongKey?.controlKey ??
    (input.credentials.controlKey === OTHER_MERCHANT_CONTROL_KEY
      ? `${OTHER_MERCHANT_CONTROL_KEY}-2`
      : OTHER_MERCHANT_CONTROL_KEY);
  const secrets: RecipeSecrets = {
    login: input.credentials.login,
    ...(input.credentials.controlKey !== undefined ? { controlKey: input.credentials.controlKey } : {}),
    ...(input.credentials.privateKey ? { privateKey: input.credentials.privateKey } : {}),
    wrong: {
      controlKey: wrongControlKey,
      ...(input.wrongKey?.privateKey ? { privateKey: input.wrongKey.privateKey } : {}),
    },
  };
  const ctx: MistakeContext = {
    mode: 'teach',
    body: correct.body.filter((p) => p.name !== 'control'),
    endpoint: input.endpoint,
    ...(input.knownIds ? { knownIds: input.knownIds } : {}),
    alternatives: [],
    login: input.credentials.login,
    hasWrongKey: scheme === 'oauth-rsa-sha256' ? input.wrongKey?.privateKey !== undefined : true,
  };
  const applied: TeachResult['applied'] = [];
  const notApplied: TeachResult['notApplied'] = [];
  const wire: WireChange = {};
  for (const id of input.mistakes) {
    const m = mistakeById(id);
    const r = m.transform ? m.transform(recipe, ctx) : 'the teaching mode cannot inject it into a signature';
    if (typeof r === 'string' || r.length === 0) {
      notApplied.push({
        mistakeId: id,
        title: m.title,
        reason: typeof r === 'string' ? r : 'no effect on this request',
      });
      continue;
    }
    const v = r[0]!;
    recipe = v.recipe;
    Object.assign(wire, v.wire ?? {});
    applied.push({ mistakeId: id, title: m.title, detail: v.detail });
  }
  const signature = await signRecipe(recipe, secrets, input.crypto);
  const mistakenRequest = withSignature(correct, recipe, signature, wire);
  return {
    correct: {
      signingInput: recipeSigningInput(correctRecipe),
      signature: signing.signature,
      request: correct,
      rawHttp: renderRawHttp(correct),
    },
    mistaken: {
      signingInput: recipeSigningInput(recipe),
      signature,
      request: mistakenRequest,
      rawHttp: renderRawHttp(mistakenRequest),
    },
    applied,
    notApplied,
    signatureChanged: signature !== signing.signature,
  };
}

function withSignature(
  correct: BuiltRequest,
  recipe: SigningRecipe,
  signature: string | null,
  wire: WireChange,
): BuiltRequest {
  let url = correct.url;
  // The default port written out: WHATWG URL would drop it again, so the text is kept as it is.
  if (wire.url) url = `${wire.url}${new URL(correct.url).search}`;
  if (recipe.scheme === 'control') {
    const body = correct.body.map((p) => (p.name === 'control' ? { ...p, value: signature ?? '' } : p));
    const text = encodeFormBody(body);
    return { ...correct, url, body, bodyText: wire.plusForSpace ? text.replace(/%20/g, '+') : text };
  }
  const protocol = recipe.params.filter((p) => p.source === 'oauth' && p.name !== 'oauth_signature');
  const headers = correct.headers.filter((h) => h.name !== 'Authorization');
  if (signature !== null) {
    headers.push({
      name: 'Authorization',
      value: buildAuthorizationHeader([...protocol, { name: 'oauth_signature', value: signature }]),
      source: 'computed',
    });
  }
  return {
    ...correct,
    url,
    headers,
    bodyText: wire.plusForSpace ? correct.bodyText.replace(/%20/g, '+') : correct.bodyText,
  };
}
