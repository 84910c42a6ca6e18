import type { BaseString } from '../brands.ts';
import { percentEncode } from '../percent-encode.ts';

export interface BaseStringParts {
  method: string;
  encodedUrl: string;
  encodedParameters: string;
  baseString: BaseString;
}

/**
 * Step 4 of schemes O1/O2: `METHOD&enc(url)&enc(parameter string)`, each part percent-encoded,
 * the inner `&` and `=` included.
 * @see api-description.md, Authentication, Scheme O1 step 2 and Scheme O2 step 5.
 */
export function buildBaseString(
  method: string,
  normalizedUrl: string,
  parameterString: string,
): BaseStringParts {
  const m = method.toUpperCase();
  const encodedUrl = percentEncode(normalizedUrl);
  const encodedParameters = percentEncode(parameterString);
  return {
    method: m,
    encodedUrl,
    encodedParameters,
    baseString: `${m}&${encodedUrl}&${encodedParameters}` as BaseString,
  };
}
