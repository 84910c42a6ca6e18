import { isPayError, type BuiltRequest, type EndpointRef } from '../../../core/index.ts';
import {
  buildDraft,
  isDraftError,
  type BuildDraftOptions,
  type RequestDraft,
  type SigningEnv,
} from '../../../model/index.ts';
import { errorText } from '../../../core/errors.ts';

export type BuildResult = { ok: true; built: BuiltRequest } | { ok: false; code: string; message: string };

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
