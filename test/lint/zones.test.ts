/**
 * The lint zones bite: each forbidden import below, written into the real folder it is forbidden in,
 * fails `npm run lint` with the named rule, and each legal import passes with no error at all (so the
 * test fails both ways). Probes are real files (the typed rules' project service reads only files on
 * disk), written under a name no source file uses and deleted afterwards. A throwaway feature folder
 * proves the feature list is read from src/features rather than kept by hand.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PATHS = 'import-x/no-restricted-paths';
const PACKAGES = 'no-restricted-imports';

interface Probe {
  name: string;
  /** The folder the probe file is written in, from the repository root. */
  dir: string;
  /** The module imported, as written in the probe. */
  from: string;
  /** The rule that must fire, or null for a legal import (no error at all). */
  rule: string | null;
}

const probe = (name: string, dir: string, from: string, rule: string | null): Probe => ({
  name,
  dir,
  from,
  rule,
});

// A folder of its own for src/node (another layer adds its first file) and a throwaway feature.
const NODE_TARGET = 'src/node/__zones-probe-target__.ts';
const NEW_FEATURE = 'src/features/__zones-probe-feature__';

const PROBES: Probe[] = [
  // The five probes of issue 8 §3.
  probe('core ← react', 'src/core', 'react', PACKAGES),
  probe('core ← react-dom/client', 'src/core', 'react-dom/client', PACKAGES),
  probe('core ← react-hook-form', 'src/core', 'react-hook-form', PACKAGES),
  probe('core ← @tanstack/react-query', 'src/core', '@tanstack/react-query', PACKAGES),
  probe('core ← monaco-editor', 'src/core', 'monaco-editor', PACKAGES),
  probe('core ← node:crypto', 'src/core', 'node:crypto', PACKAGES),
  probe('core ← fs (a built-in by bare name)', 'src/core', 'fs', PACKAGES),
  probe('core ← path/posix', 'src/core', 'path/posix', PACKAGES),
  probe('core ← src/ui', 'src/core', '../ui/index.ts', PATHS),
  probe('core ← src/catalog', 'src/core', '../catalog/index.ts', PATHS),
  probe('core ← src/diagnose', 'src/core', '../diagnose/index.ts', PATHS),
  probe('core ← src/browser', 'src/core', '../browser/idb.ts', PATHS),
  probe('sandbox ← src/features', 'sandbox', '../src/features/console/send/send-session.ts', PATHS),
  probe('sandbox ← src/app', 'sandbox', '../src/app/routes.ts', PATHS),
  probe('sandbox ← src/ui', 'sandbox', '../src/ui/index.ts', PATHS),
  probe('sandbox ← react', 'sandbox', 'react', PACKAGES),
  probe('proxy ← src/browser', 'proxy', '../src/browser/idb.ts', PATHS),
  probe('classroom ← src/features', 'classroom', '../src/features/classroom/index.ts', PATHS),
  probe('classroom ← src/browser', 'classroom', '../src/browser/idb.ts', PATHS),
  probe('classroom ← react', 'classroom', 'react', PACKAGES),
  probe('core ← classroom', 'src/core', '../../classroom/checks.ts', PATHS),
  probe('legal: classroom ← sandbox', 'classroom', '../sandbox/hooks.ts', null),
  probe('cli ← src/features', 'src/cli', '../features/console/send/send-session.ts', PATHS),
  probe('exports ← src/ui', 'src/exports', '../ui/index.ts', PATHS),
  probe('exports ← src/features', 'src/exports', '../features/console/send/send-session.ts', PATHS),
  probe('exports ← @tanstack/react-query', 'src/exports', '@tanstack/react-query', PACKAGES),
  probe('exports ← react', 'src/exports', 'react', PACKAGES),
  probe('ui ← a feature', 'src/ui', '../features/console/send/send-session.ts', PATHS),
  probe('ui ← the app shell', 'src/ui', '../app/routes.ts', PATHS),
  probe('browser ← a feature', 'src/browser', '../features/history/index.ts', PATHS),
  // The extra zones.
  probe('model ← src/ui', 'src/model', '../ui/index.ts', PATHS),
  probe('capture ← src/exports', 'src/capture', '../exports/index.ts', PATHS),
  probe('browser ← react', 'src/browser', 'react', PACKAGES),
  probe('browser ← src/ui', 'src/browser', '../ui/index.ts', PATHS),
  probe('src/node ← src/catalog', 'src/node', '../catalog/index.ts', PATHS),
  probe('src/node ← src/exports', 'src/node', '../exports/index.ts', PATHS),
  probe('src/node ← react', 'src/node', 'react', PACKAGES),
  probe('a feature ← src/node', 'src/features/keys', '../../node/__zones-probe-target__.ts', PATHS),
  probe('src/app ← src/node', 'src/app', '../node/__zones-probe-target__.ts', PATHS),
  probe('src/browser ← src/node', 'src/browser', '../node/__zones-probe-target__.ts', PATHS),
  probe('src/exports ← src/node', 'src/exports', '../node/__zones-probe-target__.ts', PATHS),
  probe('diagnose ← src/exports', 'src/diagnose', '../exports/index.ts', PATHS),
  probe('diagnose ← src/browser', 'src/diagnose', '../browser/idb.ts', PATHS),
  probe('diagnose ← react', 'src/diagnose', 'react', PACKAGES),
  probe('diagnose ← node:fs', 'src/diagnose', 'node:fs', PACKAGES),
  probe('catalog ← src/diagnose', 'src/catalog', '../diagnose/index.ts', PATHS),
  probe('catalog ← src/capture', 'src/catalog', '../capture/index.ts', PATHS),
  probe('core ← src/capture', 'src/core', '../capture/index.ts', PATHS),
  probe('capture ← src/model', 'src/capture', '../model/index.ts', PATHS),
  probe('capture ← src/diagnose', 'src/capture', '../diagnose/index.ts', PATHS),
  probe('capture ← react', 'src/capture', 'react', PACKAGES),
  probe('capture ← node:fs', 'src/capture', 'node:fs', PACKAGES),
  probe('model ← a feature', 'src/model', '../features/console/send/send-session.ts', PATHS),
  probe('model ← src/browser', 'src/model', '../browser/idb.ts', PATHS),
  probe('model ← src/diagnose', 'src/model', '../diagnose/index.ts', PATHS),
  probe('model ← src/exports', 'src/model', '../exports/index.ts', PATHS),
  probe('model ← react', 'src/model', 'react', PACKAGES),
  probe('model ← node:crypto', 'src/model', 'node:crypto', PACKAGES),
  probe('catalog ← src/model', 'src/catalog', '../model/index.ts', PATHS),
  probe('a feature ← another feature', 'src/features/console', '../debugger/index.ts', PATHS),
  probe('a feature ← the app shell', 'src/features/history', '../../app/routes.ts', PATHS),
  probe(
    'a feature ← a feature folder created after the config was written',
    'src/features/console',
    `../__zones-probe-feature__/index.ts`,
    PATHS,
  ),
  // Issue 29 §2: the contracts floor reads zod and the catalog only.
  probe('contracts ← src/core', 'src/contracts', '../core/index.ts', PATHS),
  probe('contracts ← src/model', 'src/contracts', '../model/index.ts', PATHS),
  probe('contracts ← src/browser', 'src/contracts', '../browser/idb.ts', PATHS),
  probe('contracts ← proxy', 'src/contracts', '../../proxy/guards.ts', PATHS),
  probe('contracts ← react', 'src/contracts', 'react', PACKAGES),
  probe('contracts ← fastify', 'src/contracts', 'fastify', PACKAGES),
  probe('legal: contracts ← zod/mini', 'src/contracts', 'zod/mini', null),
  probe('legal: contracts ← src/catalog', 'src/contracts', '../catalog/index.ts', null),
  probe('legal: proxy ← src/contracts', 'proxy', '../src/contracts/callback-inbox.ts', null),
  probe('legal: browser ← src/contracts', 'src/browser', '../contracts/callback-inbox.ts', null),
  // Issue 22 §2: the outer ring.
  probe('sandbox ← proxy', 'sandbox', '../proxy/guards.ts', PATHS),
  probe('sandbox ← classroom', 'sandbox', '../classroom/http.ts', PATHS),
  probe('proxy ← classroom', 'proxy', '../classroom/http.ts', PATHS),
  probe('a feature ← sandbox', 'src/features/console', '../../../sandbox/route-access.ts', PATHS),
  probe('src/app ← proxy', 'src/app', '../../proxy/guards.ts', PATHS),
  probe('model ← classroom', 'src/model', '../../classroom/http.ts', PATHS),
  probe('browser ← sandbox', 'src/browser', '../../sandbox/route-access.ts', PATHS),
  probe('a feature ← node:fs', 'src/features/history', 'node:fs', PACKAGES),
  probe('src/app ← crypto (a built-in by bare name)', 'src/app', 'crypto', PACKAGES),
  probe('ui ← node:path', 'src/ui', 'node:path', PACKAGES),
  probe('a feature ← better-sqlite3', 'src/features/saved', 'better-sqlite3', PACKAGES),
  probe('model ← better-sqlite3', 'src/model', 'better-sqlite3', PACKAGES),
  probe('source ← test/', 'src/catalog', '../../test/lint/zones.test.ts', PATHS),
  probe('sandbox ← e2e/', 'sandbox', '../e2e/support/axe.ts', PATHS),
  probe('a feature ← test/', 'src/features/keys', '../../../test/lint/zones.test.ts', PATHS),
  probe('diagnose ← node-forge', 'src/diagnose', 'node-forge', PACKAGES),
  probe('a feature ← node-forge', 'src/features/profiles', 'node-forge', PACKAGES),
  probe('core (outside keys) ← node-forge', 'src/core/oauth', 'node-forge', PACKAGES),
  probe('sandbox ← node-forge', 'sandbox', 'node-forge', PACKAGES),
  probe('legal: core/keys ← node-forge', 'src/core/keys', 'node-forge', null),
  probe('legal: a feature ← the feature named console', 'src/app', '../features/console/index.ts', null),
  probe('legal: proxy ← sandbox', 'proxy', '../sandbox/route-access.ts', null),
  probe('legal: classroom ← proxy', 'classroom', '../proxy/guards.ts', null),
  // Legal imports: no error at all.
  probe('legal: core ← core', 'src/core', './bytes.ts', null),
  probe('legal: core ← zod', 'src/core', 'zod', null),
  probe('legal: diagnose ← catalog', 'src/diagnose', '../catalog/index.ts', null),
  probe('legal: capture ← catalog', 'src/capture', '../catalog/index.ts', null),
  probe('legal: diagnose ← capture', 'src/diagnose', '../capture/index.ts', null),
  probe('legal: model ← capture', 'src/model', '../capture/index.ts', null),
  probe('legal: model ← catalog', 'src/model', '../catalog/index.ts', null),
  probe('legal: exports ← model', 'src/exports', '../model/index.ts', null),
  probe('legal: browser ← model', 'src/browser', '../model/index.ts', null),
  probe('legal: diagnose ← core', 'src/diagnose', '../core/index.ts', null),
  probe('legal: exports ← diagnose', 'src/exports', '../diagnose/index.ts', null),
  probe('legal: exports ← capture', 'src/exports', '../capture/index.ts', null),
  probe('legal: ui ← browser', 'src/ui', '../browser/idb.ts', null),
  probe('legal: browser ← catalog', 'src/browser', '../catalog/index.ts', null),
  probe('legal: a feature ← ui', 'src/features/console', '../../ui/index.ts', null),
  probe('legal: a feature ← browser', 'src/features/console', '../../browser/idb.ts', null),
  probe('legal: a feature ← react', 'src/features/console', 'react', null),
  probe('legal: a feature ← diagnose', 'src/features/debugger', '../../diagnose/index.ts', null),
  probe('legal: src/node ← core', 'src/node', '../core/index.ts', null),
  probe('legal: cli ← src/node', 'src/cli', '../node/__zones-probe-target__.ts', null),
  probe('legal: sandbox ← catalog', 'sandbox', '../src/catalog/index.ts', null),
];

