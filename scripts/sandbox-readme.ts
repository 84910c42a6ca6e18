/** `npm run docs:sandbox`: prints the generated tables of sandbox/README.md from the sandbox's own tables. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderReadme } from '../sandbox/readme-tables.ts';

const file = fileURLToPath(new URL('../sandbox/README.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const after = renderReadme(before);
if (after === before) console.log('sandbox/README.md is up to date.');
else {
  writeFileSync(file, after);
  console.log('sandbox/README.md: generated sections rewritten.');
}
