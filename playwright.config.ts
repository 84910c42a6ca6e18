import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/browser-path.ts';

const PORT = Number(process.env.E2E_PORT ?? 4183);
const executablePath = findChromium();

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: { args: CHROMIUM_ARGS, ...(executablePath ? { executablePath } : {}) },
    trace: 'retain-on-failure',
  },
  // The real server with the local sandbox, a fresh in-memory database and a short settle delay.
  webServer: {
    command: 'npx tsx proxy/main.ts',
    url: `http://127.0.0.1:${PORT}/proxy/targets`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      SANDBOX_DB: ':memory:',
      DATA_DIR: `.data/e2e-${PORT}`,
      SANDBOX_FINALIZE_DELAY_MS: '300',
      // The specs were written against the fast local retries (a few seconds), not the gateway's
      // 30 attempts over 14 days: opted into by name (sandbox/relay/retry-schedule.ts).
      SANDBOX_CALLBACK_SCHEDULE: 'fast',
    },
  },
});
