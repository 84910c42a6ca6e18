/**
 * A real sandbox process for tests from outside (`sandbox/main.ts` over HTTP, on its own file).
 * Node itself with tsx's loader, not the tsx CLI: the CLI runs the script in a child process,
 * which a SIGKILL of the CLI would leave running (a second sandbox on the file, not a crash).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface SandboxProcess {
  child: ChildProcessWithoutNullStreams;
  /** The gateway's base, `http://127.0.0.1:<port>/sandbox/paynet`. */
  base: string;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** Resolves when the output matches `re` (checked on every chunk printed). */
  printed: (re: RegExp) => Promise<void>;
}

export function startSandboxProcess(env: Record<string, string>): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: '127.0.0.1', SANDBOX_PORT: env.SANDBOX_PORT ?? '0' },
  });
  let out = '';
  const watchers: Array<{ re: RegExp; resolve: () => void }> = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of watchers.splice(0)) {
      if (w.re.test(out)) w.resolve();
      else watchers.push(w);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const printed = (re: RegExp) =>
    new Promise<void>((resolve) => {
      if (re.test(out)) resolve();
      else watchers.push({ re, resolve });
    });
  return new Promise((resolve, reject) => {
    void printed(/listening: (http:\/\/\S+\/paynet)/).then(() => {
      const base = /listening: (http:\/\/\S+\/paynet)/.exec(out)![1]!;
      resolve({ child, base, output: () => out, printed });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
}

/** Sends `signal` and resolves once the process has exited. */
export function stopSandboxProcess(p: SandboxProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill(signal);
  });
}
