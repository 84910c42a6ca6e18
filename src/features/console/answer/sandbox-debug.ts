/** The sandbox's `debug` answer and the signature-refusal rule live in the catalog (one schema for both sides). */
export {
  ControlDebugSchema,
  OAuthDebugSchema,
  isSignatureRefusal,
  readSandboxDebug,
  type SandboxDebug,
} from '../../../catalog/sandbox-debug.ts';
