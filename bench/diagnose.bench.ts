/**
 * The debugger's whole mistake search (issue 31), on the captures where it works hardest: nothing
 * reproduces the signature, so every mistake, every pair and (for `control`) every order of the
 * formula's terms is tried before "wrong key" is concluded. A `control` sale and an RSA-SHA256
 * payout-check from the corpus, checked against another merchant's key. Beside it, the formula
 * search itself: orders hashed from shared SHA-1 prefixes (the debugger's) against one Web Crypto
 * SHA-1 per order (the plain way), on the same terms, checked to find the same thing first.
 *
 * The sections that run on the old code (`git checkout <commit> -- src`) are the first two; the
 * formula search exists only in the new code.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { webCryptoPort } from '../src/core/index.ts';
import { importVerifyingKey } from '../src/core/keys/key-containers.ts';
import { parseCapture } from '../src/capture/index.ts';
import { diagnose } from '../src/diagnose/index.ts';
import type { searchFormula as SearchFormula } from '../src/diagnose/steps/search-formula.ts';
import { formatTable, measure, type TableRow } from './lib/measure.ts';

export const title = 'Debugger: the whole mistake search when nothing reproduces';

const CORPUS = resolve(import.meta.dirname, '../test/corpus');
const crypto = webCryptoPort();
const read = (f: string) => readFileSync(join(CORPUS, f), 'utf8');

export async function run(): Promise<void> {
  const rows: TableRow[] = [];
  const sale = parseCapture(read('cases/ok-control-sale.http'));
  const control = async () =>
    diagnose({ capture: sale.request, crypto, controlKey: 'NOT-THE-MERCHANTS-KEY', headersComplete: true });
  const first = await control();
  if (first.likelyCauses[0]?.mistakeId !== 'wrong-key')
    throw new Error(`control: expected the wrong-key conclusion, got ${first.likelyCauses[0]?.mistakeId}`);
  const c = await measure('diagnose(), control sale', control, { samples: 40, budgetMs: 4000 });
  rows.push({ label: `control, ${first.variantsTried} signings`, m: c });

  const rsa = parseCapture(read('cases/ok-rsa-payout-check.har'));
  const other = (await importVerifyingKey(read('keys/merchant-b-public.pem'), crypto)).key;
  const rsaRun = async () =>
    diagnose({ capture: rsa.request, crypto, publicKey: other, headersComplete: true });
  const firstRsa = await rsaRun();
  if (firstRsa.likelyCauses[0]?.mistakeId !== 'wrong-key')
    throw new Error(`rsa: expected the wrong-key conclusion, got ${firstRsa.likelyCauses[0]?.mistakeId}`);
  const r = await measure('diagnose(), RSA-SHA256 payout-check', rsaRun, { samples: 20, budgetMs: 6000 });
  rows.push({ label: `RSA, ${firstRsa.variantsTried} signings`, m: r });

  // The formula search alone, if this code has it.
  const mod: { searchFormula: typeof SearchFormula } | null =
    await import('../src/diagnose/steps/search-formula.ts').catch(() => null);
  if (mod) {
    // Six terms (the catalog's longest formula), signed in an order none of the orders gives.
    const terms = ['1111', 'corpus-shop', 'inv-2026-0001', '9100001', '1042', 'USD'].map((value, i) => ({
      label: `t${i}`,
      value,
      source: 'body' as const,
    }));
    const key = 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B';
    const received = createHash('sha1').update(`unrelated${key}`).digest('hex');
    const recipe = {
      scheme: 'control' as const,
      terms,
      key: { source: 'merchant' as const },
      hexCase: 'lower' as const,
    };
    const secrets = { login: '', controlKey: key };
    const fast = () => mod.searchFormula(recipe, received, secrets);
    const tried = fast().tried;
    const plain = async () => {
      // Every order, each hashed whole through the port (what one signing per variant costs).
      const orders: string[][] = [];
      const perm = (left: string[], acc: string[]) => {
        if (left.length === 0) orders.push(acc);
        left.forEach((v, i) => perm([...left.slice(0, i), ...left.slice(i + 1)], [...acc, v]));
      };
      perm(
        terms.map((t) => t.value),
        [],
      );
      for (const o of orders) if ((await crypto.sha1Hex(o.join('') + key)) === received) return o;
      return null;
    };
    const base = await measure('one Web Crypto SHA-1 per order (orders only)', plain, {
      samples: 15,
      budgetMs: 4000,
    });
    rows.push({ label: `formula search, 6 terms`, m: base, baseline: base });
    rows.push({
      label: `formula search, 6 terms`,
      m: await measure(`shared SHA-1 prefixes (${tried} sequences: orders, left out, doubled)`, fast, {
        samples: 25,
        budgetMs: 3000,
      }),
      baseline: base,
    });
  }
  console.log(formatTable(rows));
}
