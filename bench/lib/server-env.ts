import { join } from 'node:path';

/** The environment of a console server whose files all live in `dir` (no built UI, no finalise delay). */
export function benchServerEnv(dir: string): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DIST_DIR: join(dir, 'no-dist'),
    DATA_DIR: dir,
    SANDBOX_DB: join(dir, 'sandbox.sqlite'),
    SANDBOX_FINALIZE_DELAY_MS: '0',
  };
}
