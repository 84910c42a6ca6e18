import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paysign, ROOT, sha1Hex, tempDir, writeTemp } from './run-cli.ts';

/**
 * README's first `paysign sign` example, run as a reader would: the key file its `echo` writes, the
 * command's arguments, and the control its comment promises (a key the reader cannot have made the
 * example unrunnable before).
 */
describe("README's paysign sign example", () => {
  it('prints the control its comment promises, with the key the README gives', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /## `paysign`, the command line\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const key = /^echo (\S+) > key\.txt/m.exec(block)?.[1];
    expect(key, 'the README writes the example key into key.txt').toBeDefined();
    const command =
      /paysign -- (sign v2\/sale [^\n]*?)\\\n\s*([^\n#]*?)\s*# → control ([0-9a-f]{8})…([0-9a-f]{4})/.exec(
        block,
      );
    expect(command, 'the v2/sale example with its promised control').not.toBeNull();
    const dir = tempDir();
    writeTemp(dir, 'key.txt', `${key}\n`);
    const args = `${command![1]} ${command![2]}`
      .trim()
      .split(/\s+/)
      .map((a) => (a === 'key.txt' ? join(dir, 'key.txt') : a));
    const r = await paysign(args);
    expect(r.code).toBe(0);
    const control = /^control = ([0-9a-f]{40})$/m.exec(r.stdout)?.[1];
    expect(control?.slice(0, 8)).toBe(command![3]);
    expect(control?.slice(-4)).toBe(command![4]);
    // And it is the description's formula, computed here on its own.
    expect(control).toBe(sha1Hex(`1111902B4FF51042john.smith@gmail.com${key}`));
  });
});
