/**
 * Bench servers in their own processes: the parent forks a TypeScript file (through tsx), the child
 * listens on an ephemeral loopback port, says so over IPC, and answers CPU-time questions, so a load
 * generator in the parent measures a server that does not share its event loop.
 */
import { fork, type ChildProcess } from 'node:child_process';

export interface ChildServer {
  port: number;
  /** The child's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

type Message =
  { type: 'ready'; port: number } | { type: 'cpu'; micros: number } | { type: 'failed'; message: string };

function next(child: ChildProcess, type: Message['type']): Promise<Message> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Message) => {
      if (m.type === 'failed') {
        cleanup();
        reject(new Error(m.message));
      } else if (m.type === type) {
        cleanup();
        resolve(m);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the bench child exited (${code}) before answering`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Forks `file` with `args`; resolves once it listens. */
export async function startChild(file: string, args: string[] = []): Promise<ChildServer> {
  const child = fork(file, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = (await next(child, 'ready')) as { port: number };
  return {
    port: ready.port,
    cpuMicros: async () => {
      const answer = next(child, 'cpu');
      child.send({ type: 'cpu' });
      return ((await answer) as { micros: number }).micros;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The child's side: report the port, then answer CPU questions until told to stop. */
export function serveBenchParent(port: number, close: () => Promise<void>): void {
  const send = (m: Message) => process.send?.(m);
  process.on('message', (m: { type?: string }) => {
    if (m.type === 'cpu') {
      const u = process.cpuUsage();
      send({ type: 'cpu', micros: u.user + u.system });
    }
  });
  process.once('SIGTERM', () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  send({ type: 'ready', port });
}

export function reportStartFailure(err: unknown): void {
  process.send?.({
    type: 'failed',
    message: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  process.exitCode = 1;
}
