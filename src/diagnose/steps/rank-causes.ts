import type { Scheme } from '../../core/request/operation-spec.ts';
import type { Confidence, LikelyCause } from '../diagnosis-types.ts';
import { mistakeById, type Mistake, type MistakeId } from '../mistakes.ts';
import type { RecipeSecrets } from '../recipe.ts';
import type { Finding } from '../structural-checks.ts';
import { signingInputOf } from './first-difference.ts';
import type { Tried } from './search-mistakes.ts';

/** A cause of the catalogue, quoting only the rules of the capture's own scheme. */
export function causeOf(
  id: MistakeId,
  scheme: Scheme,
  confidence: Confidence,
  evidence: string,
  extra: Partial<LikelyCause> = {},
): LikelyCause {
  const m = mistakeById(id);
  // Only the rules of the capture's own scheme: an HMAC-SHA1 capture is not told about RSA keys.
  const rules = m.rules.filter((r) => r.schemes.includes(scheme));
  return { mistakeId: id, title: m.title, confidence, evidence, advice: m.advice, rules, ...extra };
}

/**
 * Step 6: the likely causes, strongest first: mistakes whose signing reproduces the received
 * signature, mistakes the capture or the key shows beyond doubt, then structural evidence (errors
 * before warnings), then "wrong key" when nothing else explains a mismatch, then weak hints.
 */
export function rankCauses(args: {
  scheme: Scheme;
  confirmed: readonly Tried[];
  findings: readonly Finding[];
  signatureMatches: boolean | null;
  received: string | null;
  variantsTried: number;
  /** What the search tried, mistake by mistake. */
  tried?: ReadonlyArray<{ id: MistakeId; title: string; count: number }>;
  alternativesGiven: boolean;
  /** A signed value is masked: nothing can be blamed on the key (masking itself is not a cause). */
  maskedSigned: boolean;
  secrets: RecipeSecrets;
}): LikelyCause[] {
  const { scheme, confirmed, findings, signatureMatches, received, variantsTried, secrets } = args;
  const causes: LikelyCause[] = [];
  const listed = new Set<MistakeId>();
  const addCause = (c: LikelyCause) => {
    if (listed.has(c.mistakeId)) return;
    listed.add(c.mistakeId);
    causes.push(c);
  };
  const cause = (id: MistakeId, confidence: Confidence, evidence: string, extra: Partial<LikelyCause> = {}) =>
    causeOf(id, scheme, confidence, evidence, extra);
  const signatureWord = scheme === 'control' ? 'control' : 'oauth_signature';
  // Whether the gateway takes it: the description is silent, the notes publish lowercase, the local sandbox accepts either.
  const hexNote =
    ' The description does not say which hex case the gateway takes; its notes publish lowercase, so the gateway may refuse this with INVALID_CONTROL_CODE, while the local sandbox compares case-insensitively and accepts it: a request that passes in the sandbox can still fail at the gateway.';
  for (const c of confirmed) {
    const last = c.variants[c.variants.length - 1]!;
    const upper = c.mistakes.some((m) => m.id === 'uppercase-hex') ? hexNote : '';
    const mistakenInput = signingInputOf(last.recipe, secrets);
    if (c.mistakes.length === 1) {
      addCause(
        cause(
          c.mistakes[0]!.id,
          'confirmed',
          `Re-signing the capture's own values this way reproduces the received ${signatureWord} exactly: ${last.detail}.${upper}`,
          {
            mistakenSigningInput: mistakenInput,
          },
        ),
      );
    } else {
      const [a, b] = c.mistakes as [Mistake, Mistake];
      const both = `Re-signing the capture's own values with two mistakes together reproduces the received ${signatureWord} exactly: ${c.variants[0]!.detail}; and ${last.detail}.${upper}`;
      addCause(cause(a.id, 'confirmed', both, { mistakenSigningInput: mistakenInput, together: b.id }));
      addCause(cause(b.id, 'confirmed', both, { mistakenSigningInput: mistakenInput, together: a.id }));
    }
  }
  // Mistakes that live outside the signature: the capture or the key shows them beyond doubt.
  const signatureBad = signatureMatches !== true;
  const byInspection: Array<[string, MistakeId, boolean]> = [
    ['timestamp-stale', 'stale-timestamp', true],
    ['timestamp-milliseconds', 'stale-timestamp', true],
    ['signature-method', 'wrong-signature-method', true],
    ['consumer-key-is-control-key', 'key-swapped-with-login', true],
    ['key-relabelled', 'pkcs1-pkcs8-confusion', signatureBad],
    ['key-is-public', 'pkcs1-pkcs8-confusion', signatureBad],
    ['key-container-mismatch', 'pkcs1-pkcs8-confusion', signatureBad],
    ['key-without-armor', 'pkcs1-pkcs8-confusion', signatureBad],
  ];
  for (const [findingId, mistakeId, applies] of byInspection) {
    const f = findings.find((x) => x.id === findingId);
    if (f && applies) addCause(cause(mistakeId, 'confirmed', f.message));
  }
  // A signature of the wrong shape, or one over masked values, cannot be blamed on the key.
  const unkeyed = findings.filter((f) => f.mistakeId === 'malformed-signature');
  if (signatureBad) for (const f of unkeyed) addCause(cause(f.mistakeId!, 'confirmed', f.message));
  if (signatureBad) {
    const possible = findings.filter((f) => f.mistakeId !== undefined);
    for (const sev of ['error', 'warning'] as const)
      for (const f of possible) if (f.severity === sev) addCause(cause(f.mistakeId!, 'possible', f.message));
    if (
      signatureMatches === false &&
      received !== null &&
      received !== '' &&
      confirmed.length === 0 &&
      unkeyed.length === 0 &&
      !args.maskedSigned
    ) {
      addCause(
        cause(
          'wrong-key',
          'possible',
          `No known mistake reproduces the received ${signatureWord} (${variantsTried} mistaken signings tried${
            args.tried && args.tried.length > 0
              ? `: ${args.tried
                  .filter((t) => t.id !== 'wrong-key')
                  .map((t) => `${t.title.replace(/`/g, '')} (${t.count})`)
                  .join('; ')}`
              : ''
          })${args.alternativesGiven ? ', nor does any of the other keys given' : ''}. Either it was signed with another key (another merchant's, the other environment's, an old one), or a value was changed after signing (an edit, a proxy re-encoding the body).`,
        ),
      );
    }
    // Weak hints only when nothing stronger explains the mismatch.
    // Unsorted body parameters are fine on the wire: only sorting that reproduces the signature
    // (a confirmed variant) makes them a cause.
    if (!causes.some((c) => c.confidence === 'confirmed'))
      for (const f of possible)
        if (f.severity === 'info' && f.mistakeId !== 'unsorted-parameters')
          addCause(cause(f.mistakeId!, 'possible', f.message));
  }

  return causes;
}
