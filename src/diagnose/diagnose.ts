import type { MistakeContext, MistakeId } from './mistakes.ts';
import type { Diagnosis, DiagnoseInput } from './diagnosis-types.ts';
import { collectFindings } from './steps/collect-findings.ts';
import { explain } from './steps/explain.ts';
import { isSchemeAssumedNote } from '../capture/parse-capture.ts';
import { asCallbackCapture, CALLBACK_OPERATION } from './steps/callback-capture.ts';
import { findMaskedValues } from './steps/find-masked-values.ts';
import { identifyOperation } from './steps/identify-operation.ts';
import { rankCauses } from './steps/rank-causes.ts';
import { recomputeSignature } from './steps/recompute-signature.ts';
import { resolveKeys } from './steps/resolve-keys.ts';
import { recipeOf, searchMistakes, type MistakeSearch } from './steps/search-mistakes.ts';

export type * from './diagnosis-types.ts';

/**
 * The signature debugger: takes every value, nonce and timestamp from a captured request,
 * recomputes its signature, and when it differs finds which known mistake reproduces the received
 * one. Runs every structural check that needs no secret; without the secret the verdict is
 * `cannot-check` and the findings still come back. Pure: the clock is `now`, crypto is the port.
 *
 * A pipeline of named steps: identify the operation → resolve the keys → recompute the signature
 * → structural findings → search the known mistakes → rank the causes → verdict → explain.
 * @see api-description.md, Authentication (schemes C, O1, O2).
 * @throws PayError OPERATION_UNKNOWN when the operation can be neither given nor found from the path.
 */
