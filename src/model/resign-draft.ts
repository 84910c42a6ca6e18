import { renderCurl, type BuiltRequest } from '../core/index.ts';
import { buildDraft, type SigningEnv } from './build-draft.ts';
import { missingValues } from './missing-values.ts';
import { isWithheld, type DraftValue, type RequestDraft } from './request-draft.ts';

// Imported by path (history loads it), not from the model's index.

/** The text a withheld value is written as in a re-signed request: it must be filled in. */
export function fillInPlaceholder(name: string): string {
  return `FILL-IN-${name}`;
}

export interface ResignedRequest {
  built: BuiltRequest;
  curl: string;
  /** The values written as {@link fillInPlaceholder}: fill them in, then sign again (the signature covers them). */
  placeholders: string[];
}

/**
 * A kept request signed again for a replay: a fresh nonce and timestamp (the pinned ones are
 * dropped: the gateway refuses a used nonce), the profile's credentials, and every value the
 * request was kept without written as a placeholder that must be filled in.
 */
export async function resignDraft(draft: RequestDraft, env: SigningEnv): Promise<ResignedRequest> {
  const placeholders = [...new Set(missingValues(draft).map((m) => m.name))];
  const fill = (name: string, v: DraftValue): DraftValue => (isWithheld(v) ? fillInPlaceholder(name) : v);
  const { pinned: _used, ...rest } = draft;
  const fresh: RequestDraft = {
    ...rest,
    values: Object.fromEntries(Object.entries(draft.values).map(([k, v]) => [k, fill(k, v)])),
    extras: draft.extras.map((e) => ({ name: e.name, value: fill(e.name, e.value) })),
  };
  const built = await buildDraft(fresh, env);
  return { built, curl: renderCurl(built), placeholders };
}
