import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
/**
 * `node --import tsx <file>`: what `tsx <file>` runs, as one process (the tsx CLI would put a
 * wrapper process in between, which does not pass signals such as SIGUSR2 on).
 */
export const NODE_TSX = [process.execPath, '--import', 'tsx'] as const;

/** Starts a bench child (server, handler) from the repository root and resolves once its output matches `ready`. */
export function spawnUntil(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        resolvePromise({ child, match: m });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${out}`)));
  });
}

/** Stops a child with SIGTERM and resolves once it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}