export async function diagnose(given: DiagnoseInput): Promise<Diagnosis> {
  // A callback or customer return is checked against its own formula (status + orderid + merchant_order).
  const callback = given.operation ? undefined : asCallbackCapture(given.capture);
  const input: DiagnoseInput = callback
    ? { ...given, capture: callback, operation: CALLBACK_OPERATION, endpoint: { kind: 'endpoint', id: '' } }
    : given;
  const { crypto } = input;
  const { operation, scheme, endpoint, body, login } = identifyOperation(input);
  const keys = await resolveKeys(input, scheme, login);
  const { secrets } = keys;

  const urlUnknown = input.urlSchemeKnown === false && scheme !== 'control';
  const computed = await recomputeSignature({
    capture: input.capture,
    operation,
    endpoint,
    login,
    controlKey: input.controlKey,
    secrets,
    urlUnknown,
    crypto,
  });
  const { triedUrls, hit } = computed;
  let { verification } = computed;
  const { signatureMatches } = computed;
  const received = verification.received;
  const notes = [...keys.notes];

  const findings = collectFindings({
    input,
    capture: computed.capture,
    operation,
    scheme,
    endpoint,
    body,
    login,
    keys,
  });

  // A callback or return is a GET or a browser's form: no Accept header is asked of it.
  if (callback)
    for (let i = findings.length - 1; i >= 0; i--)
      if (findings[i]!.id === 'accept-missing') findings.splice(i, 1);

  const masked = findMaskedValues({
    verification,
    operation,
    scheme,
    body,
    maskedExport: input.maskedExport ?? false,
  });
  if (masked) findings.unshift(masked.finding);
  const maskedSigned = masked?.signed === true;

  const ctx: MistakeContext = {
    mode: 'diagnose',
    body: body.filter((p) => p.name !== 'control'),
    endpoint,
    ...(input.knownIds ? { knownIds: input.knownIds } : {}),
    alternatives: (secrets.alternatives ?? []).map((a) => a.label),
    login: login ?? '',
  };
  // Mistakes are searched over each URL the capture may have been signed with (http and https
  // when it does not say), the first URL where one reproduces the signature is the one shown.
  // Over masked values no re-signing can reproduce anything: the search is skipped.
  let recipe = recipeOf(verification, input.capture.method);
  let search: MistakeSearch = { confirmed: [], variantsTried: 0 };
  let reproducedAt = -1;
  if (signatureMatches === false && received !== null && received !== '' && !maskedSigned) {
    for (let i = 0; i < computed.verifications.length; i++) {
      const v = computed.verifications[i]!;
      const r = recipeOf(v, input.capture.method);
      const found = await searchMistakes({
        recipe: r,
        ctx,
        scheme,
        received,
        correctSignature: v.expected,
        excluded: new Set<MistakeId>(urlUnknown ? ['http-vs-https'] : []),
        secrets,
        crypto,
      });
      search = {
        confirmed: found.confirmed,
        variantsTried: search.variantsTried + found.variantsTried,
        tried: mergeTried(search.tried ?? [], found.tried ?? []),
      };
      if (found.confirmed.length > 0 || i === 0) {
        verification = v;
        recipe = r;
      }
      if (found.confirmed.length > 0) {
        reproducedAt = i;
        break;
      }
    }
  }

  // Without a scheme both URLs were tried: one note says which one the verdict is about (the
  // parse's "https:// is assumed" gives way to it, see captureNotes).
  if (urlUnknown && triedUrls.length > 1) {
    const noScheme = 'The request line has no scheme:';
    notes.unshift(
      hit !== -1
        ? `${noScheme} the signature matches when the URL is signed as ${triedUrls[hit]!.url}.`
        : reproducedAt !== -1
          ? `${noScheme} the mistake reproduces the signature when the URL is signed as ${triedUrls[reproducedAt]!.url}.`
          : `${noScheme} the signature was checked as ${triedUrls[0]!.url} and as ${triedUrls[1]!.url}; it matches neither.`,
    );
  }

  const causes = rankCauses({
    scheme,
    confirmed: search.confirmed,
    findings,
    signatureMatches,
    received,
    variantsTried: search.variantsTried,
    tried: search.tried ?? [],
    alternativesGiven: (secrets.alternatives ?? []).length > 0,
    maskedSigned,
    secrets,
  });

  const blocking = findings.some((f) => f.severity === 'error');
  const verdict: Diagnosis['verdict'] =
    signatureMatches === null || (maskedSigned && signatureMatches === false)
      ? 'cannot-check'
      : signatureMatches && !blocking && causes.length === 0
        ? 'ok'
        : 'mismatch';
  if (masked && maskedSigned && signatureMatches === false) {
    notes.push(
      `The signature cannot be checked: ${masked.finding.message.replace(/^The signed input holds masked data: /, '')} Do not change the key for it.`,
    );
  } else if (signatureMatches === null) {
    notes.push(
      scheme === 'control'
        ? 'No control key given: the signature cannot be recomputed; the structural checks ran.'
        : scheme === 'oauth-hmac-sha1'
          ? 'No control key given: the HMAC-SHA1 signature cannot be recomputed; the structural checks ran.'
          : 'No public key given: the RSA-SHA256 signature cannot be checked; the structural checks ran.',
    );
  }

  const explanation = explain({
    verification,
    operation,
    scheme,
    recipe,
    confirmed: search.confirmed,
    secrets,
    signatureMatches,
    received,
    expectedBaseString: input.expectedBaseString,
    ...(masked?.signed ? { masked: [...masked.masked, ...masked.removed] } : {}),
  });
  notes.push(...explanation.notes);

  return {
    verdict,
    scheme,
    operationPath: operation.path,
    endpoint,
    signatureMatches,
    received,
    signedUrl: scheme !== 'control' && hit !== -1 ? triedUrls[hit]!.url : null,
    triedUrls,
    firstDifference: explanation.firstDifference,
    ...(explanation.firstDifferenceNote ? { firstDifferenceNote: explanation.firstDifferenceNote } : {}),
    likelyCauses: causes,
    structuralFindings: findings,
    expected: explanation.expected,
    ...(explanation.expectedDiff ? { expectedDiff: explanation.expectedDiff } : {}),
    verification,
    variantsTried: search.variantsTried,
    ...(keys.keyInspection ? { keyInspection: keys.keyInspection } : {}),
    ...(masked ? { masked: { fields: [...masked.masked, ...masked.removed], signed: masked.signed } } : {}),
    notes,
  };
}

/**
 * The notes of a parsed capture and of its diagnosis as one list that does not contradict itself:
 * when both schemes were tried, the parse's "https:// is assumed" gives way to the diagnosis's note.
 */
export function captureNotes(
  parsed: { notes: readonly string[]; schemeKnown: boolean },
  d: Pick<Diagnosis, 'notes' | 'triedUrls'>,
): string[] {
  const both = !parsed.schemeKnown && d.triedUrls.length > 1;
  return [...parsed.notes.filter((n) => !(both && isSchemeAssumedNote(n))), ...d.notes];
}

function mergeTried(
  a: NonNullable<MistakeSearch['tried']>,
  b: NonNullable<MistakeSearch['tried']>,
): NonNullable<MistakeSearch['tried']> {
  const out = a.map((t) => ({ ...t }));
  for (const t of b) {
    const same = out.find((x) => x.id === t.id);
    if (same) same.count += t.count;
    else out.push({ ...t });
  }
  return out;
}
