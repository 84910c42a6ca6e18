/** A capsule by link: deflated into the fragment, read back whole; too large or damaged said plainly. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  capsuleLinkHref,
  MAX_CAPSULE_LINK_CHARS,
  readCapsuleFragment,
} from '../../src/exports/capsule-link.ts';

describe('capsule links', () => {
  it('carries the JSON in the fragment, compressed, and reads it back', async () => {
    const json = JSON.stringify({
      kind: 'pay-console.capsule',
      steps: Array(200).fill({ operation: 'v2/status' }),
    });
    const made = await capsuleLinkHref(json);
    if (!('href' in made)) throw new Error(made.error);
    expect(made.href).toMatch(/^\/capsule#capsule=[A-Za-z0-9_-]+$/);
    expect(made.chars).toBeLessThan(json.length / 10);
    expect(await readCapsuleFragment(made.href.slice(made.href.indexOf('#')))).toEqual({ text: json });
  });

  it('refuses a capsule over the limit with what to do instead', async () => {
    const json = JSON.stringify({ noise: randomBytes(MAX_CAPSULE_LINK_CHARS).toString('hex') });
    const made = await capsuleLinkHref(json);
    expect(made).toEqual({
      error: expect.stringMatching(
        /^This capsule is \d+ KB as a link, over the 32 KB a link carries: export the file and send it instead\.$/,
      ),
    });
    expect(await readCapsuleFragment(`#capsule=${'A'.repeat(MAX_CAPSULE_LINK_CHARS + 1)}`)).toEqual({
      error: expect.stringContaining('over the 32 KB a link carries'),
    });
  });

  it('says a damaged link is damaged, and ignores a fragment without a capsule', async () => {
    expect(await readCapsuleFragment('#capsule=AAAA')).toEqual({ error: expect.stringContaining('damaged') });
    expect(await readCapsuleFragment('#share=abc')).toBeNull();
  });
});
