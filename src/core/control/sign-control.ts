import type { CryptoPort } from '../crypto-port.ts';
import { PayError } from '../errors.ts';
import {
  joinControlTerms,
  resolveControlTerms,
  type ControlContext,
  type ControlTerm,
  type ResolvedTerm,
} from './control-terms.ts';

/** Placeholder shown where the control key sits in the signing input; the key itself is never kept. */
export const CONTROL_KEY_MASK = '<merchant_control_key>';

export interface ControlTrace {
  scheme: 'control';
  terms: ResolvedTerm[];
  /** The concatenation of the terms, without the key. */
  joined: string;
  /** The signing input as it may be displayed: the terms followed by {@link CONTROL_KEY_MASK}. */
  maskedInput: string;
  /** Lowercase hex SHA-1, or null when the request could not be signed (see `problems`). */
  signature: string | null;
  problems: PayError[];
}

/**
 * Step 3 of scheme C: SHA-1 over the concatenation followed by the merchant control key,
 * as lowercase hex (gateway-notes.md: 40 lowercase hex characters).
 * @see api-description.md, Authentication, Scheme C step 2.
 */
export async function computeControl(
  joined: string,
  controlKey: string,
  crypto: CryptoPort,
): Promise<string> {
  return crypto.sha1Hex(joined + controlKey);
}

/** Scheme C from formula to signature, keeping every intermediate value for display. */
export async function signControl(
  formula: readonly ControlTerm[],
  ctx: ControlContext,
  controlKey: string | undefined,
  crypto: CryptoPort,
): Promise<ControlTrace> {
  const terms = resolveControlTerms(formula, ctx);
  const joined = joinControlTerms(terms);
  const problems = terms.flatMap((t) => (t.error ? [t.error] : []));
  if (formula.some((t) => t.kind === 'login') && ctx.login === '') {
    problems.push(
      new PayError('LOGIN_MISSING', 'The formula signs the merchant login: enter it in the profile.', {
        field: 'login',
      }),
    );
  }
  if (!controlKey) {
    problems.push(
      new PayError(
        'CONTROL_KEY_MISSING',
        'No merchant control key: enter it in the profile to compute `control`.',
        {
          field: 'controlKey',
        },
      ),
    );
  }
  const blocking = problems.some((p) => p.code !== 'LOGIN_MISSING');
  const signature = controlKey && !blocking ? await computeControl(joined, controlKey, crypto) : null;
  return { scheme: 'control', terms, joined, maskedInput: joined + CONTROL_KEY_MASK, signature, problems };
}
