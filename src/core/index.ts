/** The signing core: pure, framework-free, runs unchanged in browsers and Node 20. */
export * from './errors.ts';
export * from './brands.ts';
export * from './bytes.ts';
export * from './percent-encode.ts';
export * from './amount.ts';
export * from './crypto-port.ts';
export * from './nonce.ts';
export * from './control/control-terms.ts';
export * from './control/sign-control.ts';
export * from './control/callback-control.ts';
export * from './control/verify-callback.ts';
export * from './oauth/oauth-parameters.ts';
export * from './oauth/normalize-url.ts';
export * from './oauth/build-base-string.ts';
export * from './oauth/sign-oauth.ts';
export * from './oauth/authorization-header.ts';
export type { PemKind, PemBlock } from './keys/pem.ts';
export type {
  KeyInspection,
  ParsedKey,
  SigningKey,
  GeneratableBits,
  GeneratedKeyPair,
} from './keys/key-containers.ts';
export * from './request/operation-spec.ts';
export * from './request/build-request.ts';
export * from './request/render-request.ts';
export * from './verify/captured-request.ts';
// Key parsing (keys/pem.ts, keys/key-containers.ts: types only here) and
// verify/verify-signature.ts are imported by their own paths (the capture parsers live in src/capture): the console's first page loads this
// index, and a module re-exported here lands in its first load even when only a later page or the
// sandbox uses it (docs/performance.md, "First-load JavaScript").