const written: string[] = [];
const createdDirs: string[] = [];
const results = new Map<Probe, ESLint.LintResult>();

function write(rel: string, text: string): string {
  const file = path.join(ROOT, rel);
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    createdDirs.push(dir);
  }
  fs.writeFileSync(file, text);
  written.push(file);
  return file;
}

function cleanUp(): void {
  for (const f of written.splice(0)) fs.rmSync(f, { force: true });
  // Deepest first; only folders this test created, and only if still empty.
  for (const d of createdDirs.splice(0).reverse()) if (fs.readdirSync(d).length === 0) fs.rmdirSync(d);
}

beforeAll(async () => {
  try {
    write(NODE_TARGET, 'export const probeTarget = 1;\n');
    write(`${NEW_FEATURE}/index.ts`, 'export const probeFeature = 1;\n');
    const files = PROBES.map((p, i) =>
      write(`${p.dir}/__zones-probe-${i}__.ts`, `import * as m from '${p.from}';\nexport const probe = m;\n`),
    );
    // Created after the probe feature folder, so the config reads the directory with it inside.
    const eslint = new ESLint({ cwd: ROOT });
    const out = await eslint.lintFiles(files);
    const byFile = new Map(out.map((r) => [r.filePath, r]));
    PROBES.forEach((p, i) => results.set(p, byFile.get(files[i]!)!));
  } finally {
    cleanUp();
  }
}, 180_000);

afterAll(cleanUp);

describe('lint zones', () => {
  it.each(PROBES.filter((p) => p.rule !== null).map((p) => [p.name, p] as const))(
    '%s fails lint',
    (_n, p) => {
      const r = results.get(p)!;
      expect(r.messages.filter((m) => m.fatal)).toEqual([]);
      const hits = r.messages.filter((m) => m.ruleId === p.rule && m.severity === 2);
      expect(hits, `${p.rule} on ${p.dir} importing ${p.from}`).toHaveLength(1);
      // The message says what to do, not only what is wrong.
      expect(hits[0]!.message.length).toBeGreaterThan(60);
    },
  );

  it.each(PROBES.filter((p) => p.rule === null).map((p) => [p.name, p] as const))(
    '%s passes lint',
    (_n, p) => {
      const r = results.get(p)!;
      expect(r.messages.map((m) => `${m.ruleId}: ${m.message}`)).toEqual([]);
    },
  );
});
