import { describeFormula } from '../../core/control/control-terms.ts';
import { CONTROL_KEY_MASK } from '../../core/control/sign-control.ts';
import { percentDecode } from '../../core/percent-encode.ts';
import type { Verification } from '../../core/verify/verify-signature.ts';
import type { ExpectedValues, FirstDifference } from '../diagnosis-types.ts';
import type { MistakeId } from '../mistakes.ts';
import {
  controlSigningInput,
  describeKeyChoice,
  oauthBaseString,
  type ControlRecipe,
  type OAuthRecipe,
  type RecipeSecrets,
  type SigningRecipe,
} from '../recipe.ts';
import type { DiagnoseOperation } from '../structural-checks.ts';
import { firstDifferenceOffset } from '../text-diff.ts';

/* Where two signings part: the correct one against a mistaken one, or against a pasted text. */

export function signingInputOf(recipe: SigningRecipe, secrets: RecipeSecrets): string {
  return recipe.scheme === 'control'
    ? `${controlSigningInput(recipe, secrets)}${describeKeyChoice(recipe.key, secrets)}${recipe.hexCase === 'upper' ? ' (digest in uppercase hex)' : ''}`
    : oauthBaseString(recipe).baseString;
}

export function expectedValues(v: Verification, op: DiagnoseOperation): ExpectedValues {
  if (v.scheme === 'control') {
    return {
      control: {
        value: v.expected,
        signingInput: v.trace.maskedInput,
        concatenation: v.trace.joined,
        formula: describeFormula(op.formula ?? []),
        terms: v.trace.terms,
      },
    };
  }
  return {
    oauth: {
      normalizedUrl: v.normalizedUrl,
      parameterString: v.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('&'),
      baseString: v.base.baseString,
      signature: v.expected,
      ...(v.scheme === 'oauth-hmac-sha1' ? { signingKey: `${CONTROL_KEY_MASK}&` } : {}),
    },
  };
}

function termText(t: ControlRecipe['terms'][number], secrets: RecipeSecrets): string {
  return t.secret ? describeKeyChoice(t.secret, secrets) : t.value;
}

/** Where the mistaken signing first departs from the correct one. */
export function differenceFromRecipes(
  ours: SigningRecipe,
  theirs: SigningRecipe,
  secrets: RecipeSecrets,
  mistakeId: MistakeId,
): FirstDifference {
  const base = { against: 'mistaken-signing' as const, mistakeId };
  if (ours.scheme === 'control' && theirs.scheme === 'control') {
    let offset = 0;
    for (let i = 0; i < Math.max(ours.terms.length, theirs.terms.length); i++) {
      const a = ours.terms[i];
      const b = theirs.terms[i];
      const at = a ? termText(a, secrets) : '';
      const bt = b ? termText(b, secrets) : '';
      if (at !== bt || !!a?.secret !== !!b?.secret) {
        return {
          ...base,
          location: 'term',
          index: i,
          name: a?.label ?? b?.label ?? '',
          expected: at,
          actual: bt,
          offset: offset + (firstDifferenceOffset(at, bt) ?? 0),
          description: `term ${i + 1} (${a?.label ?? b?.label}): the description signs "${at}", the signer used "${bt}"`,
        };
      }
      offset += at.length;
    }
    const ka = describeKeyChoice(ours.key, secrets);
    const kb = describeKeyChoice(theirs.key, secrets);
    if (ka !== kb) {
      return {
        ...base,
        location: 'key',
        expected: ka,
        actual: kb,
        description: `the key appended: ${ka} expected, the signer appended ${kb}`,
      };
    }
    return {
      ...base,
      location: 'hex-case',
      expected: 'lowercase hex',
      actual: theirs.hexCase === 'upper' ? 'uppercase hex' : 'lowercase hex',
      description: 'the same digest, written in uppercase hex digits',
    };
  }
  const a = ours as OAuthRecipe;
  const b = theirs as OAuthRecipe;
  const ta = oauthBaseString(a);
  const tb = oauthBaseString(b, b.resign ? [{ name: 'oauth_signature', value: '<first signature>' }] : []);
  if (ta.baseString === tb.baseString) {
    if (a.algorithm !== b.algorithm) {
      return {
        ...base,
        location: 'algorithm',
        expected: a.algorithm,
        actual: b.algorithm,
        description: `signed with ${b.algorithm} instead of ${a.algorithm}`,
      };
    }
    const ka = describeKeyChoice(a.key, secrets, a.algorithm === 'HMAC-SHA1');
    const kb = describeKeyChoice(b.key, secrets, b.algorithm === 'HMAC-SHA1');
    return {
      ...base,
      location: 'signing-key',
      expected: ka,
      actual: kb,
      description: `the same base string, signed with ${kb} instead of ${ka}`,
    };
  }
  return differenceInBaseStrings(
    base,
    a.httpMethod,
    a.url,
    b.httpMethod,
    b.url,
    ta.pairs,
    tb.pairs,
    ta.baseString,
    tb.baseString,
  );
}

