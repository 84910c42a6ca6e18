import {
  buildRequest,
  isPayError,
  secureNonceSource,
  webCryptoPort,
  type BuiltRequest,
  type ControlTerm,
  type InputParam,
  type Scheme,
} from '../../core/index.ts';
import type { Operation } from '../../catalog/index.ts';
import type { SigningContext } from '../../shared/contracts/contracts.ts';

export const cryptoPort = webCryptoPort();
export const nonceSource = secureNonceSource();
export const clock = () => Date.now();

export interface BuildArgs {
  op: Operation;
  scheme: Scheme;
  params: InputParam[];
  context: SigningContext;
  formulaOverride?: ControlTerm[];
  pinned?: { nonce?: string; timestamp?: string };
}

export type BuildResult = { ok: true; built: BuiltRequest } | { ok: false; code: string; message: string };

/** The one place the console builds a request: previews, sends and polls all come through here. */
export async function buildFor(a: BuildArgs): Promise<BuildResult> {
  try {
    const built = await buildRequest({
      operation: { path: a.op.path, scheme: a.scheme, ...(a.op.formula ? { formula: a.op.formula } : {}) },
      baseUrl: a.context.target.baseUrl,
      endpoint: a.context.endpoint,
      params: a.params,
      credentials: a.context.credentials,
      crypto: cryptoPort,
      clock,
      nonce: nonceSource,
      ...(a.pinned ? { pinned: a.pinned } : {}),
      ...(a.formulaOverride ? { formulaOverride: a.formulaOverride } : {}),
    });
    return { ok: true, built };
  } catch (e) {
    if (isPayError(e)) return { ok: false, code: e.code, message: e.message };
    return {
      ok: false,
      code: 'BUILD_FAILED',
      message: `The request could not be built: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/** The signature a built request carries, or null when it could not be signed. */
export function signatureOf(built: BuiltRequest): string | null {
  return built.signing.signature;
}
