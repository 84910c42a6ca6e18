import { isPayError, type BuiltRequest, type EndpointRef } from '../../../core/index.ts';
import {
  buildDraft,
  isDraftError,
  type BuildDraftOptions,
  type RequestDraft,
  type SigningEnv,
} from '../../../model/index.ts';
import type { AppliedVariables } from '../../../model/variables.ts';
import { errorText } from '../../../core/errors.ts';

export type BuildResult = { ok: true; built: BuiltRequest } | { ok: false; code: string; message: string };

/** The request the panes show, signed live as the form changes (the workbench session's). */
export interface LiveRequest {
  /** The build for the active profile; null before its first one lands. */
  result: BuildResult | null;
  /** The form pins its nonce and timestamp. */
  pinned: boolean;
  /** The `{{name}}` variables the request uses, and those nothing defines. */
  variables: Pick<AppliedVariables, 'uses' | 'unresolved'>;
}

/** The model's one build, with its errors turned into a result the panes can show. */
export async function tryBuild(
  draft: RequestDraft,
  env: SigningEnv,
  options?: BuildDraftOptions,
): Promise<BuildResult> {
  try {
    return { ok: true, built: await buildDraft(draft, env, options) };
  } catch (e) {
    if (isPayError(e) || isDraftError(e)) return { ok: false, code: e.code, message: e.message };
    return {
      ok: false,
      code: 'BUILD_FAILED',
      message: `The request could not be built: ${errorText(e)}`,
    };
  }
}

/** A send refused for the profile's endpoint id: the profile bar says what is wrong, beside the field. */
export function endpointRefusal(endpoint: EndpointRef): string {
  return `Not sent: the profile's ${endpoint.kind === 'group' ? 'endpoint group id' : 'endpoint id'} needs fixing (see the profile bar).`;
}
