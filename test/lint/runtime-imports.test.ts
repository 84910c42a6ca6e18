/**
 * Issue 29 §2: the composition root of signing (src/app/runtime.ts) wires the core and the browser's
 * IO only; a feature's module there would load that feature wherever the runtime is read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

it('src/app/runtime.ts imports no feature', () => {
  const text = fs.readFileSync(path.join(ROOT, 'src/app/runtime.ts'), 'utf8');
  const imports = [...text.matchAll(/from '([^']+)'|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]!);
  expect(imports.length).toBeGreaterThan(2);
  expect(imports.filter((i) => i.includes('/features/'))).toEqual([]);
});
