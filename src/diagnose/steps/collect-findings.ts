import type { EndpointRef, Scheme } from '../../core/request/operation-spec.ts';
import type { CapturedRequest } from '../../capture/parse-raw-http.ts';
import type { DiagnoseInput } from '../diagnosis-types.ts';
import type { ResolvedKeys } from './resolve-keys.ts';
import { structuralChecks, type DiagnoseOperation, type Finding } from '../structural-checks.ts';

const DEFAULT_MAX_SKEW_SECONDS = 600;

/**
 * Step 4: every finding that needs no secret (the capture's shape, timestamp, method, fields), the
 * key pair check and the pasted key's container problems.
 */
export function collectFindings(args: {
  input: DiagnoseInput;
  capture: CapturedRequest;
  operation: DiagnoseOperation;
  scheme: Scheme;
  endpoint: EndpointRef;
  body: ReadonlyArray<{ name: string; value: string }>;
  login: string | undefined;
  keys: ResolvedKeys;
}): Finding[] {
  const { input, keys } = args;
  const publicKey = keys.secrets.publicKey;
  const rsaBits = publicKey ? (publicKey.algorithm as RsaHashedKeyAlgorithm).modulusLength : undefined;
  return [
    ...structuralChecks({
      capture: args.capture,
      operation: args.operation,
      scheme: args.scheme,
      endpoint: args.endpoint,
      body: args.body,
      ...(args.login !== undefined ? { login: args.login } : {}),
      ...(input.controlKey !== undefined ? { controlKey: input.controlKey } : {}),
      ...(input.now !== undefined ? { now: input.now } : {}),
      maxSkewSeconds: input.maxSkewSeconds ?? DEFAULT_MAX_SKEW_SECONDS,
      headersComplete: input.headersComplete ?? true,
      ...(rsaBits !== undefined ? { rsaModulusBits: rsaBits } : {}),
    }),
    ...keys.keyFindings,
    ...(keys.keyInspection?.problems ?? []).map((p): Finding => ({
      id: p.id,
      severity: p.severity,
      message: p.message,
      ...(p.containerConfusion ? { mistakeId: 'pkcs1-pkcs8-confusion' as const } : {}),
      subject: 'private key',
    })),
  ];
}
