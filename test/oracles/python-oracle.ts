/**
 * Runs test/oracles/pay-oracle.py (python3 standard library only) on a batch of cases in ONE
 * process and returns its answers in the same order. The oracle shares no code with src/core.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./pay-oracle.py', import.meta.url));

export interface OracleParam {
  name: string;
  value: string;
  keepEmpty?: boolean;
}

export type OracleFormulaTerm =
  { kind: 'login' } | { kind: 'endpointId' } | { kind: 'field'; name: string; minorUnits?: boolean };

export interface RequestCase {
  kind: 'request';
  scheme: 'control' | 'oauth-hmac-sha1' | 'oauth-rsa-sha256';
  baseUrl: string;
  path: string;
  endpoint: { kind: 'endpoint' | 'group'; id: string };
  params: OracleParam[];
  login: string;
  controlKey?: string;
  formula?: readonly OracleFormulaTerm[];
  nonce?: string;
  timestamp?: string;
}

export interface OAuthAnswer {
  normalizedUrl: string;
  parameterString: string;
  encodedUrl: string;
  encodedParameters: string;
  baseString: string;
  /** HMAC-SHA1 only; null for RSA-SHA256 (signed with Node's crypto / openssl instead). */
  signature: string | null;
}

export interface RequestAnswer {
  url: string;
  body: Array<[string, string]>;
  bodyText: string;
  control?: { terms: string[]; joined: string; signature: string };
  oauth?: OAuthAnswer;
}

export type OracleCase =
  | { kind: 'encode'; value: string }
  | { kind: 'amount'; text: string }
  | { kind: 'normalize-url'; url: string }
  | { kind: 'sha1'; text: string }
  | { kind: 'form-plus'; pairs: Array<[string, string]> }
  | {
      kind: 'oauth-raw';
      method: string;
      url: string;
      form?: string;
      oauth: Array<[string, string]>;
      consumerSecret?: string;
      tokenSecret?: string;
    }
  | RequestCase;

export type OracleAnswer<C extends OracleCase> = C extends { kind: 'encode' }
  ? { encoded: string }
  : C extends { kind: 'amount' }
    ? { ok: true; minor: string } | { ok: false; error: 'empty' | 'negative' | 'invalid' }
    : C extends { kind: 'normalize-url' }
      ? { normalized: string }
      : C extends { kind: 'sha1' }
        ? { hex: string }
        : C extends { kind: 'form-plus' }
          ? { body: string }
          : C extends { kind: 'oauth-raw' }
            ? Omit<OAuthAnswer, 'signature'> & { signingKey?: string; signature?: string }
            : RequestAnswer;

/** Sends every case to one python3 process; throws with the oracle's own message if a case fails there. */
export function runPythonOracle<C extends OracleCase>(cases: readonly C[]): Array<OracleAnswer<C>> {
  const res = spawnSync('python3', [SCRIPT], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (res.error)
    throw new Error(
      `python3 could not be started (${res.error.message}): install python3 to run the oracle.`,
    );
  if (res.status !== 0) throw new Error(`The python oracle failed (exit ${res.status}): ${res.stderr}`);
  const out = JSON.parse(res.stdout) as Array<OracleAnswer<C> & { oracleError?: string }>;
  if (out.length !== cases.length)
    throw new Error(`The python oracle answered ${out.length} of ${cases.length} cases.`);
  const failed = out.find((r) => r.oracleError !== undefined);
  if (failed) throw new Error(`The python oracle rejected a case: ${failed.oracleError}`);
  return out;
}
