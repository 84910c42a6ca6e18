/**
 * The sandbox picks a scenario's behaviour from one typed table (sandbox/scenarios/registry.ts), not
 * by name literals spread over its files (issue 29 §4, docs/adding-a-scenario.md): a scenario's name
 * as a string in code appears in the registry only. Comments and messages name scenarios freely
 * (backticks, double quotes); the `chargeback` transaction kind is another thing of the same name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIO_NAMES } from '../../src/catalog/scenarios.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REGISTRY = 'sandbox/scenarios/registry.ts';
/** Where `'chargeback'` is the transaction's kind, not the scenario. */
const KIND_USES = new Set(['sandbox/scenarios/chargebacks.ts', 'sandbox/store/requests.ts']);

function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return files(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

describe('scenario names in the sandbox', () => {
  const sources = files('sandbox').map((f) => ({
    file: f,
    text: fs.readFileSync(path.join(ROOT, f), 'utf8'),
  }));

  it('reads the sandbox and its registry', () => {
    expect(sources.length).toBeGreaterThan(50);
    const registry = sources.find((s) => s.file === REGISTRY)!.text;
    for (const name of SCENARIO_NAMES)
      expect(registry).toMatch(new RegExp(`^ {2}(${name},|'${name}': )`, 'm'));
  });

  it.each(SCENARIO_NAMES)("'%s' is a string in the registry only", (name) => {
    const users = sources
      .filter((s) => s.file !== REGISTRY && !(name === 'chargeback' && KIND_USES.has(s.file)))
      .filter((s) => s.text.includes(`'${name}'`))
      .map((s) => s.file);
    expect(users).toEqual([]);
  });
});
