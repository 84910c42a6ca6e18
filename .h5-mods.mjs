import { build } from 'vite';
import { transform } from 'esbuild';
import { gzipSync } from 'node:zlib';
const out = await build({ root: process.cwd(), logLevel: 'silent', build: { write: false, sourcemap: false } });
const chunks = new Map(out.output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
const entry = [...chunks.values()].find((c) => c.isEntry);
const seen = new Set(); const q = [entry.fileName];
while (q.length) { const f = q.shift(); if (seen.has(f)) continue; seen.add(f); q.push(...chunks.get(f).imports); }
const rows = [];
for (const f of seen) for (const [id, m] of Object.entries(chunks.get(f).modules)) {
  if (!m.code) continue;
  const min = (await transform(m.code, { minify: true, loader: 'js' })).code;
  rows.push([gzipSync(min).length, id.replace(process.cwd() + '/', '').replace(/.*node_modules\//, 'nm:')]);
}
const by = (fn) => { const g = {}; for (const [s, id] of rows) { const k = fn(id); g[k] = (g[k] ?? 0) + s; } return Object.entries(g).sort((a, b) => b[1] - a[1]); };
const mode = process.argv[2] ?? 'group';
const list = mode === 'files' ? rows.map(([s, id]) => [id, s]).sort((a, b) => b[1] - a[1]) : by((id) => id.startsWith('nm:') ? id.replace(/^nm:((@[^/]+\/)?[^/]+).*/, '$1') : id.replace(/\/[^/]*$/, ''));
for (const [k, v] of list.slice(0, Number(process.argv[3] ?? 40))) console.log(String((v / 1024).toFixed(1)).padStart(6), k);