function differenceInBaseStrings(
  base: Pick<FirstDifference, 'against' | 'mistakeId'>,
  methodA: string,
  urlA: string,
  methodB: string,
  urlB: string,
  pairsA: readonly string[],
  pairsB: readonly string[],
  baseA: string,
  baseB: string,
): FirstDifference {
  const offset = firstDifferenceOffset(baseA, baseB) ?? 0;
  if (methodA.toUpperCase() !== methodB.toUpperCase()) {
    return {
      ...base,
      location: 'method',
      expected: methodA.toUpperCase(),
      actual: methodB.toUpperCase(),
      offset,
      description: `the method part: ${methodA} expected, ${methodB} used`,
    };
  }
  if (urlA !== urlB) {
    return {
      ...base,
      location: 'url',
      expected: urlA,
      actual: urlB,
      offset,
      description: `the URL part: ${urlA} expected, ${urlB} signed`,
    };
  }
  const sameSet =
    pairsA.length === pairsB.length && [...pairsA].sort().join('&') === [...pairsB].sort().join('&');
  // One pair more or less, the rest in place: name the inserted or missing pair.
  if (Math.abs(pairsA.length - pairsB.length) === 1) {
    const [longer, shorter] = pairsA.length > pairsB.length ? [pairsA, pairsB] : [pairsB, pairsA];
    for (let i = 0; i < longer.length; i++) {
      if (
        longer
          .slice(0, i)
          .concat(longer.slice(i + 1))
          .join('&') !== shorter.join('&')
      )
        continue;
      const pair = longer[i]!;
      const extra = longer === pairsB;
      return {
        ...base,
        location: 'parameter',
        index: i,
        name: percentDecode(pair.split('=')[0] ?? '', false),
        expected: extra ? '' : pair,
        actual: extra ? pair : '',
        offset,
        description: extra
          ? `pair ${i + 1}: an extra pair ${pair} was signed`
          : `pair ${i + 1}: ${pair} was not signed`,
      };
    }
  }
  for (let i = 0; i < Math.max(pairsA.length, pairsB.length); i++) {
    const pa = pairsA[i] ?? '';
    const pb = pairsB[i] ?? '';
    if (pa === pb) continue;
    const name = (pa || pb).split('=')[0] ?? '';
    if (sameSet) {
      return {
        ...base,
        location: 'parameter-order',
        index: i,
        name,
        expected: pa,
        actual: pb,
        offset,
        description: `pair ${i + 1}: ${pa} belongs here in sorted order; the signer put ${pb}`,
      };
    }
    return {
      ...base,
      location: 'parameter',
      index: i,
      name: percentDecode(name, false),
      expected: pa,
      actual: pb,
      offset,
      description:
        pa === ''
          ? `pair ${i + 1}: an extra pair ${pb} was signed`
          : pb === ''
            ? `pair ${i + 1}: ${pa} was not signed`
            : `pair ${i + 1}: ${pa} expected, ${pb} signed`,
    };
  }
  return {
    ...base,
    location: 'length',
    expected: baseA,
    actual: baseB,
    offset,
    description: `the base strings differ at character ${offset}`,
  };
}

/** Where a pasted expected text departs from ours. */
export function differenceFromTexts(recipe: SigningRecipe, ours: string, theirs: string): FirstDifference {
  const base = { against: 'pasted-expected' as const };
  const offset = firstDifferenceOffset(ours, theirs) ?? 0;
  if (recipe.scheme === 'control') {
    let at = 0;
    for (let i = 0; i < recipe.terms.length; i++) {
      const t = recipe.terms[i]!;
      if (offset < at + t.value.length || i === recipe.terms.length - 1) {
        return {
          ...base,
          location: 'term',
          index: i,
          name: t.label,
          expected: t.value,
          actual: theirs.slice(at, at + Math.max(t.value.length, offset - at + 1)),
          offset,
          description: `at character ${offset}, in term ${i + 1} (${t.label}): ours reads "${t.value}", the gateway's text "${theirs.slice(at, at + t.value.length + 8)}…"`,
        };
      }
      at += t.value.length;
    }
  }
  const parts = (s: string) => {
    const [m = '', u = '', ...rest] = s.split('&');
    const params = percentDecode(rest.join('&'), false);
    return { m, u: percentDecode(u, false), pairs: params === '' ? [] : params.split('&') };
  };
  const a = parts(ours);
  const b = parts(theirs);
  return differenceInBaseStrings(base, a.m, a.u, b.m, b.u, a.pairs, b.pairs, ours, theirs);
}
