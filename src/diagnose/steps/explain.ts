import { CONTROL_KEY_MASK } from '../../core/control/sign-control.ts';
import type { Scheme } from '../../core/request/operation-spec.ts';
import type { Verification } from '../../core/verify/verify-signature.ts';
import type { ExpectedDiff, ExpectedValues, FirstDifference } from '../diagnosis-types.ts';
import type { RecipeSecrets, SigningRecipe } from '../recipe.ts';
import type { DiagnoseOperation } from '../structural-checks.ts';
import { diffText, firstDifferenceOffset } from '../text-diff.ts';
import { differenceFromRecipes, differenceFromTexts, expectedValues } from './first-difference.ts';
import type { Tried } from './search-mistakes.ts';

export interface Explanation {
  expected: ExpectedValues;
  expectedDiff?: ExpectedDiff;
  firstDifference: FirstDifference | null;
  firstDifferenceNote?: string;
  notes: string[];
}

/**
 * Step 7: what the description wants (the expected values), where the signer went astray (against
 * the best mistaken signing, else against a pasted expected text), or why that cannot be said.
 */
export function explain(args: {
  verification: Verification;
  operation: DiagnoseOperation;
  scheme: Scheme;
  recipe: SigningRecipe;
  confirmed: readonly Tried[];
  secrets: RecipeSecrets;
  signatureMatches: boolean | null;
  received: string | null;
  expectedBaseString: string | undefined;
  /** Signed fields an export masked or removed. */
  masked?: readonly string[];
}): Explanation {
  const { scheme, recipe, confirmed, secrets, signatureMatches, received } = args;
  const notes: string[] = [];
  const signatureWord = scheme === 'control' ? 'control' : 'oauth_signature';
  const expected = expectedValues(args.verification, args.operation);
  const ours = expected.control ? expected.control.concatenation : expected.oauth!.baseString;
  let expectedDiff: ExpectedDiff | undefined;
  let theirs: string | undefined;
  if (args.expectedBaseString !== undefined) {
    theirs = args.expectedBaseString.replace(/\r?\n$/, '').trim();
    if (scheme === 'control' && theirs.endsWith(CONTROL_KEY_MASK))
      theirs = theirs.slice(0, -CONTROL_KEY_MASK.length);
    expectedDiff = { ours, theirs, equal: ours === theirs, segments: diffText(ours, theirs) };
    if (ours !== theirs)
      notes.push(
        `The pasted expected ${scheme === 'control' ? 'concatenation' : 'base string'} differs from ours at character ${firstDifferenceOffset(ours, theirs)}.`,
      );
  }
  let firstDifference: FirstDifference | null = null;
  let firstDifferenceNote: string | undefined;
  const best = confirmed.find((c) => c.mistakes.length === 1) ?? confirmed[0];
  if (best) {
    firstDifference = differenceFromRecipes(
      recipe,
      best.variants[best.variants.length - 1]!.recipe,
      secrets,
      best.mistakes[0]!.id,
    );
  } else if (theirs !== undefined && theirs !== ours) {
    firstDifference = differenceFromTexts(recipe, ours, theirs);
  } else if (signatureMatches === false && args.masked && args.masked.length > 0) {
    firstDifferenceNote = `The signed input holds masked or removed values (${args.masked.join(', ')}): there is nothing to compare with until the original values are pasted.`;
  } else if (signatureMatches === false && (received === null || received === '')) {
    firstDifferenceNote = `The request carries no ${signatureWord} value: there is nothing to compare with.`;
  } else if (signatureMatches === false) {
    firstDifferenceNote =
      scheme === 'control'
        ? 'A control hash cannot be inverted: no known mistake reproduces it, so the term where the signer went astray cannot be pointed at. Paste the gateway’s expected concatenation (the local sandbox shows it) to compare term by term.'
        : 'No known mistake reproduces the signature, so there is no mistaken base string to compare with. Paste the gateway’s expected base string (the local sandbox shows it) to compare pair by pair.';
  }
  return {
    expected,
    ...(expectedDiff ? { expectedDiff } : {}),
    firstDifference,
    ...(firstDifferenceNote ? { firstDifferenceNote } : {}),
    notes,
  };
}
