/**
 * Lint caps a function's length in src/features (issue 29 §1): the rule is configured for every
 * feature file, at the longest function the features hold today, and it bites one line past it.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
// eslint.config.js is plain JavaScript with no declarations: its one figure read as a number.
const { FEATURE_FUNCTION_LINES } = (await import(path.join(ROOT, 'eslint.config.js'))) as {
  FEATURE_FUNCTION_LINES: number;
};
const RULE = 'max-lines-per-function';
const FILE = 'src/features/console/workbench/workbench.tsx';

/** A function of `lines` statements, one a line. */
const fn = (lines: number) =>
  `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(lines - 4)}  return n;\n}\n`;

describe('function length in src/features', () => {
  const eslint = new ESLint({ cwd: ROOT });

  it('is capped by lint, with blank lines and comments left out', async () => {
    const config = (await eslint.calculateConfigForFile(path.join(ROOT, FILE))) as {
      rules: Record<string, unknown>;
    };
    expect(config.rules[RULE]).toEqual([
      2,
      { max: FEATURE_FUNCTION_LINES, skipBlankLines: true, skipComments: true },
    ]);
    expect(FEATURE_FUNCTION_LINES).toBeLessThanOrEqual(234);
  });

  it('lets a function of the cap pass and refuses one a line longer', async () => {
    // The rule reads syntax only: the typed rules (a whole program to load) stay off here.
    const untyped = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
    const lint = async (lines: number) => {
      const [result] = await untyped.lintText(fn(lines), { filePath: path.join(ROOT, FILE) });
      return result!.messages.filter((m) => m.ruleId === RULE).length;
    };
    expect(await lint(FEATURE_FUNCTION_LINES)).toBe(0);
    expect(await lint(FEATURE_FUNCTION_LINES + 1)).toBe(1);
  });
});
