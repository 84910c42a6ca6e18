/**
 * The debugger against the corpus (test/corpus/cases, written by test/corpus/make-corpus.mjs with
 * its own signer): every broken capture gets its cause named first, `confirmed` where the secret
 * proves it; correct captures get `ok`; without the secret every capture gets `cannot-check` and
 * its structural findings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { webCryptoPort } from '../../src/core/index.ts';
import { importVerifyingKey } from '../../src/core/keys/key-containers.ts';
import {
  diagnose,
  type AlternativeKey,
  type Diagnosis,
  type KeyConsumer,
  type MistakeId,
} from '../../src/diagnose/index.ts';
import { parseCapture, type CaptureFormat } from '../../src/capture/index.ts';

const CORPUS = resolve(import.meta.dirname, '../corpus');
const crypto = webCryptoPort();

interface Sidecar {
  id: string;
  title: string;
  capture: string;
  format: CaptureFormat;
  operation: string;
  secrets: {
    login?: string;
    controlKey?: string;
    publicKeyFile?: string;
    privateKeyFile?: string;
    keyConsumer?: KeyConsumer;
    alternativeKeys?: Array<{ label: string; controlKey?: string }>;
    knownIds?: { endpointId?: string; endpointGroupId?: string; clientOrderIds?: string[] };
  };
  now?: number;
  urlSchemeKnown?: boolean;
  expected: {
    verdict: Diagnosis['verdict'];
    cause?: MistakeId;
    confidence?: 'confirmed' | 'possible';
    /** Words the first cause's evidence must hold (what exactly was reproduced). */
    evidence?: string;
  };
  /** `noFindings`: a mistake only the key can show (the terms' order): no structural finding may name anything. */
  withoutSecret?: { cause?: MistakeId; noFindings?: boolean };
}

const cases: Sidecar[] = readdirSync(join(CORPUS, 'cases'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(CORPUS, 'cases', f), 'utf8')) as Sidecar);

async function run(c: Sidecar, withSecrets: boolean): Promise<Diagnosis> {
  const parsed = parseCapture(readFileSync(join(CORPUS, 'cases', c.capture), 'utf8'));
  expect(parsed.format).toBe(c.format);
  const s = c.secrets;
  const publicKey =
    withSecrets && s.publicKeyFile
      ? (await importVerifyingKey(readFileSync(join(CORPUS, s.publicKeyFile), 'utf8'), crypto)).key
      : undefined;
  const alternativeKeys: AlternativeKey[] = s.alternativeKeys ?? [];
  return diagnose({
    capture: parsed.request,
    crypto,
    headersComplete: parsed.headersComplete,
    urlSchemeKnown: c.urlSchemeKnown ?? parsed.schemeKnown,
    ...(s.login ? { login: s.login } : {}),
    ...(c.now !== undefined ? { now: c.now } : {}),
    ...(withSecrets
      ? {
          ...(s.controlKey ? { controlKey: s.controlKey } : {}),
          ...(publicKey ? { publicKey } : {}),
          ...(s.privateKeyFile
            ? { privateKeyText: readFileSync(join(CORPUS, s.privateKeyFile), 'utf8') }
            : {}),
          ...(s.keyConsumer ? { keyConsumer: s.keyConsumer } : {}),
          ...(alternativeKeys.length > 0 ? { alternativeKeys } : {}),
          ...(s.knownIds ? { knownIds: s.knownIds } : {}),
        }
      : {}),
  });
}

function summary(d: Diagnosis): string {
  return JSON.stringify(
    {
      verdict: d.verdict,
      causes: d.likelyCauses.map((c) => `${c.mistakeId}/${c.confidence}`),
      findings: d.structuralFindings.map((f) => `${f.severity}:${f.id}`),
    },
    null,
    1,
  );
}

describe('the corpus', () => {
  it('has at least 12 broken captures, correct ones for each scheme, in all four formats', () => {
    const broken = cases.filter((c) => c.expected.verdict === 'mismatch');
    expect(broken.length).toBeGreaterThanOrEqual(12);
    const causes = new Set(broken.map((c) => c.expected.cause));
    for (const id of [
      'amount-major-units',
      'plus-for-space',
      'double-encoding',
      'unsorted-parameters',
      'default-port',
      'http-vs-https',
      'wrong-key',
      'pkcs1-pkcs8-confusion',
      'endpoint-vs-group-id',
      'hyphen-vs-underscore',
      'field-missing-from-formula',
      'uppercase-hex',
      'stale-timestamp',
    ] as const)
      expect(causes, id).toContain(id);
    const okSchemes = new Set(
      cases
        .filter((c) => c.expected.verdict === 'ok')
        .map(
          (c) => findOperation(c.operation)?.scheme ?? (c.operation === 'callback' ? 'control' : c.operation),
        ),
    );
    expect([...okSchemes].sort()).toEqual(['control', 'oauth-hmac-sha1', 'oauth-rsa-sha256']);
    expect(new Set(cases.map((c) => c.format))).toEqual(
      new Set(['raw-http', 'curl', 'har', 'log-line', 'app-log', 'json-log', 'python-debug', 'access-log']),
    );
    // Issue 31: the mistakes merchants make, each with a case.
    for (const id of ['formula-terms', 'key-text-slip', 'other-order-id', 'rsa-sha1'] as const)
      expect(causes, id).toContain(id);
  });
});

describe.each(cases)('$id: $title', (c) => {
  it(`with the secret: ${c.expected.verdict}${c.expected.cause ? `, first cause ${c.expected.cause} (${c.expected.confidence})` : ''}`, async () => {
    const d = await run(c, true);
    expect(d.operationPath).toBe(c.operation);
    expect(d.verdict, summary(d)).toBe(c.expected.verdict);
    if (c.expected.verdict === 'ok') {
      expect(d.signatureMatches).toBe(true);
      expect(d.likelyCauses, summary(d)).toEqual([]);
      return;
    }
    const first = d.likelyCauses[0];
    expect(first?.mistakeId, summary(d)).toBe(c.expected.cause);
    expect(first?.confidence, summary(d)).toBe(c.expected.confidence);
    expect(first?.advice.length).toBeGreaterThan(20);
    expect(first?.rules.length).toBeGreaterThan(0);
    if (c.expected.evidence) expect(first?.evidence, summary(d)).toContain(c.expected.evidence);
    // Nothing the debugger returns carries the control key.
    if (c.secrets.controlKey) expect(JSON.stringify(d)).not.toContain(c.secrets.controlKey);
  });

  it(`without the secret: cannot-check${c.expected.verdict === 'ok' ? '' : c.withoutSecret?.noFindings ? ', no cause named (only the key shows it)' : ', with findings'}${c.withoutSecret?.cause ? ` naming ${c.withoutSecret.cause}` : ''}`, async () => {
    const d = await run(c, false);
    expect(d.verdict, summary(d)).toBe('cannot-check');
    expect(d.signatureMatches).toBeNull();
    expect(d.notes.join(' ')).toMatch(/cannot be (recomputed|checked); the structural checks ran/);
    if (c.withoutSecret?.noFindings) expect(d.likelyCauses, summary(d)).toEqual([]);
    else if (c.expected.verdict !== 'ok') expect(d.structuralFindings.length, summary(d)).toBeGreaterThan(0);
    if (c.withoutSecret?.cause)
      expect(
        d.likelyCauses.map((x) => x.mistakeId),
        summary(d),
      ).toContain(c.withoutSecret.cause);
    if (c.expected.verdict === 'ok')
      expect(
        d.structuralFindings.filter((f) => f.severity === 'error'),
        summary(d),
      ).toEqual([]);
  });
});
