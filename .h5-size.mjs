// Static closure of the entry chunk, gzip sizes.
import { build } from 'vite';
import { gzipSync } from 'node:zlib';
const out = await build({ root: process.cwd(), logLevel: 'silent', build: { write: false, sourcemap: false } });
const chunks = new Map(out.output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
const entry = [...chunks.values()].find((c) => c.isEntry);
const seen = new Set(); const q = [entry.fileName];
while (q.length) { const f = q.shift(); if (seen.has(f)) continue; seen.add(f); q.push(...chunks.get(f).imports); }
let total = 0;
for (const f of seen) { const c = chunks.get(f); const gz = gzipSync(c.code, { level: 9 }).length; total += gz;
  const groups = {};
  for (const [id, m] of Object.entries(c.modules)) { let k = id.includes('node_modules') ? id.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : id.replace(process.cwd()+'/','').replace(/\/[^/]*$/, ''); groups[k] = (groups[k] ?? 0) + m.renderedLength; }
  console.log(f, (gz/1024).toFixed(1), 'KiB gz;', Object.entries(groups).sort((a,b)=>b[1]-a[1]).slice(0, 14).map(([k,v])=>`${k} ${(v/1024).toFixed(0)}`).join(', '));
}
console.log('static initial JS', (total/1024).toFixed(1), 'KiB gz');
