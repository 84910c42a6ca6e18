/**
 * `sandbox/plugin.ts` registers routes only (issue 29 §5): the parts are built by `compose.ts`,
 * errors are answered by `error-handler.ts`, and each route is declared, with its access, in a
 * route module beside it. A route, an error handler or a part built inline is the plugin growing
 * back into the composition root, error handler and route table it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What the plugin must leave to other modules, each with the pattern that finds it. */
const ELSEWHERE: Array<[string, RegExp]> = [
  ['a route declared inline', /\bapp\.(get|post|put|patch|delete|all|route|head|options)\s*[<(]/],
  ['an error handler', /\bsetErrorHandler\b/],
  ['a body parser', /\baddContentTypeParser\b/],
  ['a part built inline', /\bnew\s+(?!Error\b)[A-Z]\w*/],
];

function misplaced(text: string): string[] {
  return ELSEWHERE.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
}

describe('the sandbox plugin', () => {
  const text = fs.readFileSync(path.join(ROOT, 'sandbox/plugin.ts'), 'utf8');

  it('registers route modules and builds nothing itself', () => {
    expect(misplaced(text)).toEqual([]);
    expect(text).toMatch(/registerOperationRoutes\(app/);
    expect(text).toMatch(/composeSandbox\(/);
  });

  it('catches an inline route, an error handler and a part built inline', () => {
    const grown = `app.get('/x', { config: { access: 'sandbox-page' } }, () => 1);
app.setErrorHandler(() => undefined);
const held = new HeldBudget(1, 2);`;
    expect(misplaced(grown)).toEqual(['a route declared inline', 'an error handler', 'a part built inline']);
  });
});
