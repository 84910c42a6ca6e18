import { build } from 'vite';
const targets = process.argv.slice(2);
await build({ root: process.cwd(), logLevel: 'silent', build: { write: false, sourcemap: false },
  plugins: [{ name: 'why', generateBundle() {
    const entry = [...this.getModuleIds()].find((id) => id.endsWith('src/main.tsx'));
    // BFS over static imports only
    const prev = new Map([[entry, null]]); const q = [entry];
    while (q.length) { const id = q.shift(); const info = this.getModuleInfo(id); if (!info) continue;
      for (const d of info.importedIds) if (!prev.has(d)) { prev.set(d, id); q.push(d); } }
    const cwd = process.cwd() + '/';
    for (const t of targets) {
      const hits = [...prev.keys()].filter((id) => id.includes(t));
      console.log(`## ${t}: ${hits.length} statically reachable modules`);
      if (hits[0]) { let c = hits[0]; const chain = []; while (c) { chain.push(c.replace(cwd, '')); c = prev.get(c); } console.log('  ' + chain.reverse().join('\n   <- '.replace('<-','->'))); }
    }
  } }] });
