/**
 * Starting `sandbox/main.ts` from outside: the banner names the process to stop (npm and tsx run
 * the sandbox in a child, and a kill -9 of theirs leaves it running on the file), and a port in
 * use exits 1 with a message that names SANDBOX_PORT, not a stack.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxProcess, stopSandboxProcess, type SandboxProcess } from './sandbox-process.ts';

describe('starting the sandbox process', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-start-'));
  let first: SandboxProcess | undefined;

  afterAll(async () => {
    if (first) await stopSandboxProcess(first);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names its own process id, and a second one on the same port exits naming SANDBOX_PORT', async () => {
    first = await startSandboxProcess({ DATA_DIR: dir, SANDBOX_DB: ':memory:' });
    expect(first.output()).toContain(`process id ${first.child.pid}: to stop this sandbox`);
    const port = new URL(first.base).port;
    const second = startSandboxProcess({ DATA_DIR: dir, SANDBOX_DB: ':memory:', SANDBOX_PORT: port });
    const failure = await second.then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(failure).toMatch(/sandbox exited \(1\)/);
    expect(failure).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use.*SANDBOX_PORT`));
  }, 60_000);
});
