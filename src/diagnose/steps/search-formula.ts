import type { MistakenVariant } from '../mistakes.ts';
import { resolveTextKey, type ControlRecipe, type RecipeSecrets, type RecipeTerm } from '../recipe.ts';
import { Sha1State } from '../sha1-state.ts';

/** Up to this many terms every order is tried (7! = 5040); above it, each term moved and each pair swapped. */
const FULL_ORDERS_UP_TO = 7;

export interface FormulaSearch {
  /** The formula variants whose signature is the received one (at most a few). */
  found: MistakenVariant[];
  /** How many term sequences were hashed. */
  tried: number;
  /** The received control was the variant's digest in uppercase. */
  uppercase: boolean;
}

const names = (terms: readonly RecipeTerm[]) => terms.map((t) => t.label).join(' + ');

/**
 * The formula's terms in another order, one left out, or one doubled: a control signer who wrote
 * the concatenation by hand. Every order is hashed depth-first from a SHA-1 state copied at each
 * prefix, so orderings that share a prefix hash it once; equal values are ordered once. The key
 * stays last (the notes: "key last"). Only for the merchant's own key (the terms are the question).
 */
export function searchFormula(
  recipe: ControlRecipe,
  received: string,
  secrets: RecipeSecrets,
): FormulaSearch {
  const key = resolveTextKey(recipe.key, secrets);
  const none: FormulaSearch = { found: [], tried: 0, uppercase: false };
  if (key === undefined || !/^[0-9a-fA-F]{40}$/.test(received) || recipe.terms.some((t) => t.secret))
    return none;
  const target = received.toLowerCase();
  const uppercase = received !== target;
  const enc = new TextEncoder();
  const keyBytes = enc.encode(key);
  const terms = recipe.terms;
  const bytes = terms.map((t) => enc.encode(t.value));
  const correct = terms.map((_, i) => i).join(',');
  const found: MistakenVariant[] = [];
  const seen = new Set<string>();
  let tried = 0;

  const check = (state: Sha1State, order: number[], detail: () => string) => {
    tried++;
    if (state.clone().update(keyBytes).hex() !== target) return;
    const values = order.map((i) => terms[i]!.value).join('\u0000');
    if (order.join(',') === correct || seen.has(values)) return;
    seen.add(values);
    found.push({ recipe: { ...recipe, terms: order.map((i) => terms[i]!) }, detail: detail() });
  };

  // Every order of a list of term indexes, depth-first over the prefix's SHA-1 state.
  const orders = (pool: number[], describe: (order: number[]) => string) => {
    const order: number[] = [];
    const walk = (state: Sha1State, left: number[]) => {
      if (left.length === 0) {
        check(state, order, () => describe(order));
        return;
      }
      const done = new Set<string>();
      for (let k = 0; k < left.length; k++) {
        const i = left[k]!;
        if (done.has(terms[i]!.value)) continue;
        done.add(terms[i]!.value);
        order.push(i);
        walk(state.clone().update(bytes[i]!), [...left.slice(0, k), ...left.slice(k + 1)]);
        order.pop();
        if (found.length >= 3) return;
      }
    };
    walk(new Sha1State(), pool);
  };
  const hashOf = (order: number[]) => {
    const s = new Sha1State();
    for (const i of order) s.update(bytes[i]!);
    return s;
  };
  const all = terms.map((_, i) => i);
  const reordered = (order: number[]) =>
    `the formula's terms concatenated as ${names(order.map((i) => terms[i]!))} instead of ${names(terms)}`;

  if (terms.length <= FULL_ORDERS_UP_TO) orders(all, reordered);
  else
    for (let a = 0; a < all.length; a++)
      for (let b = 0; b < all.length; b++) {
        if (a === b) continue;
        const moved = all.filter((i) => i !== a);
        moved.splice(b, 0, a);
        check(hashOf(moved), moved, () => reordered(moved));
        if (a < b) {
          const swapped = [...all];
          [swapped[a], swapped[b]] = [swapped[b]!, swapped[a]!];
          check(hashOf(swapped), swapped, () => reordered(swapped));
        }
      }
  // One term left out (a hand-written concatenation that skipped one), in any order when few.
  for (let skip = 0; skip < terms.length && found.length === 0; skip++) {
    if (terms[skip]!.value === '') continue;
    const rest = all.filter((i) => i !== skip);
    const left = (order: number[]) =>
      `${terms[skip]!.label} left out of the concatenation: ${names(order.map((i) => terms[i]!))}`;
    if (rest.length < FULL_ORDERS_UP_TO) orders(rest, left);
    else check(hashOf(rest), rest, () => left(rest));
  }
  // One term written twice, next to itself or anywhere else.
  for (let twice = 0; twice < terms.length && found.length === 0; twice++) {
    if (terms[twice]!.value === '') continue;
    for (let at = 0; at <= terms.length; at++) {
      const order = [...all];
      order.splice(at, 0, twice);
      check(
        hashOf(order),
        order,
        () => `${terms[twice]!.label} concatenated twice: ${names(order.map((i) => terms[i]!))}`,
      );
    }
  }
  return { found, tried, uppercase };
}
