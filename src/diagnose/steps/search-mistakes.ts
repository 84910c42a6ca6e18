import { constantTimeEqual } from '../../core/bytes.ts';
import type { CryptoPort } from '../../core/crypto-port.ts';
import type { Scheme } from '../../core/request/operation-spec.ts';
import type { Verification } from '../../core/verify/verify-signature.ts';
import { searchFormula } from './search-formula.ts';
import {
  MISTAKES,
  mistakeById,
  type Mistake,
  type MistakeContext,
  type MistakeId,
  type MistakenVariant,
} from '../mistakes.ts';
import {
  controlRecipeOf,
  oauthRecipeOf,
  recipeReproduces,
  signRecipe,
  type ControlRecipe,
  type RecipeSecrets,
  type SigningRecipe,
} from '../recipe.ts';

const MAX_VARIANTS = 4000;

/** One mistake, or two together, whose mistaken signing reproduces the received signature. */
export interface Tried {
  mistakes: Mistake[];
  variants: MistakenVariant[];
}

export interface MistakeSearch {
  /** The mistaken signings that reproduce the received signature: singles first, pairs only when no single does. */
  confirmed: Tried[];
  variantsTried: number;
  /** What was tried, mistake by mistake (for the "wrong key" conclusion to say so). */
  tried?: Array<{ id: MistakeId; title: string; count: number }>;
}

/** The correct signing recipe of a verification: what the mistakes transform. */
export function recipeOf(verification: Verification, method: string): SigningRecipe {
  return verification.scheme === 'control'
    ? controlRecipeOf(verification.trace)
    : oauthRecipeOf(
        { parameters: verification.parameters, normalizedUrl: verification.normalizedUrl },
        verification.scheme,
        method,
      );
}

function fingerprint(recipe: SigningRecipe): string {
  return JSON.stringify(recipe);
}

/**
 * Step 5: re-signs the capture's own values the way each known mistake would (singles, then pairs
 * of mistakes when no single one reproduces the signature, at most MAX_VARIANTS signings) and keeps
 * those that reproduce the received signature exactly.
 */
export async function searchMistakes(args: {
  recipe: SigningRecipe;
  ctx: MistakeContext;
  scheme: Scheme;
  received: string;
  /** The correct signature, when computable: a variant that signs to it is no variant. */
  correctSignature: string | null;
  excluded: ReadonlySet<MistakeId>;
  secrets: RecipeSecrets;
  crypto: CryptoPort;
}): Promise<MistakeSearch> {
  const { recipe, ctx, scheme, received, secrets, crypto } = args;
  const confirmed: Tried[] = [];
  let variantsTried = 0;
  const applicable = MISTAKES.filter(
    (m) => m.transform && m.schemes.includes(scheme) && !args.excluded.has(m.id),
  );
  const singles: Tried[] = [];
  const seen = new Set<string>([fingerprint(recipe)]);
  for (const m of applicable) {
    const r = m.transform!(recipe, ctx);
    if (typeof r === 'string') continue;
    for (const v of r) {
      const fp = fingerprint(v.recipe);
      if (seen.has(fp)) continue;
      seen.add(fp);
      singles.push({ mistakes: [m], variants: [v] });
    }
  }
  const reproduces = async (v: MistakenVariant): Promise<boolean> => {
    variantsTried++;
    if (v.recipe.scheme === 'control' || v.recipe.algorithm === 'HMAC-SHA1') {
      const s = await signRecipe(v.recipe, secrets, crypto);
      // A variant that signs to the correct signature is no variant (e.g. lowercasing a lowercase key).
      if (s === null || s === args.correctSignature) return false;
      return constantTimeEqual(s, received);
    }
    return (await recipeReproduces(v.recipe, received, secrets, crypto)) === true;
  };
  const tried = new Map<MistakeId, { id: MistakeId; title: string; count: number }>();
  const count = (m: Mistake, n = 1) => {
    const t = tried.get(m.id) ?? { id: m.id, title: m.title, count: 0 };
    t.count += n;
    tried.set(m.id, t);
  };
  for (const s of singles) {
    count(s.mistakes[0]!);
    if (await reproduces(s.variants[0]!)) confirmed.push(s);
  }
  // The formula's terms reordered, left out or doubled: hashed from shared prefixes, not one by one.
  const formula = MISTAKES.find((m) => m.id === 'formula-terms')!;
  if (confirmed.length === 0 && recipe.scheme === 'control' && !args.excluded.has('formula-terms')) {
    const found = searchFormula(recipe, received, secrets);
    variantsTried += found.tried;
    count(formula, found.tried);
    const upper = mistakeById('uppercase-hex');
    for (const v of found.found)
      confirmed.push(
        found.uppercase
          ? {
              mistakes: [formula, upper],
              variants: [
                v,
                {
                  recipe: { ...(v.recipe as ControlRecipe), hexCase: 'upper' },
                  detail: 'the SHA-1 digest written in uppercase hex',
                },
              ],
            }
          : { mistakes: [formula], variants: [v] },
      );
  }
  if (confirmed.length === 0) {
    outer: for (const s of singles) {
      for (const m of applicable) {
        if (m === s.mistakes[0]) continue;
        const r = m.transform!(s.variants[0]!.recipe, ctx);
        if (typeof r === 'string') continue;
        for (const v of r) {
          if (variantsTried >= MAX_VARIANTS) break outer;
          const fp = fingerprint(v.recipe);
          if (seen.has(fp)) continue;
          seen.add(fp);
          count(m);
          if (await reproduces(v))
            confirmed.push({ mistakes: [s.mistakes[0]!, m], variants: [s.variants[0]!, v] });
        }
      }
    }
  }
  return { confirmed, variantsTried, tried: [...tried.values()] };
}
