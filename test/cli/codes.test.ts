import { describe, expect, it } from 'vitest';
import { paysign } from './run-cli.ts';

describe('paysign codes', () => {
  it('prints each code as "N · NAME" with where its number comes from', async () => {
    const r = await paysign(['codes', '1', 'insufficient_funds']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^1 · VALIDATION\s+gateway\s/);
    expect(r.stdout.split('\n')[1]).toMatch(/^402 · INSUFFICIENT_FUNDS\s+sandbox\s/);
  });

  it('refuses a code nobody knows, with exit code 2', async () => {
    const r = await paysign(['codes', '77']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no error code "77"');
  });
});
